/** Shared test helpers: a fresh in-process node, the default keys, artifacts and error assertions. */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { Wallet, type TransactionRequest, Interface, type InterfaceAbi } from 'ethers';
import { type ChainSimOptions, type ChainSimProvider, createProvider } from '../../src/index.js';

export const KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
] as const;
export const WALLETS = KEYS.map((k) => new Wallet(k));
export const ADDRESSES = WALLETS.map((w) => w.address.toLowerCase());
export const CHAIN_ID = 1337;

export type Rpc = <T = unknown>(method: string, params?: unknown[]) => Promise<T>;

export function newNode(options: ChainSimOptions = {}): { provider: ChainSimProvider; rpc: Rpc } {
  const provider = createProvider({ quiet: true, hardfork: 'prague', ...options });
  const rpc: Rpc = async <T>(method: string, params: unknown[] = []) => (await provider.request({ method, params })) as T;
  return { provider, rpc };
}

/** Nodes made by the returned function are disconnected after each test of the `describe` block this is called in. */
export function nodesPerTest(): (options?: ChainSimOptions) => ReturnType<typeof newNode> {
  const nodes: Array<ReturnType<typeof newNode>> = [];
  afterEach(async () => {
    await Promise.all(nodes.splice(0).map((n) => n.provider.disconnect()));
  });
  return (options = {}) => {
    const made = newNode(options);
    nodes.push(made);
    return made;
  };
}

export interface Artifact {
  readonly abi: InterfaceAbi;
  readonly bytecode: string;
}

export function artifact(name: string): Artifact {
  return JSON.parse(readFileSync(new URL(`../../../fixtures/artifacts/${name}.json`, import.meta.url), 'utf8')) as Artifact;
}

/** Sign a transaction with a default key (defaults: EIP-1559, 1 gwei tip, generous cap). */
export async function signed(keyIndex: number, tx: TransactionRequest): Promise<string> {
  return WALLETS[keyIndex]!.signTransaction({
    chainId: CHAIN_ID,
    type: 2,
    gasLimit: 100_000,
    maxFeePerGas: 100_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
    value: 0,
    ...tx,
  });
}

/**
 * The hash a send answers, or for a transaction that failed under automine the hash carried by the
 * error of a node giving Hardhat's forms (hardhatNode: true): the transaction is mined all the same.
 */
export async function sentHash(sending: Promise<unknown>): Promise<string> {
  try {
    return (await sending) as string;
  } catch (error) {
    const txHash = (error as { data?: { txHash?: unknown } }).data?.txHash;
    if (typeof txHash === 'string') return txHash;
    throw error;
  }
}

/** Send a signed transaction and return its receipt (automine mines it before the send returns). */
export async function send(rpc: Rpc, keyIndex: number, tx: TransactionRequest): Promise<Record<string, unknown>> {
  const hash = await sentHash(rpc<string>('eth_sendRawTransaction', [await signed(keyIndex, tx)]));
  const receipt = await rpc<Record<string, unknown> | null>('eth_getTransactionReceipt', [hash]);
  expect(receipt, `receipt of ${hash}`).to.not.equal(null);
  return receipt!;
}

/** Deploy an artifact from key 0; returns its address. */
export async function deploy(rpc: Rpc, name: string, args: unknown[] = [], nonce?: number): Promise<string> {
  const { abi, bytecode } = artifact(name);
  const encodedArgs = new Interface(abi).encodeDeploy(args).slice(2);
  const from = ADDRESSES[0]!;
  const n = nonce ?? Number(await rpc<string>('eth_getTransactionCount', [from, 'pending']));
  const receipt = await send(rpc, 0, { data: bytecode + encodedArgs, nonce: n, gasLimit: 3_000_000 });
  expect(receipt.status).to.equal('0x1');
  return receipt.contractAddress as string;
}

export async function nonceOf(rpc: Rpc, address: string, tag = 'pending'): Promise<number> {
  return Number(await rpc<string>('eth_getTransactionCount', [address, tag]));
}

/** Assert that a promise rejects with a JSON-RPC error of this code whose message matches. */
export async function expectRpcError(promise: Promise<unknown>, code: number, message?: RegExp): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { code: number; message: string; data?: unknown };
    expect(e.code, `error code (message: ${e.message})`).to.equal(code);
    if (message) expect(e.message).to.match(message);
    return e;
  }
  expect.fail(`expected a JSON-RPC error ${code}${message ? ` matching ${message}` : ''}, but the call succeeded`);
}
