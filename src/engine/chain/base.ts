/**
 * The base of the chain facade (../chain.ts): the queue, the one way into the core (`run`),
 * the lane behind an answer, and the reads that need no queue: values that only tasks change,
 * each in one synchronous step (the head, blocks, settings), read after `settling`.
 */
import { EventEmitter } from 'node:events';
import type { Common } from '@ethereumjs/common';
import type { Address } from '@ethereumjs/util';
import type { AccountRegistry } from '../accounts/accounts.js';
import type { BlockRecord, BlockStore, ChainSegment, MinedBlock, TransactionLocation } from '../blocks/blocks.js';
import type { BlockClock } from '../mining/clock.js';
import type { EmptyBlocksMode } from '../blocks/runHashing.js';
import type { ForkSchedule } from '../rules/forkSchedule.js';
import type { ForkPoint } from '../blocks/forkStart.js';
import type { MiningKind } from '../mining/policy.js';
import { ReentryError, SerialQueue } from '../util/serial.js';
import type { ChainSnapshot } from '../state/snapshots.js';
import type { StateReading } from '../state/stateReading.js';
import type { PoolOrder, TxPool } from '../transactions/txpool.js';
import { ChainCore } from './core.js';
import { DetachedWork } from './detached.js';
import { RemoteReadPending } from '../state/remoteMiss.js';
import * as history from './history.js';
import type { BlockRef, ChainEvents, EngineOptions } from './types.js';

/** The block store as readers see it; reads of history (`history*`, `withReceipts`) include a fork's upstream's. */
export type BlockReader = Pick<
  BlockStore,
  | 'head'
  | 'headNumber'
  | 'headTimestamp'
  | 'headBaseFee'
  | 'lastUnreserved'
  | 'firstNumber'
  | 'byNumber'
  | 'byHashHex'
  | 'transaction'
  | 'deployedContracts'
  | 'historyByNumber'
  | 'historyByHash'
  | 'historyTransaction'
  | 'withReceipts'
  | 'holds'
> &
  Readonly<Pick<BlockStore, 'history'>>;
/** The pool as readers see it. */
export type PoolReader = Pick<TxPool, 'size' | 'get' | 'all'>;
/** The clock as readers see it (time travel goes through the chain's queued methods). */
export type ClockReader = Readonly<Pick<BlockClock, 'nowSeconds' | 'peekNext' | 'blockInterval' | 'offset' | 'save' | 'allowSameTimestamp'>>;
/** The node's accounts as readers (and signers of messages) see them. */
export type AccountReader = Readonly<
  Pick<
    AccountRegistry,
    'list' | 'privateKeyOf' | 'addresses' | 'holds' | 'signingKeyOf' | 'senderKeyOf' | 'isImpersonated' | 'impersonatedAddresses' | 'impersonateAll'
  >
>;

/** Settings that change no state of their own, only what later blocks and answers use. */
export interface ChainSettings {
  readonly coinbase?: Address;
  readonly blockGasLimit?: bigint;
  /** eth_gasPrice and legacy sends without a price; undefined: base fee + tip. */
  readonly gasPrice?: bigint | undefined;
  /** Every mined block's extraData; undefined: none. */
  readonly extraData?: Uint8Array | undefined;
  readonly suggestedTip?: bigint;
  readonly callGasCap?: bigint | undefined;
  readonly finalityLag?: bigint;
  readonly allowSameTimestamp?: boolean;
  readonly impersonateAll?: boolean;
  /** 'vm': every block of chain_mine through the VM (tests compare it with reservations); 'lazy': a whole run reserved in O(1), hashed only when read (runHashing.ts). */
  readonly emptyBlocks?: EmptyBlocksMode;
}

/** What a state save writes, read in one task so that it describes one moment. */
export interface PersistableState {
  readonly hardfork: string;
  readonly gasLimit: bigint;
  readonly timestamp: bigint;
  readonly clockOffset: bigint;
  readonly privateKeys: Uint8Array[];
  /** The accounts at that moment, read afterwards in steps (on a fork, when asked for: the local overlay's pieces). */
  readonly accounts: StateReading;
  readonly segments: ChainSegment[];
}

export class ChainBase extends EventEmitter<ChainEvents> {
  /** Every operation on the state, one at a time; an answer waits for the console.log lines printed before it. */
  protected readonly queue = new SerialQueue();
  protected core!: ChainCore;
  /** Work queued behind an answer, while it is under way (afterAnswer). */
  private workAfterAnswer: Promise<void> | undefined;

