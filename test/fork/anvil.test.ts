import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { Interface } from 'ethers';
import { anvilBinary } from '../../bench/anvil.js';
import { type ChainSimProvider, createProvider } from '../../src/index.js';
import { artifact } from '../helpers/chain.js';
import { fetchRpc } from '../helpers/rpc.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const token = new Interface(artifact('Token').abi);
const holder = (i: number): string => `0x${(0x2000 + i).toString(16).padStart(40, '0')}`;
const hex = (value: bigint | number): string => `0x${BigInt(value).toString(16)}`;

/**
 * Anvil (from npm, as the bench runs it) as the upstream: an independent implementation of
 * everything a fork asks of its upstream, and of the answers a fork should give.
 */
describe('forking Anvil', function () {
  this.timeout(120_000);
  let anvil: ChildProcess | undefined;
  let url = '';
  let provider: ChainSimProvider | undefined;
  const upstream = fetchRpc(() => url);
  /** Anvil answers a send before its block is mined, so a receipt read at once may still be null. */
  const minedReceipt = async (hash: string): Promise<{ contractAddress: string }> => {
    for (let attempt = 0; attempt < 200; attempt++) {
      const receipt = await upstream<{ contractAddress: string } | null>('eth_getTransactionReceipt', [hash]);
      if (receipt) return receipt;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`anvil did not mine ${hash}`);
  };
  const rpc = <T = unknown>(method: string, params: unknown[] = []) => provider!.request({ method, params }) as Promise<T>;

  before(async function () {
    let binary: string;
    try {
      binary = anvilBinary(ROOT);
    } catch (error) {
      // Without the registry (offline machine) there is no Anvil to fork: say so rather than pass.
      console.warn(`skipping: no Anvil binary (${error instanceof Error ? error.message : String(error)})`);
      this.skip();
    }
    anvil = spawn(binary!, ['--port', '0', '--hardfork', 'prague'], { stdio: ['ignore', 'pipe', 'pipe'] });
    url = await new Promise<string>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`anvil did not start:\n${output}`)), 20_000);
      anvil!.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /Listening on (\S+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(`http://${match[1]}`);
        }
      });
    });
    const [alice] = await upstream<string[]>('eth_accounts');
    const { abi, bytecode } = artifact('Token');
    const deployHash = await upstream<string>('eth_sendTransaction', [
      { from: alice, data: bytecode + new Interface(abi).encodeDeploy(['Token', 'TKN', 10n ** 24n]).slice(2) },
    ]);
    const tokenAddress = (await minedReceipt(deployHash)).contractAddress;
    for (let i = 1; i <= 20; i++) {
      await minedReceipt(
        await upstream<string>('eth_sendTransaction', [{ from: alice, to: tokenAddress, data: token.encodeFunctionData('transfer', [holder(i), BigInt(i)]) }]),
      );
    }
    await upstream('anvil_mine', ['0x64']);
    await minedReceipt(
      await upstream<string>('eth_sendTransaction', [{ from: alice, to: tokenAddress, data: token.encodeFunctionData('transfer', [holder(1), 1000n]) }]),
    );
    tokenAt = tokenAddress;
  });
  let tokenAt = '';
  after(async () => {
    await provider?.disconnect();
    anvil?.kill('SIGTERM');
  });

  it("pins Anvil's block, takes its chain id and hardfork, and answers as Anvil does at the pinned block", async () => {
    const head = BigInt(await upstream<string>('eth_blockNumber'));
    const pinned = head - 1n; // before the last transfer
    provider = createProvider({ quiet: true, forkCache: false, fork: url, forkBlockNumber: pinned.toString() });
    const node = await provider.ready();
    expect(node.fork.session!.hardfork).to.equal('prague');
    expect(node.fork.session!.hardforkSource).to.match(/anvil_nodeInfo/);
    expect(await rpc('eth_chainId')).to.equal('0x7a69');
    const balanceOf = (who: string, tag: string, via: typeof rpc) =>
      via<string>('eth_call', [{ to: tokenAt, data: token.encodeFunctionData('balanceOf', [who]) }, tag]);
    for (const i of [1, 7, 20]) {
      expect(await balanceOf(holder(i), 'latest', rpc)).to.equal(await balanceOf(holder(i), hex(pinned), upstream));
    }
    expect(await rpc('eth_getCode', [tokenAt, 'latest'])).to.equal(await upstream('eth_getCode', [tokenAt, hex(pinned)]));
    const pinnedBlock = await upstream<{ hash: string }>('eth_getBlockByNumber', [hex(pinned), false]);
    expect((await rpc<{ hash: string }>('eth_getBlockByNumber', [hex(pinned), false])).hash).to.equal(pinnedBlock.hash);
    // A holder moves tokens on the fork; Anvil never sees it.
    await rpc('anvil_impersonateAccount', [holder(20)]);
    await rpc('anvil_setBalance', [holder(20), hex(10n ** 18n)]);
    const hash = await rpc<string>('eth_sendTransaction', [{ from: holder(20), to: tokenAt, data: token.encodeFunctionData('transfer', [holder(3), 20n]) }]);
    const receipt = await rpc<{ status: string; blockNumber: string }>('eth_getTransactionReceipt', [hash]);
    expect(receipt.status).to.equal('0x1');
    const block = await rpc<{ parentHash: string }>('eth_getBlockByNumber', [receipt.blockNumber, false]);
    expect(block.parentHash).to.equal(pinnedBlock.hash);
    expect(BigInt(await balanceOf(holder(3), 'latest', rpc))).to.equal(23n);
    expect(BigInt(await balanceOf(holder(3), 'latest', upstream))).to.equal(3n);
    // Logs across the fork point: Anvil's 21 (mint + 20 transfers up to the pinned block), then ours.
    const logs = await rpc<Array<{ transactionHash: string }>>('eth_getLogs', [{ address: tokenAt, fromBlock: '0x0', toBlock: 'latest' }]);
    const theirs = await upstream<unknown[]>('eth_getLogs', [{ address: tokenAt, fromBlock: '0x0', toBlock: hex(pinned) }]);
    expect(logs.slice(0, theirs.length)).to.deep.equal(theirs);
    expect(logs.length).to.equal(theirs.length + 1);
    expect(logs[logs.length - 1]!.transactionHash).to.equal(hash);
    // A call at a block before the fork is Anvil's answer at that block.
    expect(await balanceOf(holder(20), '0x5', rpc)).to.equal(await balanceOf(holder(20), '0x5', upstream));
  });
});
