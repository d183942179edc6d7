/** Shared by the import tests: a chain built with chain-sim itself, exported to a file, and JSON-RPC comparisons. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { Interface, Wallet } from 'ethers';
import type { ChainSimOptions } from '../../src/index.js';
import { ADDRESSES, CHAIN_ID, KEYS, WALLETS, type Rpc, artifact, deploy, newNode, send, signed } from '../helpers/chain.js';

export const TO = '0x000000000000000000000000000000000000beef';

/** Both instances must build the same genesis block: same settings, same clock. */
export const SAME_GENESIS: ChainSimOptions = { quiet: true, hardfork: 'prague', wallClock: () => 1_800_000_000_000 };

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'chain-sim-import-'));
}

/** What the test chain holds, for reads at old blocks. */
export interface BuiltChain {
  readonly token: string;
  readonly head: number;
}

/**
 * Every transaction type the hardfork allows (legacy with and without EIP-155, 2930, 1559,
 * 4844 without sidecar, 7702), a contract creation, logs, a reverted transaction, a block
 * with several transactions, time travel and empty blocks.
 */
export async function buildChain(rpc: Rpc): Promise<BuiltChain> {
  const wallet = WALLETS[0]!;
  const sendRaw = (raw: string) => rpc<string>('eth_sendRawTransaction', [raw]);
  await sendRaw(await wallet.signTransaction({ type: 0, chainId: CHAIN_ID, nonce: 0, to: TO, value: 1n, gasLimit: 21000, gasPrice: 10n ** 10n }));
  await sendRaw(await wallet.signTransaction({ type: 0, nonce: 1, to: TO, value: 2n, gasLimit: 21000, gasPrice: 10n ** 10n }));
  await sendRaw(
    await wallet.signTransaction({
      type: 1,
      chainId: CHAIN_ID,
      nonce: 2,
      to: TO,
      gasLimit: 30000,
      gasPrice: 10n ** 10n,
      accessList: [{ address: TO, storageKeys: [`0x${'00'.repeat(32)}`] }],
    }),
  );
  await sendRaw(await signed(0, { nonce: 3, to: TO, value: 3n, gasLimit: 21000 }));
  await sendRaw(
    await wallet.signTransaction({
      type: 3,
      chainId: CHAIN_ID,
      nonce: 4,
      to: TO,
      gasLimit: 21000,
      maxFeePerGas: 10n ** 11n,
      maxPriorityFeePerGas: 1n,
      maxFeePerBlobGas: 10n ** 10n,
      blobVersionedHashes: [`0x01${'ab'.repeat(31)}`, `0x01${'cd'.repeat(31)}`],
    }),
  );
  const authorization = await new Wallet(KEYS[1]!).authorize({ address: TO, nonce: 0, chainId: CHAIN_ID });
  await sendRaw(
    await wallet.signTransaction({
      type: 4,
      chainId: CHAIN_ID,
      nonce: 5,
      to: TO,
      gasLimit: 100000,
      maxFeePerGas: 10n ** 11n,
      maxPriorityFeePerGas: 1n,
      authorizationList: [authorization],
    }),
  );
  const token = await deploy(rpc, 'Token', ['Token', 'TKN', 1000n], 6);
  const erc20 = new Interface(artifact('Token').abi);
  const transfer = await send(rpc, 0, { to: token, nonce: 7, data: erc20.encodeFunctionData('transfer', [ADDRESSES[2], 10n]) });
  expect((transfer.logs as unknown[]).length).to.equal(1);
  // Key 2 holds 10 tokens: sending 11 reverts.
  const reverted = await send(rpc, 2, { to: token, nonce: 0, data: erc20.encodeFunctionData('transfer', [ADDRESSES[0], 11n]) });
  expect(reverted.status).to.equal('0x0');
  // One block with several transactions from several senders.
  await rpc('chain_setAutomine', [false]);
  await sendRaw(await signed(0, { nonce: 8, to: token, data: erc20.encodeFunctionData('transfer', [ADDRESSES[1], 5n]) }));
  await sendRaw(await signed(1, { nonce: 1, to: TO, value: 7n, gasLimit: 60000 }));
  await sendRaw(await signed(2, { nonce: 1, to: ADDRESSES[0], value: 9n, gasLimit: 21000 }));
  await rpc('chain_mine');
  await rpc('chain_setAutomine', [true]);
  await rpc('chain_increaseTime', [3600]);
  await rpc('chain_mine', [3]);
  await sendRaw(await signed(0, { nonce: 9, to: TO, value: 4n, gasLimit: 21000 }));
  return { token, head: Number(await rpc<string>('eth_blockNumber')) };
}

/** Export `rpc`'s chain with chain_exportChain into a file; returns its path. */
export async function exportToFile(rpc: Rpc, dir: string, name = 'chain.rlp', params: unknown[] = []): Promise<string> {
  const hex = await rpc<string>('chain_exportChain', params);
  const path = join(dir, name);
  writeFileSync(path, Buffer.from(hex.slice(2), 'hex'));
  return path;
}

export const hexNumber = (n: number | bigint): string => `0x${n.toString(16)}`;

/** A fresh node that imported `file`, with the same genesis settings. */
export function importedNode(file: string, options: ChainSimOptions = {}): ReturnType<typeof newNode> {
  return newNode({ ...SAME_GENESIS, ...options, import: file });
}

export type Block = { hash: string; stateRoot: string; transactions: Array<{ hash: string }>; number: string };

/** Every block (with full transactions), transaction and receipt of a chain, as JSON-RPC answers them. */
export async function answers(rpc: Rpc, head: number): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let n = 0; n <= head; n++) {
    const block = await rpc<Block>('eth_getBlockByNumber', [hexNumber(n), true]);
    out.push(block, await rpc('eth_getBlockByHash', [block.hash, false]), await rpc('eth_getBlockReceipts', [hexNumber(n)]));
    for (const tx of block.transactions) {
      out.push(await rpc('eth_getTransactionByHash', [tx.hash]), await rpc('eth_getTransactionReceipt', [tx.hash]));
    }
  }
  out.push(await rpc('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]));
  return out;
}
