/**
 * A forked chain's history up to its pinned block, as the upstream holds it: the block store
 * (blocks.ts) consults it for every block, transaction and receipt at or below the pinned
 * block, as the state manager consults `RemoteState` (forkState.ts) under the local overlay.
 * So a read of history is right on a fork whichever method makes it. fork/history.ts is the
 * implementation: it asks the upstream and decodes its answers into these types (the engine
 * sees no JSON).
 *
 * Every lookup is asynchronous (the upstream is across a network); the store's own blocks stay
 * synchronous. What is found never changes: the pinned block and its ancestors are history.
 */
import type { BlockRecord, MinedBlock, TransactionLocation } from './blocks.js';
import type { LogCriteria, FoundLog } from '../logs/logQuery.js';

export interface RemoteHistory {
  /** The pinned block's number: nothing above it is asked for, or answered. */
  readonly pinned: bigint;
  /** Block `number` (at most `pinned`) with its transactions; undefined: the upstream has none. */
  blockByNumber(number: bigint): Promise<BlockRecord | undefined>;
  /** The block with this hash (lower-case hex); undefined when the upstream has none at or below the pinned block. */
  blockByHash(hashHex: string): Promise<BlockRecord | undefined>;
  /** One of its blocks with the receipts of its transactions. */
  withReceipts(block: BlockRecord): Promise<MinedBlock>;
  /** Where a transaction is; undefined when the upstream has none at or below the pinned block. */
  transaction(hashHex: string): Promise<TransactionLocation<BlockRecord> | undefined>;
  /** The logs of blocks `first`..`last` (at most `pinned`) that match, oldest first. */
  logs(criteria: LogCriteria, first: bigint, last: bigint): Promise<FoundLog[]>;
}