  protected constructor() {
    super();
    // Each WebSocket connection with subscriptions listens to the chain's events: no fixed bound.
    this.setMaxListeners(0);
  }

  /** Build the core; `mineOne` queues one block (interval mining). */
  protected async init(options: EngineOptions, mineOne: (wanted: () => boolean) => Promise<void>): Promise<void> {
    this.core = await ChainCore.create(options, {
      // Listeners are not part of the task that emits: they may queue calls (and they are not awaited).
      emit: (event, ...args) => this.queue.outsideTask(() => (this.emit as (event: string, ...args: unknown[]) => boolean)(event, ...args)),
      listening: (event) => this.listenerCount(event) > 0,
      afterAnswer: (task) => this.afterAnswer(task),
      mineOne,
    });
  }

  /** Queue `fn` on the core: the one way in. `what` names the call if it was made from inside a task. */
  protected run<T>(what: string, fn: (core: ChainCore) => T | Promise<T>): Promise<T> {
    if (this.queue.running) return Promise.reject(new ReentryError(what));
    const core = this.core;
    // A task that leaves the head in an unhashed run of empty blocks starts its hashing (runHashing.ts).
    return this.queue.run(() => fn(core)).finally(() => core.runHashing.wake());
  }

  /**
   * Queue `fn` on the core like `run`, with the upstream's misses deferred (remoteMiss.ts): on a
   * fork, a value the upstream has not sent yet is not awaited inside the task. The task ends,
   * its fetch is awaited here, outside the queue, while other tasks run, and `fn` runs again as
   * a new task (it finds the value, or fails with the fetch's error). `fn` must leave no effect
   * behind when a miss ends it (reads, calls; sends until their transaction is pooled).
   */
  protected async runFetching<T>(what: string, fn: (core: ChainCore) => Promise<T>): Promise<T> {
    for (;;) {
      const outcome = await this.run(what, (core) =>
        core.deferringMisses(async (): Promise<{ answer: T } | { miss: RemoteReadPending }> => {
          try {
            return { answer: await fn(core) };
          } catch (error) {
            if (error instanceof RemoteReadPending) return { miss: error };
            throw error;
          }
        }),
      );
      if ('answer' in outcome) return outcome.answer;
      const failure = await outcome.miss.settled;
      if (failure) throw failure;
    }
  }

  /** runFetching for calls, whose work on the past runs after the task (runDetachable). */
  protected async runFetchingDetachable<T>(what: string, fn: (core: ChainCore) => Promise<T | DetachedWork<T>>): Promise<T> {
    const outcome = await this.runFetching(what, fn);
    return outcome instanceof DetachedWork ? (outcome as DetachedWork<T>).run() : outcome;
  }

  /**
   * Queue `fn` on the core like `run`; when it answers work pinned on the past (DetachedWork:
   * traces, calls at old blocks, eth_simulateV1), that work runs after the task, outside the
   * queue, and its result is the answer (detached.ts). Callbacks the work calls (tracers) are
   * not part of any task: a queued call they make waits for its turn like any other.
   */
  protected async runDetachable<T>(what: string, fn: (core: ChainCore) => Promise<T | DetachedWork<T>>): Promise<T> {
    const outcome = await this.run(what, fn);
    return outcome instanceof DetachedWork ? (outcome as DetachedWork<T>).run() : outcome;
  }

  /**
   * From inside a queue task: run `task` right after it, while its answer goes out. Tasks already
   * waiting run after `task`, and reads that bypass the queue wait for `settling`, so nobody
   * sees the chain as it was before an answer. `task` starts at once: the answer is written at
   * its first awaits.
   */
  private afterAnswer(task: () => Promise<void>): void {
    const done = this.queue.runNext(async () => {
      await task().catch((error: unknown) => this.emit('error', error));
      this.core.runHashing.wake();
    });
    this.workAfterAnswer = done;
    void done.then(() => {
      if (this.workAfterAnswer === done) this.workAfterAnswer = undefined;
    });
  }

  /** While work queued behind an answer is under way (afterAnswer): the promise of its end. */
  get settling(): Promise<void> | undefined {
    return this.workAfterAnswer;
  }

  // ---- reads without the queue: values only tasks change, each in one synchronous step ----

