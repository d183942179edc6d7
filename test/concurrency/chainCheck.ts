/**
 * Consistency checks for a chain read back through JSON-RPC (provider or HTTP): blocks link
 * up, each block's receipts match its transactions, every transaction is mined at most once,
 * each sender's nonces are consecutive in chain order, and a transaction has a receipt exactly
 * when a canonical block holds it.
 */
import { expect } from 'chai';
import { HDNodeWallet, Wallet } from 'ethers';
import { DEFAULT_MNEMONIC } from '../../src/index.js';

/** Many calls at once: Promise.all over the provider, or JSON-RPC batches over HTTP. */
export type Batch = (calls: ReadonlyArray<readonly [string, unknown[]]>) => Promise<unknown[]>;

export interface RpcBlock {
  readonly number: string;
  readonly hash: string;
  readonly parentHash: string;
  readonly transactions: ReadonlyArray<{ readonly hash: string; readonly from: string; readonly nonce: string; readonly to: string }>;
}

export interface RpcReceipt {
  readonly transactionHash: string;
  readonly blockHash: string;
  readonly blockNumber: string;
  readonly transactionIndex: string;
  readonly status: string;
}

export interface MinedTx {
  readonly hash: string;
  readonly from: string;
  readonly nonce: number;
  readonly block: number;
}

/** The first `count` accounts of the default mnemonic, as ethers wallets. */
export function defaultWallets(count: number): Wallet[] {
  const root = HDNodeWallet.fromPhrase(DEFAULT_MNEMONIC, undefined, "m/44'/60'/0'/0");
  return Array.from({ length: count }, (_, i) => new Wallet(root.deriveChild(i).privateKey));
}

export const RECIPIENT = '0x00000000000000000000000000000000000c0ffe';

/** A signed 1-wei transfer to RECIPIENT. */
export function signTransfer(wallet: Wallet, nonce: number): Promise<string> {
  return wallet.signTransaction({
    chainId: 1337,
    type: 2,
    nonce,
    to: RECIPIENT,
    value: 1,
    gasLimit: 21_000,
    maxFeePerGas: 100_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
  });
}

export function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** Split calls into batches of at most `size`. */
export async function inChunks(batch: Batch, calls: ReadonlyArray<readonly [string, unknown[]]>, size = 500): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let i = 0; i < calls.length; i += size) out.push(...(await batch(calls.slice(i, i + size))));
  return out;
}

/** Read the whole chain and check it; returns the mined transactions in chain order. */
export async function checkChain(batch: Batch): Promise<{ head: number; mined: MinedTx[] }> {
  const [headHex] = (await batch([['eth_blockNumber', []]])) as [string];
  const head = Number(headHex);
  const numbers = Array.from({ length: head + 1 }, (_, n) => `0x${n.toString(16)}`);
  const blocks = (await inChunks(
    batch,
    numbers.map((n) => ['eth_getBlockByNumber', [n, true]] as const),
  )) as RpcBlock[];
  const receipts = (await inChunks(
    batch,
    numbers.map((n) => ['eth_getBlockReceipts', [n]] as const),
  )) as RpcReceipt[][];
  const mined: MinedTx[] = [];
  const seen = new Set<string>();
  for (let n = 0; n <= head; n++) {
    const block = blocks[n]!;
    expect(Number(block.number), `block ${n}`).to.equal(n);
    if (n > 0) expect(block.parentHash, `block ${n} parent`).to.equal(blocks[n - 1]!.hash);
    const blockReceipts = receipts[n]!;
    expect(blockReceipts, `receipts of block ${n}`).to.have.length(block.transactions.length);
    block.transactions.forEach((tx, i) => {
      const receipt = blockReceipts[i]!;
      expect(receipt.transactionHash).to.equal(tx.hash);
      expect(receipt.blockHash).to.equal(block.hash);
      expect(Number(receipt.blockNumber)).to.equal(n);
      expect(Number(receipt.transactionIndex)).to.equal(i);
      expect(receipt.status).to.equal('0x1');
      expect(seen.has(tx.hash), `${tx.hash} mined twice`).to.equal(false);
      seen.add(tx.hash);
      mined.push({ hash: tx.hash, from: tx.from.toLowerCase(), nonce: Number(tx.nonce), block: n });
    });
  }
  // Per sender, nonces follow chain order without gaps, and the state nonce is the next one.
  const bySender = new Map<string, number[]>();
  for (const tx of mined) bySender.set(tx.from, [...(bySender.get(tx.from) ?? []), tx.nonce]);
  const senders = [...bySender.keys()];
  const stateNonces = (await batch(senders.map((s) => ['eth_getTransactionCount', [s, 'latest']] as const))) as string[];
  senders.forEach((sender, i) => {
    const nonces = bySender.get(sender)!;
    const first = nonces[0]!;
    expect(nonces, `nonces of ${sender}`).to.deep.equal(nonces.map((_, k) => first + k));
    expect(Number(stateNonces[i]), `state nonce of ${sender}`).to.equal(first + nonces.length);
  });
  return { head, mined };
}

/** Each hash has a receipt exactly when it is mined, and a mined transaction's lookup points at its block. */
export async function checkLookups(batch: Batch, hashes: readonly string[], mined: readonly MinedTx[]): Promise<void> {
  const minedByHash = new Map(mined.map((tx) => [tx.hash, tx]));
  const receipts = (await inChunks(
    batch,
    hashes.map((h) => ['eth_getTransactionReceipt', [h]] as const),
  )) as Array<RpcReceipt | null>;
  const lookups = (await inChunks(
    batch,
    hashes.map((h) => ['eth_getTransactionByHash', [h]] as const),
  )) as Array<{ blockNumber: string | null } | null>;
  hashes.forEach((hash, i) => {
    const tx = minedByHash.get(hash);
    if (tx) {
      expect(receipts[i], `receipt of mined ${hash}`).to.not.equal(null);
      expect(Number(receipts[i]!.blockNumber)).to.equal(tx.block);
      expect(Number(lookups[i]!.blockNumber)).to.equal(tx.block);
    } else {
      expect(receipts[i], `receipt of unmined ${hash}`).to.equal(null);
      // Either reverted away (unknown) or waiting in the pool (pending: no block).
      if (lookups[i] !== null) expect(lookups[i]!.blockNumber, `pending ${hash}`).to.equal(null);
    }
  });
}
