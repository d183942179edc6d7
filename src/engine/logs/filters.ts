/**
 * Installed filters (logs, blocks, pending transactions): what each has seen
 * since its last poll, and when it expires. Changes are pushed from the chain's
 * events, so a poll costs only what it returns; a filter whose owner stopped
 * polling is removed after the timeout, on the next access or by a sweep timer.
 */
import type { MinedBlock } from '../blocks/blocks.js';
import type { Chain } from '../chain.js';
import type { WallClock } from '../mining/clock.js';
import type { ReservedBlocks } from '../blocks/emptyRanges.js';
import { BoundedQueue } from '../util/boundedQueue.js';
import { EngineError, rejected } from '../util/errors.js';
import { FilterIdSource } from './filterIds.js';
import { type FoundLog, type LogQuery, LogMatcher, queryHistoryLogs } from './logQuery.js';

export interface FilterManagerOptions {
  /** A filter not polled for this long is removed. */
  readonly timeoutMs: number;
  /** Most logs one query (getLogs, getFilterLogs) may return. */
  readonly maxLogs: number;
  /** Most changes one filter holds between polls; older ones are dropped beyond it. */
  readonly maxBuffered?: number;
  readonly wallClock?: WallClock;
  /** How often expired filters are swept when nobody calls (default: the timeout, at most a minute). */
  readonly sweepIntervalMs?: number;
}

export type FilterKind = 'logs' | 'blocks' | 'pendingTransactions';

/** What a poll returns: logs for a log filter, block or transaction hashes (lower-case hex) otherwise. */
export type FilterChanges = { readonly kind: 'logs'; readonly logs: FoundLog[] } | { readonly kind: 'hashes'; readonly hashes: string[] };

/**
 * What take() hands out: for a block filter, the last `reserved.length` hashes are blocks of
 * reservations, given as the blocks too (looking a reserved block up by hash would compute
 * every pending reservation).
 */
export type TakenChanges = FilterChanges | { readonly kind: 'hashes'; readonly hashes: string[]; readonly reserved: readonly MinedBlock[] };

/** A subscription's filter does not expire: it is drained on every event and ends with its connection. */
export interface FilterOptions {
  readonly expires?: boolean;
}

interface LogFilter {
  readonly kind: 'logs';
  readonly expires: boolean;
  readonly query: LogQuery;
  readonly matcher: LogMatcher;
  readonly changes: BoundedQueue<FoundLog>;
  lastPoll: number;
}

interface HashFilter {
  readonly kind: 'blocks' | 'pendingTransactions';
  readonly expires: boolean;
  readonly changes: BoundedQueue<string>;
  /**
   * Block filters: reservations of empty blocks seen since the last poll, whose hashes are
   * computed when polled (the first one's start moves on as take() hands its blocks out).
   */
  reserved?: ReservedBlocks[];
  /** Hashes of a reservation were skipped for want of room (see expandReserved). */
  skipped?: boolean;
  lastPoll: number;
}

/** Reservations a block filter holds unexpanded; past this the oldest is expanded (computed) at once. */
const MAX_HELD_RESERVATIONS = 8;

type Installed = LogFilter | HashFilter;

export const DEFAULT_MAX_BUFFERED = 20_000;

const notFound = () => rejected('filter not found');

export class FilterManager {
  private readonly filters = new Map<bigint, Installed>();
  private readonly ids = new FilterIdSource();
  private readonly wallClock: WallClock;
  readonly maxBuffered: number;
  private readonly sweepIntervalMs: number;
  private sweeper: NodeJS.Timeout | undefined;
  private closed = false;

  private readonly onBlock = (mined: MinedBlock) => {
    this.sweep();
    for (const filter of this.filters.values()) {
      if (filter.kind === 'blocks') {
        expandReserved(filter);
        filter.changes.push(mined.hashHex);
      } else if (filter.kind === 'logs' && collects(filter.query, mined)) {
        for (const found of filter.matcher.blockLogs(mined)) filter.changes.push(found);
      }
    }
  };

