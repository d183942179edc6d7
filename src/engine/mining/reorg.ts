/**
 * Anvil's anvil_rollback and anvil_reorg (foundry crates/anvil/src/eth/api.rs): the rules
 * and the order of the work, kept out of chain.ts. A rollback drops the `depth` newest
 * blocks; the state and the clock go back to the block under them (the common block), the
 * pool stays as it is. A reorg rolls back `depth` blocks and mines `depth` new ones, the
 * i-th (0-based) with the transactions paired with i. Both use the unwinding a snapshot
 * revert uses: the dropped blocks leave the indexes, filters and subscriptions see their
 * logs removed ('reorg' event).
 */
import type { Address } from '@ethereumjs/util';
import type { MinedBlock } from '../blocks/blocks.js';
import { EngineError } from '../util/errors.js';
import type { CallRequest } from '../execution/execution.js';

/** One transaction for a reorg's new blocks: a signed raw transaction, or a request the node signs (or sends as impersonated). */
export type ReorgTransaction = { readonly raw: Uint8Array } | { readonly request: CallRequest };

export interface ReorgItem {
  readonly transaction: ReorgTransaction;
  /** Which new block (0-based, below depth). */
  readonly block: bigint;
}

/** What the rules need to know of the chain. */
export interface ReorgChainView {
  readonly headNumber: bigint;
  /** The first block the chain holds (genesis, or a fork's pinned block): nothing below it can be the common block. */
  readonly firstNumber: bigint;
  byNumber(number: bigint): MinedBlock | undefined;
}

/**
 * The common block `depth` blocks under the head. Anvil's check and wording ("Rollback depth
 * must not exceed current chain height: ..."); below the chain's first block (a fork, a
 * genesis with --number) there is no block to go back to.
 */
export function commonBlock(chain: ReorgChainView, depth: bigint, what: 'Rollback' | 'Reorg'): MinedBlock {
  const height = chain.headNumber;
  if (depth > height) {
    throw new EngineError('invalidInput', `${what} depth must not exceed current chain height: current height ${height}, depth ${depth}`);
  }
  const number = height - depth;
  if (number < chain.firstNumber) {
    throw new EngineError('invalidInput', `${what} depth ${depth} goes below block ${chain.firstNumber}, the first block this chain holds`);
  }
  return chain.byNumber(number)!;
}

/** The transactions of each new block, in the order given (Anvil sorts by block, stably). */
export function groupByBlock(depth: bigint, items: readonly ReorgItem[]): ReorgTransaction[][] {
  const groups: ReorgTransaction[][] = Array.from({ length: Number(depth) }, () => []);
  for (const { transaction, block } of items) {
    if (block >= depth) {
      throw new EngineError(
        'invalidInput',
        `Block number for reorg tx will exceed the reorged chain height. Block number ${block} must not exceed (depth-1) ${depth - 1n}`,
      );
    }
    groups[Number(block)]!.push(transaction);
  }
  return groups;
}

/**
 * Nonces of request transactions: each sender's nonce at the common block, plus one for each of
 * its earlier requests in the reorg (Anvil counts only the requests, not raw transactions).
 */
export class ReorgNonces {
  private readonly next = new Map<string, bigint>();

  constructor(private readonly nonceAtCommon: (sender: Address) => Promise<bigint>) {}

  async take(sender: Address): Promise<bigint> {
    const key = sender.toString();
    const nonce = this.next.get(key) ?? (await this.nonceAtCommon(sender));
    this.next.set(key, nonce + 1n);
    return nonce;
  }
}