  get head(): MinedBlock {
    return this.core.head;
  }
  get blocks(): BlockReader {
    return this.core.blocks;
  }
  get pool(): PoolReader {
    return this.core.pool;
  }
  get clock(): ClockReader {
    return this.core.clock;
  }
  get accounts(): AccountReader {
    return this.core.accounts;
  }
  /** The VM's Common: read it, never move it (with a fork schedule only tasks align it). */
  get common(): Common {
    return this.core.common;
  }
  get schedule(): ForkSchedule | undefined {
    return this.core.schedule;
  }
  get chainId(): bigint {
    return this.core.chainId;
  }
  /** The upstream block this chain forks (undefined: a local chain). */
  get fork(): ForkPoint | undefined {
    return this.core.forkPoint;
  }
  /** The pool's order when several transactions fit a block (--order). */
  get poolOrder(): PoolOrder {
    return this.core.options.order ?? 'fees';
  }
  /** Trie nodes and code held for every state still reachable (memory diagnostics). */
  get storedStateNodes(): number {
    return this.core.trieNodes.size;
  }
  get coinbase(): Address {
    return this.core.coinbase;
  }
  get blockGasLimit(): bigint {
    return this.core.blockGasLimit;
  }
  get gasPrice(): bigint | undefined {
    return this.core.gasPrice;
  }
  get extraData(): Uint8Array | undefined {
    return this.core.extraData;
  }
  get suggestedTip(): bigint {
    return this.core.suggestedTip;
  }
  get callGasCap(): bigint | undefined {
    return this.core.callGasCap;
  }
  get finalityLag(): bigint {
    return this.core.finalityLag;
  }
  get emptyBlocks(): EmptyBlocksMode {
    return this.core.emptyBlocks;
  }
  /** Identifies this run of the chain to tools (hardhat_metadata); a reset starts a new one. */
  get instanceId(): Uint8Array {
    return this.core.instanceId;
  }
  get automine(): boolean {
    return this.core.mining.automine;
  }
  /** The interval mining period in milliseconds, while interval mining is on. */
  get intervalMs(): number | undefined {
    return this.core.mining.intervalMs;
  }
  get miningKind(): MiningKind {
    return this.core.mining.kind;
  }
  /** True while blocks are produced without being asked for (automine or interval mining). */
  isMining(): boolean {
    return this.core.mining.producesBlocks;
  }
  /** The base fee the next block will have (undefined before London). */
  nextBaseFee(): bigint | undefined {
    return this.core.nextBaseFee();
  }
  /** A Common on the fork of the next block: a copy no VM listens to when there is a fork schedule. */
  nextBlockCommon(): Common {
    return this.core.nextBlockCommon();
  }
  resolve(ref: BlockRef): MinedBlock {
    return this.core.resolve(ref);
  }
  find(ref: BlockRef): MinedBlock | undefined {
    return this.core.find(ref);
  }
  /**
   * The block a reference names as a read of history (transactions, receipts, logs; not
   * state): on a fork, at or below the pinned block, the upstream's (core.ts's findHistory).
   */
  findHistory(ref: BlockRef): Promise<BlockRecord | undefined> {
    return this.core.findHistory(ref);
  }
  /** A mined transaction, on a fork the upstream's at or below the pinned block too. */
  historyTransaction(hashHex: string): Promise<TransactionLocation<BlockRecord> | undefined> {
    return this.core.blocks.historyTransaction(hashHex);
  }
  /** A block of history with its receipts (a fork's upstream is asked for its own). */
  withReceipts(block: BlockRecord): Promise<MinedBlock> {
    return this.core.blocks.withReceipts(block);
  }
  /** A mined transaction's blobs, kept from its network form (blobStore.ts); undefined otherwise. */
  blobsOf(txHashHex: string): readonly Uint8Array[] | undefined {
    return this.core.blobs.blobsOf(txHashHex, (hash) => this.core.blocks.transaction(hash) !== undefined);
  }
  /** A mined blob by its versioned hash; undefined otherwise. */
  blobByVersionedHash(versionedHash: Uint8Array): Uint8Array | undefined {
    return this.core.blobs.blobByVersionedHash(versionedHash, (hash) => this.core.blocks.transaction(hash) !== undefined);
  }
  transaction(hashHex: string): TransactionLocation | undefined {
    return this.core.blocks.transaction(hashHex);
  }
  /** The blocks mined since a state point (oldest first), or undefined if the chain left it. */
  blocksSince(point: ChainSnapshot): MinedBlock[] | undefined {
    return history.blocksSince(this.core, point);
  }
  /** Every block from genesis to the head. */
  allBlocks(): MinedBlock[] {
    const { blocks } = this.core;
    const all: MinedBlock[] = [];
    for (let n = blocks.firstNumber; n <= blocks.headNumber; n++) all.push(blocks.byNumber(n)!);
    return all;
  }
}