  /** Empty blocks were reserved: block filters note the reservation; log filters have nothing to collect. */
  private readonly onReserved = (range: ReservedBlocks) => {
    this.sweep();
    for (const filter of this.filters.values()) {
      if (filter.kind !== 'blocks') continue;
      const held = (filter.reserved ??= []);
      // A long chain_mine adds to one run a turn at a time: held as one entry.
      const last = held.at(-1);
      if (last?.followedBy(range)) held[held.length - 1] = range.from(last.start);
      else held.push(range);
      if (held.length > MAX_HELD_RESERVATIONS) expandReserved(filter, 1);
    }
  };

  private readonly onPendingTransaction = (hashHex: string) => {
    this.sweep();
    for (const filter of this.filters.values()) {
      if (filter.kind === 'pendingTransactions') filter.changes.push(hashHex);
    }
  };

  /** Logs of blocks that left the chain are reported again, marked removed (oldest block first, as go-ethereum). */
  private readonly onReorg = (dropped: MinedBlock[]) => {
    this.sweep();
    for (const filter of this.filters.values()) {
      if (filter.kind !== 'logs') continue;
      for (const mined of dropped) {
        if (!collects(filter.query, mined)) continue;
        for (const found of filter.matcher.blockLogs(mined, true)) filter.changes.push(found);
      }
    }
  };

  constructor(
    private readonly chain: Chain,
    private readonly options: FilterManagerOptions,
  ) {
    this.wallClock = options.wallClock ?? Date.now;
    this.maxBuffered = options.maxBuffered ?? DEFAULT_MAX_BUFFERED;
    this.sweepIntervalMs = options.sweepIntervalMs ?? Math.min(Math.max(options.timeoutMs, 1000), 60_000);
    chain.on('block', this.onBlock);
    chain.on('reserved', this.onReserved);
    chain.on('pendingTransaction', this.onPendingTransaction);
    chain.on('reorg', this.onReorg);
  }

  /** Number of live filters (expired ones are removed first). */
  get size(): number {
    this.sweep();
    return this.filters.size;
  }

  /** A log filter: reports matching logs of blocks mined from now on (within its numeric bounds, if any). */
  newLogFilter(query: LogQuery, { expires = true }: FilterOptions = {}): bigint {
    const { scope } = query;
    if ('from' in scope && 'number' in scope.from && 'number' in scope.to && scope.from.number > scope.to.number) {
      throw new EngineError('invalidInput', 'invalid block range params');
    }
    return this.install({
      kind: 'logs',
      expires,
      query,
      matcher: new LogMatcher(query.criteria),
      changes: new BoundedQueue<FoundLog>(this.maxBuffered),
      lastPoll: this.wallClock(),
    });
  }

  newBlockFilter({ expires = true }: FilterOptions = {}): bigint {
    return this.install({ kind: 'blocks', expires, changes: new BoundedQueue<string>(this.maxBuffered), lastPoll: this.wallClock() });
  }

  newPendingTransactionFilter({ expires = true }: FilterOptions = {}): bigint {
    return this.install({ kind: 'pendingTransactions', expires, changes: new BoundedQueue<string>(this.maxBuffered), lastPoll: this.wallClock() });
  }

  kindOf(id: bigint): FilterKind | undefined {
    this.sweep();
    return this.filters.get(id)?.kind;
  }

  /** Everything that happened since the previous poll (since installation, on the first); restarts the timeout. */
  changes(id: bigint): FilterChanges {
    this.sweep();
    const filter = this.filters.get(id);
    if (!filter) throw notFound();
    filter.lastPoll = this.wallClock();
    if (filter.kind === 'logs') return { kind: 'logs', logs: filter.changes.drain() };
    expandReserved(filter);
    return { kind: 'hashes', hashes: filter.changes.drain() };
  }

  /**
   * For a subscription's delivery in slices: at most `max` of the oldest changes, removed.
   * Reservations of empty blocks are walked a slice at a time, so a subscriber of a million
   * reserved blocks costs no memory until it is sent them.
   */
  take(id: bigint, max: number): TakenChanges {
    const filter = this.filters.get(id);
    if (!filter) throw notFound();
    if (filter.kind === 'logs') return { kind: 'logs', logs: filter.changes.take(max) };
    const hashes = filter.changes.take(max);
    const held = filter.reserved;
    const reserved: MinedBlock[] = [];
    while (held && held.length > 0 && hashes.length < max) {
      const range = held[0]!;
      const from = range.start;
      const to = Math.min(range.count, from + max - hashes.length);
      range.run.materializeThrough(to - 1);
      for (let i = from; i < to; i++) {
        const block = range.run.blockAt(i);
        hashes.push(block.hashHex);
        reserved.push(block);
      }
      if (to === range.count) held.shift();
      else held[0] = range.from(to);
    }
    return { kind: 'hashes', hashes, reserved };
  }

