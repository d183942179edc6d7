/**
 * A real upstream for the forking tests: a chain-sim server on a loopback port with a history
 * (an ERC-20 with many holders, a contract with nested mappings and dynamic arrays, an
 * EIP-1967 proxy, a few hundred blocks), and a count of the requests it received, by method,
 * taken on its side of the wire (its --verbose request log).
 */
import { Interface } from 'ethers';
import { createServer, type ChainSimServer } from '../../src/index.js';
import { artifact } from '../helpers/chain.js';

export const token = new Interface(artifact('Token').abi);
export const ledger = new Interface(artifact('Ledger').abi);
export const counter = new Interface(artifact('CounterV2').abi);
export const proxyAbi = new Interface(artifact('Proxy').abi);

export const HOLDERS = 60;
/** Holder i (1-based) received i * 1000 tokens at the holders' block. */
export const holder = (i: number): string => `0x${(0x1000 + i).toString(16).padStart(40, '0')}`;

export interface Upstream {
  readonly url: string;
  readonly server: ChainSimServer;
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Requests the upstream answered, by method (each call of a batch counts). */
  readonly calls: Map<string, number>;
  callCount(method?: string): number;
  readonly accounts: string[];
  readonly tokenAddress: string;
  readonly ledgerAddress: string;
  readonly proxyAddress: string;
  readonly counterV2Address: string;
  /** The block of the holders' transfers (one block, all of them). */
  readonly holdersBlock: bigint;
  /** The head after the setup (the history's last block). */
  readonly head: bigint;
  /** A transaction hash of the history (a token transfer before the head). */
  readonly transferTx: string;
  close(): Promise<void>;
}

export async function startUpstream(options: { hardfork?: string; chainId?: number } = {}): Promise<Upstream> {
  const calls = new Map<string, number>();
  const server = await createServer({
    quiet: false,
    verbose: true,
    hardfork: options.hardfork ?? 'prague',
    chainId: options.chainId ?? 31337,
    port: 0,
    host: '127.0.0.1',
    logger: (line) => {
      const method = /^(\S+) \d/.exec(line)?.[1];
      if (method) calls.set(method, (calls.get(method) ?? 0) + 1);
    },
  });
  const { url } = await server.listen(0, '127.0.0.1');
  const rpc = <T>(method: string, params: unknown[] = []) => server.node.dispatcher.call(method, params) as Promise<T>;
  const accounts = await rpc<string[]>('eth_accounts');
  const [alice, bob] = accounts as [string, string];
  const deploy = async (name: string, args: unknown[] = []): Promise<string> => {
    const { abi, bytecode } = artifact(name);
    const data = bytecode + new Interface(abi).encodeDeploy(args).slice(2);
    const hash = await rpc<string>('eth_sendTransaction', [{ from: alice, data, gas: '0x2dc6c0' }]);
    return (await rpc<{ contractAddress: string }>('eth_getTransactionReceipt', [hash])).contractAddress;
  };
  const tokenAddress = await deploy('Token', ['Token', 'TKN', 10n ** 27n]);
  const ledgerAddress = await deploy('Ledger');
  const v1 = await deploy('CounterV1');
  const counterV2Address = await deploy('CounterV2');
  const proxyAddress = await deploy('Proxy', [v1]);
  // Many holders in one block: automine off, one mined block.
  await rpc('chain_setAutomine', [false]);
  let transferTx = '';
  for (let i = 1; i <= HOLDERS; i++) {
    transferTx = await rpc<string>('eth_sendTransaction', [
      { from: alice, to: tokenAddress, gas: '0x186a0', data: token.encodeFunctionData('transfer', [holder(i), BigInt(i) * 1000n]) },
    ]);
  }
  for (let i = 0; i < 20; i++) {
    await rpc('eth_sendTransaction', [
      { from: i % 2 === 0 ? alice : bob, to: ledgerAddress, gas: '0x30d40', data: ledger.encodeFunctionData('record', [i % 5, 100 + i]) },
    ]);
  }
  for (let i = 0; i < 3; i++)
    await rpc('eth_sendTransaction', [{ from: alice, to: proxyAddress, gas: '0x186a0', data: counter.encodeFunctionData('increment') }]);
  await rpc('chain_mine', ['0x1']);
  const holdersBlock = BigInt(await rpc<string>('eth_blockNumber'));
  await rpc('chain_setAutomine', [true]);
  // A few hundred blocks, then more history after them (transfers and records at known blocks).
  await rpc('chain_mine', ['0x12c']);
  await rpc('eth_sendTransaction', [{ from: bob, to: ledgerAddress, gas: '0x30d40', data: ledger.encodeFunctionData('record', [7, 777]) }]);
  await rpc('eth_sendTransaction', [{ from: alice, to: tokenAddress, gas: '0x186a0', data: token.encodeFunctionData('transfer', [holder(1), 1n]) }]);
  const head = BigInt(await rpc<string>('eth_blockNumber'));
  calls.clear();
  return {
    url,
    server,
    rpc,
    calls,
    callCount: (method?: string) => (method === undefined ? [...calls.values()].reduce((a, b) => a + b, 0) : (calls.get(method) ?? 0)),
    accounts,
    tokenAddress,
    ledgerAddress,
    proxyAddress,
    counterV2Address,
    holdersBlock,
    head,
    transferTx,
    close: async () => void (await server.close()),
  };
}

/** The stateful calls a fork makes of its upstream (what the disk cache must spare a second run). */
/** Mocha hooks around the calling suite: one upstream for all its tests, stopped after them. */
export function upstreamForSuite(): () => Upstream {
  let upstream: Upstream | undefined;
  before(async () => {
    upstream = await startUpstream();
  });
  after(async () => {
    await upstream?.close();
  });
  return () => upstream!;
}

export const STATE_METHODS = ['eth_getBalance', 'eth_getTransactionCount', 'eth_getCode', 'eth_getStorageAt', 'eth_getProof'];

export function stateCalls(upstream: Upstream): number {
  return STATE_METHODS.reduce((total, method) => total + upstream.callCount(method), 0);
}
