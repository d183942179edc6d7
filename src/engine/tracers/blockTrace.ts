/**
 * debug_traceBlock*: which block to replay and from where, and the shape of the answer (one
 * traced run per transaction, with its hash). The replay itself is blockBuilder.ts's replayBlock.
 */
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { RunTxResult } from '@ethereumjs/vm';
import type { BlockStore, MinedBlock } from '../blocks/blocks.js';
import { rejected } from '../util/errors.js';
import { toHex } from '../util/hex.js';
import { decodeBlock } from '../blocks/importer.js';
import type { ReplayedBlock } from '../execution/blockBuilder.js';
import type { TracedRun } from './tracing.js';

/** A block named by number or hash (tags resolved by the caller), or an RLP block (debug_traceBlock). */
export type BlockToTrace = { readonly number: bigint } | { readonly hash: string } | { readonly rlp: Uint8Array };

export interface TracedTransaction {
  readonly hash: Uint8Array;
  readonly run: TracedRun;
}

export interface TracePlan {
  readonly parent: MinedBlock;
  /** The chain's own block, when the traced block is one (an RLP block may be too). */
  readonly mined?: MinedBlock;
  readonly replayed: ReplayedBlock;
  /** Blocks mined here ran on this state (setters between blocks); others on the parent's. */
  readonly preStateRoot?: Uint8Array;
}

/**
 * Where the block's transactions replay from, with go-ethereum's errors: `genesis is not
 * traceable`, `block #N not found`, `block 0x... not found`, `could not decode block: ...`.
 */
export function planBlockTrace(target: BlockToTrace, store: BlockStore, common: Common, alignFork: (number: bigint, timestamp: bigint) => void): TracePlan {
  let block: Block;
  let mined: MinedBlock | undefined;
  if ('rlp' in target) {
    try {
      block = decodeBlock({ bytes: target.rlp, offset: 0 }, common, alignFork);
    } catch (error) {
      throw rejected(`could not decode block: ${(error as Error).message.replace(/^.*?not a valid block: /, '')}`);
    }
    mined = store.byHashHex(toHex(block.hash()));
  } else {
    mined = 'number' in target ? store.byNumber(target.number) : store.byHashHex(target.hash);
    if (!mined) throw rejected('number' in target ? `block #${target.number} not found` : `block ${target.hash} not found`);
    block = mined.block;
  }
  if (block.header.number === 0n) throw rejected('genesis is not traceable');
  const parent = store.byNumber(block.header.number - 1n);
  if (!parent || !equal(parent.hash, block.header.parentHash)) {
    throw rejected(`parent ${toHex(block.header.parentHash)} not found`);
  }
  if (mined) return { parent, mined, replayed: mined, preStateRoot: mined.preStateRoot };
  let senders: ReturnType<(typeof block.transactions)[number]['getSenderAddress']>[];
  try {
    senders = block.transactions.map((tx) => tx.getSenderAddress());
  } catch (error) {
    throw rejected(`could not decode block: invalid transaction signature: ${(error as Error).message}`);
  }
  return { parent, replayed: { block, senders } };
}

/** Each transaction's run with the logs before it in its block (go-ethereum's log index). */
export function tracedTransactions(block: Block, results: readonly RunTxResult[]): TracedTransaction[] {
  let logsBefore = 0;
  return results.map((result, i) => {
    const hash = block.transactions[i]!.hash();
    const run = { result, logsBefore, location: { blockHash: block.hash(), blockNumber: block.header.number, index: i, txHash: hash } };
    logsBefore += result.receipt.logs.length;
    return { hash, run };
  });
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