  /** Whether take() has more to hand out. */
  hasChanges(id: bigint): boolean {
    const filter = this.filters.get(id);
    if (!filter) return false;
    return filter.changes.size > 0 || (filter.kind !== 'logs' && (filter.reserved?.length ?? 0) > 0);
  }

  /** Whether the filter has dropped changes for want of room since it was installed (its reader fell behind). */
  lostChanges(id: bigint): boolean {
    const filter = this.filters.get(id);
    if (!filter) return false;
    return filter.changes.dropped > 0 || (filter.kind !== 'logs' && filter.skipped === true);
  }

  /** Every log the log filter's criteria match on the chain now (as getLogs with its options). */
  async logs(id: bigint): Promise<FoundLog[]> {
    this.sweep();
    const filter = this.filters.get(id);
    if (filter?.kind !== 'logs') throw notFound();
    return this.query(filter.query);
  }

  /** getLogs: a one-off query over the chain (on a fork, its upstream's history too; a long one lets other requests in: queryLogs). */
  query(query: LogQuery): Promise<FoundLog[]> {
    return queryHistoryLogs(this.chain.blocks, query, this.options.maxLogs);
  }

  /** True when the filter existed (and is now gone). */
  uninstall(id: bigint): boolean {
    this.sweep();
    const existed = this.filters.delete(id);
    this.stopSweeperIfIdle();
    return existed;
  }

  /** Remove every filter not polled within the timeout. */
  sweep(): void {
    const now = this.wallClock();
    for (const [id, filter] of this.filters) {
      if (filter.expires && now - filter.lastPoll >= this.options.timeoutMs) this.filters.delete(id);
    }
    this.stopSweeperIfIdle();
  }

  /** Stop listening to the chain and drop every filter and the sweep timer. */
  close(): void {
    this.closed = true;
    this.chain.off('block', this.onBlock);
    this.chain.off('reserved', this.onReserved);
    this.chain.off('pendingTransaction', this.onPendingTransaction);
    this.chain.off('reorg', this.onReorg);
    this.filters.clear();
    this.stopSweeperIfIdle();
  }

  private install(filter: Installed): bigint {
    if (this.closed) throw rejected('filter system is closed');
    this.sweep();
    const id = this.ids.next();
    this.filters.set(id, filter);
    if (!this.sweeper) {
      // Frees the memory of abandoned filters on an idle node; never keeps the process alive.
      this.sweeper = setInterval(() => this.sweep(), this.sweepIntervalMs);
      this.sweeper.unref();
    }
    return id;
  }

  private stopSweeperIfIdle(): void {
    if (this.filters.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }
}

/** Whether a log filter looks at this block: its hash, or within its numeric bounds (tags leave a side open). */
function collects(query: LogQuery, mined: MinedBlock): boolean {
  const { scope } = query;
  if ('blockHash' in scope) return scope.blockHash === mined.hashHex;
  if ('number' in scope.from && mined.number < scope.from.number) return false;
  if ('number' in scope.to && mined.number > scope.to.number) return false;
  return true;
}

/**
 * Queue the hashes of a block filter's held reservations (the oldest `count` of them, or
 * all), computing those blocks if no one has yet: only the newest `capacity` can survive
 * in the queue, so older ones are skipped. A reservation a revert has dropped since still
 * reports its hashes, as a block mined and reverted does.
 */
function expandReserved(filter: HashFilter, count = Infinity): void {
  const held = filter.reserved;
  if (!held || held.length === 0) return;
  for (const range of held.splice(0, count)) {
    range.run.materializeThrough(range.count - 1);
    const start = Math.max(range.start, range.count - filter.changes.capacity);
    if (start > range.start) filter.skipped = true;
    for (let i = start; i < range.count; i++) filter.changes.push(range.run.blockAt(i).hashHex);
  }
}
