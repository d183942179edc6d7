/**
 * Matching logs against filter criteria and scanning blocks for them, as
 * go-ethereum does: each block's header bloom is tested before its receipts are
 * read, topics match by position, and a filter with more topic positions than a
 * log has topics does not match it.
 */
import { type Address, bytesToHex } from '@ethereumjs/util';
import type { BlockRecord, LogRecord, MinedBlock } from '../blocks/blocks.js';
import type { RemoteHistory } from '../blocks/remoteHistory.js';
import type { BlockTag } from '../chain.js';
import { type BloomProbe, bloomMayContain, bloomProbe } from '../blocks/bloom.js';
import { EngineError, rejected } from '../util/errors.js';
import { pace } from '../util/pace.js';
import { BlockGoneError } from '../chain/detached.js';

/** Which logs are wanted: any of `addresses` (any address when empty), and per topic position any of its options (any topic when empty). */
export interface LogCriteria {
  readonly addresses: readonly Address[];
  readonly topics: readonly (readonly Uint8Array[])[];
}

export type RangeBound = { readonly tag: BlockTag } | { readonly number: bigint };

/** Where logs are looked for: one block by its hash (lower-case hex), or a range of block numbers. */
export type LogScope = { readonly blockHash: string } | { readonly from: RangeBound; readonly to: RangeBound };

export interface LogQuery {
  readonly criteria: LogCriteria;
  readonly scope: LogScope;
}

/** Where a log sits: its block and transaction. */
export interface LogPosition {
  readonly blockNumber: bigint;
  readonly blockHashHex: string;
  /** The block's time; undefined for a fork's upstream log that did not say. */
  readonly blockTimestamp: bigint | undefined;
  readonly transactionHash: Uint8Array;
  readonly transactionIndex: number;
}

/** A log and where it sits: what the RPC layer needs to format it. */
export interface FoundLog {
  readonly log: LogRecord;
  readonly position: LogPosition;
  readonly removed: boolean;
}

/** Where the logs of one of a block's transactions sit. */
export function logPosition(mined: BlockRecord, txIndex: number): LogPosition {
  return {
    blockNumber: mined.number,
    blockHashHex: mined.hashHex,
    blockTimestamp: mined.block.header.timestamp,
    transactionHash: mined.block.transactions[txIndex]!.hash(),
    transactionIndex: txIndex,
  };
}

/** Blocks by number and hash; the BlockStore is one. */
export interface BlockSource {
  readonly head: MinedBlock;
  /** Blocks above this one are reserved empty blocks (no logs): scans skip them without computing them. */
  readonly lastUnreserved?: bigint;
  byNumber(number: bigint): MinedBlock | undefined;
  /** The first block held (a fork's pinned block; the upstream's history before it is not here). */
  readonly firstNumber?: bigint;
  byHashHex(hashHex: string): MinedBlock | undefined;
  /** A fork's history up to the pinned block: its logs are the upstream's. */
  readonly history?: RemoteHistory;
  /** True while `mined` is still the block at its number (a long scan checks it was not reverted away). */
  holds(mined: MinedBlock): boolean;
}

/** A query found more logs than the node returns at once. */
export class TooManyLogsError extends Error {
  constructor(readonly limit: number) {
    super(`query returned more than ${limit} results`);
    this.name = 'TooManyLogsError';
  }
}

/** Criteria compiled once per filter: hex sets for exact matching, bloom probes for skipping blocks. */
export class LogMatcher {
  private readonly addresses: ReadonlySet<string> | undefined;
  private readonly topics: readonly (ReadonlySet<string> | undefined)[];
  private readonly addressProbes: readonly BloomProbe[];
  private readonly topicProbes: readonly (readonly BloomProbe[])[];

  constructor(criteria: LogCriteria) {
    const wanted = criteria.addresses.map((a) => a.toString());
    this.addresses = wanted.length > 0 ? new Set(wanted) : undefined;
    this.topics = criteria.topics.map((options) => (options.length > 0 ? new Set(options.map((t) => bytesToHex(t))) : undefined));
    this.addressProbes = criteria.addresses.map((a) => bloomProbe(a.bytes));
    this.topicProbes = criteria.topics.filter((options) => options.length > 0).map((options) => options.map(bloomProbe));
  }

  /** False when the bloom proves no log of the block can match. */
  mayMatch(bloom: Uint8Array): boolean {
    const any = (probes: readonly BloomProbe[]) => probes.some((probe) => bloomMayContain(bloom, probe));
    if (this.addressProbes.length > 0 && !any(this.addressProbes)) return false;
    return this.topicProbes.every(any);
  }

