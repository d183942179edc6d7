import type { Address } from '@ethereumjs/util';
import type { MinedBlock } from '../blocks/blocks.js';
import type { ClockState } from '../mining/clock.js';
import type { NextBlockOverrides } from '../execution/blockBuilder.js';
import type { PooledTransaction } from '../transactions/txpool.js';
import type { CacheJournal } from './warmCaches.js';

/**
 * Everything needed to put the chain back: O(1) in the size of the state, because
 * trie nodes are never overwritten and a state root names a whole state (trieDb.ts).
 */
export interface ChainSnapshot {
  readonly headNumber: bigint;
  /** The head then (its hash is computed only if asked: it may be a reserved empty block). */
  readonly head: MinedBlock;
  readonly stateRoot: Uint8Array;
  readonly pool: readonly PooledTransaction[];
  readonly clock: ClockState;
  readonly nextBlock: NextBlockOverrides;
  readonly blockGasLimit: bigint;
  readonly coinbase: Address;
  /** The state caches as they were (snapshots in the registry only): a revert puts them back instead of emptying them. */
  readonly caches?: CacheJournal;
  /** The node database's mark then (snapshots in the registry only): a revert frees what was written since. */
  readonly trieMark?: number;
}

/** What a listing of the live snapshots tells of each (chain_snapshots). */
export interface SnapshotSummary {
  readonly id: number;
  /** The head's number when it was taken: a revert makes that block the head again. */
  readonly blockNumber: bigint;
  /** The chain's clock then (seconds, time travel included): a revert makes the clock read it again. */
  readonly timestamp: bigint;
}

/** Snapshot ids are 1, 2, 3, ... (as Ganache and Hardhat number them); later ids are discarded on revert. */
export class SnapshotRegistry {
  private readonly snapshots = new Map<number, ChainSnapshot>();
  private nextId = 1;

  add(snapshot: ChainSnapshot): number {
    const id = this.nextId++;
    this.snapshots.set(id, snapshot);
    return id;
  }

  /**
   * The snapshot to revert to, discarding every later one. With `consume` (evm_revert's
   * semantics) the snapshot itself is discarded too; without it (chain_revert) it stays.
   */
  take(id: number, consume: boolean): ChainSnapshot | undefined {
    const snapshot = this.snapshots.get(id);
    if (!snapshot) return undefined;
    for (const other of [...this.snapshots.keys()]) {
      if (other > id || (consume && other === id)) this.snapshots.delete(other);
    }
    return snapshot;
  }

  /** The live snapshots, oldest first (ids only grow, and a Map keeps insertion order). */
  list(): SnapshotSummary[] {
    return [...this.snapshots].map(([id, snapshot]) => ({
      id,
      blockNumber: snapshot.headNumber,
      timestamp: BigInt(Math.floor(snapshot.clock.savedAtMs / 1000)) + snapshot.clock.offsetSeconds,
    }));
  }

  /** Discard the snapshots `stale` picks (a rollback drops those taken on blocks no longer in the chain). */
  dropWhere(stale: (snapshot: ChainSnapshot) => boolean): void {
    for (const [id, snapshot] of this.snapshots) if (stale(snapshot)) this.snapshots.delete(id);
  }

  clear(): void {
    this.snapshots.clear();
  }

  get size(): number {
    return this.snapshots.size;
  }
}
