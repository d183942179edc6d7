/** Shared by the filter tests: an in-process node with the Token contract, and a few calls on it. */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { Interface, type InterfaceAbi } from 'ethers';
import { type ChainSimOptions, type ChainSimProvider, createProvider } from '../../src/index.js';

export const ACCOUNTS = [
  '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
] as const;

export interface TokenArtifact {
  readonly abi: InterfaceAbi;
  readonly bytecode: string;
}

export const TOKEN: TokenArtifact = JSON.parse(readFileSync(new URL('../../../fixtures/artifacts/Token.json', import.meta.url), 'utf8')) as TokenArtifact;
export const token = new Interface(TOKEN.abi);
export const TRANSFER = token.getEvent('Transfer')!.topicHash;
export const APPROVAL = token.getEvent('Approval')!.topicHash;

/** A 32-byte topic holding an address, as indexed address parameters are logged. */
export const addressTopic = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;

export type JsonLog = {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  transactionIndex: string;
  logIndex: string;
  removed: boolean;
};

export interface Node {
  readonly provider: ChainSimProvider;
  rpc<T = unknown>(method: string, ...params: unknown[]): Promise<T>;
  /** The RPC error a call fails with (fails the test if it succeeds). */
  rpcError(method: string, ...params: unknown[]): Promise<{ code: number; message: string }>;
}

export function node(options: ChainSimOptions = {}): Node {
  const provider = createProvider({ quiet: true, ...options });
  const rpc = async <T>(method: string, ...params: unknown[]) => (await provider.request({ method, params })) as T;
  const rpcError = async (method: string, ...params: unknown[]) => {
    try {
      await rpc(method, ...params);
    } catch (error) {
      return error as { code: number; message: string };
    }
    expect.fail(`${method} succeeded, expected an error`);
  };
  return { provider, rpc, rpcError };
}

/** Explicit gas skips estimation, which costs several EVM runs per transaction; these tests are about logs. */
export const GAS = { call: '0x30000', deploy: '0x200000' } as const;

/** Send from an unlocked default account; automine means the receipt exists when this returns. */
export async function transact(n: Node, from: string, to: string | undefined, data: string): Promise<{ hash: string; logs: JsonLog[]; blockNumber: string }> {
  const hash = await n.rpc<string>('eth_sendTransaction', { from, to, data, gas: GAS.call });
  const receipt = await n.rpc<{ logs: JsonLog[]; blockNumber: string; status: string; contractAddress: string } | null>('eth_getTransactionReceipt', hash);
  if (receipt) expect(receipt.status).to.equal('0x1');
  return { hash, logs: receipt?.logs ?? [], blockNumber: receipt?.blockNumber ?? '' };
}

/** Deploy Token (1,000,000 units to account 0: one Transfer from the zero address); returns its address. */
export async function deployToken(n: Node): Promise<string> {
  const data = TOKEN.bytecode + token.encodeDeploy(['Token', 'TOK', 1_000_000n]).slice(2);
  const hash = await n.rpc<string>('eth_sendTransaction', { from: ACCOUNTS[0], data, gas: GAS.deploy });
  const receipt = await n.rpc<{ contractAddress: string }>('eth_getTransactionReceipt', hash);
  return receipt.contractAddress;
}

export const transferData = (to: string, value: bigint) => token.encodeFunctionData('transfer', [to, value]);
export const approveData = (spender: string, value: bigint) => token.encodeFunctionData('approve', [spender, value]);