  matches(log: LogRecord): boolean {
    if (this.addresses && !this.addresses.has(log.address.toString())) return false;
    if (this.topics.length > log.topics.length) return false;
    return this.topics.every((options, i) => !options || options.has(bytesToHex(log.topics[i]!)));
  }

  /** The block's matching logs in block order (its receipts are read only when the bloom allows a match). */
  blockLogs(mined: MinedBlock, removed = false): FoundLog[] {
    const found: FoundLog[] = [];
    // A block without transactions has no logs (and a lazily built empty block stays unbuilt).
    if (mined.senders.length === 0 || !this.mayMatch(mined.block.header.logsBloom)) return found;
    mined.receipts.forEach((receipt, txIndex) => {
      let position: LogPosition | undefined;
      for (const log of receipt.logs) {
        if (!this.matches(log)) continue;
        position ??= logPosition(mined, txIndex);
        found.push({ log, position, removed });
      }
    });
    return found;
  }
}

function boundNumber(bound: RangeBound, head: bigint): bigint {
  if ('number' in bound) return bound.number;
  // Every mined block here is final: latest, pending, safe and finalized all name the head.
  return bound.tag === 'earliest' ? 0n : head;
}

/** A numeric range's end points, checked as go-ethereum checks them. */
export function resolveRange(source: BlockSource, from: RangeBound, to: RangeBound): { first: bigint; last: bigint } {
  const head = source.head.number;
  const first = boundNumber(from, head);
  const last = boundNumber(to, head);
  if (first > last) throw new EngineError('invalidInput', 'invalid block range params');
  if (last > head) throw new EngineError('invalidInput', 'block range extends beyond current head block');
  return { first, last };
}

/**
 * All logs the query matches, oldest first; more than `limit` of them is an error rather than a
 * huge answer. A long scan lets the event loop turn every few ms (pace.ts); blocks may be
 * added meanwhile (the range was fixed at the start), and if the chain was reverted below its
 * end the scan is refused (BlockGoneError) rather than answered from two chains.
 */
export async function queryLogs(source: BlockSource, query: LogQuery, limit: number): Promise<FoundLog[]> {
  const matcher = new LogMatcher(query.criteria);
  const found: FoundLog[] = [];
  const take = (mined: MinedBlock) => {
    found.push(...matcher.blockLogs(mined));
    if (found.length > limit) throw new TooManyLogsError(limit);
  };
  if ('blockHash' in query.scope) {
    const mined = source.byHashHex(query.scope.blockHash);
    if (!mined) throw rejected('unknown block');
    take(mined);
    return found;
  }
  const { first, last } = resolveRange(source, query.scope.from, query.scope.to);
  const end = source.lastUnreserved !== undefined && source.lastUnreserved < last ? source.lastUnreserved : last;
  const start = source.firstNumber !== undefined && source.firstNumber > first ? source.firstNumber : first;
  const endBlock = start <= end ? source.byNumber(end) : undefined;
  for (let n = start; n <= end; n++) {
    const turn = pace();
    if (turn !== undefined) {
      await turn;
      if (endBlock && !source.holds(endBlock)) throw new BlockGoneError(end);
    }
    take(source.byNumber(n)!);
  }
  return found;
}

/**
 * All logs the query matches, oldest first, on a fork the upstream's too: at or below the
 * pinned block they are its history's (asked of it), above it the chain's own.
 */
export async function queryHistoryLogs(source: BlockSource, query: LogQuery, limit: number): Promise<FoundLog[]> {
  const { history } = source;
  if (!history) return queryLogs(source, query, limit);
  const { criteria, scope } = query;
  if ('blockHash' in scope) {
    const ours = source.byHashHex(scope.blockHash);
    if (ours && ours.number > history.pinned) return queryLogs(source, query, limit);
    const block = await history.blockByHash(scope.blockHash);
    if (!block) throw rejected('unknown block');
    return within(await history.logs(criteria, block.number, block.number), limit);
  }
  const { first, last } = resolveRange(source, scope.from, scope.to);
  if (first > history.pinned) return queryLogs(source, query, limit);
  const older = within(await history.logs(criteria, first, last < history.pinned ? last : history.pinned), limit);
  if (last <= history.pinned) return older;
  const newer = await queryLogs(source, { criteria, scope: { from: { number: history.pinned + 1n }, to: { number: last } } }, limit);
  return within([...older, ...newer], limit);
}

function within(found: FoundLog[], limit: number): FoundLog[] {
  if (found.length > limit) throw new TooManyLogsError(limit);
  return found;
}
