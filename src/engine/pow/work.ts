// Work handed out to miners: the current one, and recent ones that may still be
// submitted after newer work replaced them (go-ethereum keeps work for blocks
// within its stale threshold, so a solution in flight is not wasted).
import type { MiningOutcome } from '../execution/blockBuilder.js';

/** One unit of work: an unsealed block and what a miner needs to seal it. */
export interface Work {
  /** Seal hash of the block: keccak256 of the RLP header without mixHash and nonce. */
  readonly powHash: Uint8Array;
  readonly powHashHex: string;
  readonly seedHash: Uint8Array;
  /** 2^256 / difficulty, 32 bytes. */
  readonly boundary: Uint8Array;
  readonly epoch: number;
  readonly difficulty: bigint;
  readonly number: bigint;
  /** The live state root the block was executed on; sealing onto anything else would lose changes. */
  readonly baseRoot: Uint8Array;
  /** Everything the block depends on; the same key means the same work. */
  readonly key: string;
  readonly draft: MiningOutcome;
}

/** Work for blocks this far behind the head is forgotten: it could not even become an uncle. */
export const STALE_BLOCKS = 6n;
/** A bound on memory when the pool churns at one height. */
export const MAX_RECENT_WORK = 256;

export class WorkBook {
  private readonly recent = new Map<string, Work>();
  private latest: Work | undefined;

  get current(): Work | undefined {
    return this.latest;
  }

  get size(): number {
    return this.recent.size;
  }

  add(work: Work): void {
    this.latest = work;
    this.recent.delete(work.powHashHex);
    this.recent.set(work.powHashHex, work);
    for (const hash of this.recent.keys()) {
      if (this.recent.size <= MAX_RECENT_WORK) break;
      this.recent.delete(hash);
    }
  }

  get(powHashHex: string): Work | undefined {
    return this.recent.get(powHashHex.toLowerCase());
  }

  /** Drop all work (its drafts' states were freed by a revert). */
  clear(): void {
    this.recent.clear();
    this.latest = undefined;
  }

  /** Drop work for blocks that, with `headNumber` as head, are too old to be sealed or included. */
  prune(headNumber: bigint): void {
    for (const [hash, work] of this.recent) {
      if (work.number + STALE_BLOCKS <= headNumber) this.recent.delete(hash);
    }
    if (this.latest && !this.recent.has(this.latest.powHashHex)) this.latest = undefined;
  }
}
