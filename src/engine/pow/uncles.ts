// Uncle (ommer) candidates: sealed blocks that lost the race to a sibling, kept
// so that later blocks can include them, and the rewards that inclusion pays.
import type { BlockHeader } from '@ethereumjs/block';
import { toHex } from '../util/hex.js';

/** At most this many uncles per block (Yellow Paper, eq. 167). */
export const MAX_UNCLES = 2;
/** An uncle is at most this many generations below the block that includes it. */
export const MAX_UNCLE_DEPTH = 6n;

/** What eligibility needs to know of the canonical chain. */
export interface CanonicalView {
  /** Hash (0x lower-case hex) of the canonical block at `number`, if there is one. */
  hashAt(number: bigint): string | undefined;
  /** Hashes (0x lower-case hex) of the uncles the canonical block at `number` includes. */
  unclesAt(number: bigint): readonly string[];
}

interface Candidate {
  readonly header: BlockHeader;
  readonly hashHex: string;
  readonly arrival: number;
}

export class UncleCandidates {
  private readonly byHash = new Map<string, Candidate>();
  private arrivals = 0;
  /** Changes whenever the set changes, so pending work that could include a new uncle is rebuilt. */
  version = 0;

  get size(): number {
    return this.byHash.size;
  }

  add(header: BlockHeader): void {
    const hashHex = toHex(header.hash());
    if (this.byHash.has(hashHex)) return;
    this.byHash.set(hashHex, { header, hashHex, arrival: this.arrivals++ });
    this.version++;
  }

  /**
   * Up to two uncles block `number` may include: each one's parent is canonical, it is
   * not canonical itself, it is at most six generations back, and no canonical block in
   * that window includes it yet. Closest generations first (they pay the most).
   */
  select(number: bigint, chain: CanonicalView): BlockHeader[] {
    const included = new Set<string>();
    for (let n = number - MAX_UNCLE_DEPTH - 1n; n < number; n++) {
      if (n >= 0n) for (const hash of chain.unclesAt(n)) included.add(hash);
    }
    return [...this.byHash.values()]
      .filter(({ header, hashHex }) => {
        const depth = number - header.number;
        return (
          depth >= 1n &&
          depth <= MAX_UNCLE_DEPTH &&
          chain.hashAt(header.number - 1n) === toHex(header.parentHash) &&
          chain.hashAt(header.number) !== hashHex &&
          !included.has(hashHex)
        );
      })
      .sort((a, b) => (a.header.number === b.header.number ? a.arrival - b.arrival : a.header.number > b.header.number ? -1 : 1))
      .slice(0, MAX_UNCLES)
      .map((c) => c.header);
  }

  /** Forget candidates too old to be included by block `nextNumber` or any later one. */
  prune(nextNumber: bigint): void {
    for (const [hash, { header }] of this.byHash) {
      if (nextNumber - header.number > MAX_UNCLE_DEPTH) {
        this.byHash.delete(hash);
        this.version++;
      }
    }
  }
}

export interface UncleRewards {
  /** Added to the including block's coinbase on top of the block reward: reward / 32 per uncle. */
  readonly includer: bigint;
  /** Per uncle, in order: (8 + uncleNumber − blockNumber) × reward / 8 to the uncle's coinbase. */
  readonly uncles: readonly bigint[];
}

export function uncleRewards(blockReward: bigint, blockNumber: bigint, uncleNumbers: readonly bigint[]): UncleRewards {
  return {
    includer: (blockReward / 32n) * BigInt(uncleNumbers.length),
    uncles: uncleNumbers.map((n) => ((8n + n - blockNumber) * blockReward) / 8n),
  };
}
