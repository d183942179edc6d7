/**
 * The chain facade the RPC layer calls. Every method that reads or changes state is one call
 * queued on the chain's serial queue into a `ChainCore` (chain/core.ts), which only tasks of
 * that queue ever hold; the logic lives in chain/ and mining/, one concern a module. The class
 * is built in three layers, one file each: chain/base.ts (the queue and the reads that need
 * none), chain/controls.ts (test controls), and this file (state reads, execution,
 * transactions, mining). See docs/architecture.md for the queue's rules.
 */
import type { Proof } from '@ethereumjs/statemanager';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import type { MinedBlock } from './blocks/blocks.js';
import type { BlockToTrace, TracedTransaction } from './tracers/blockTrace.js';
import * as calls from './chain/calls.js';
import { ChainControls } from './chain/controls.js';
import * as sending from './chain/sending.js';
import * as state from './chain/state.js';
import { type BlockRef, type EngineOptions, MAX_BLOCKS_PER_MINE, type SendOptions, senderOfRequest } from './chain/types.js';
import { EngineError } from './util/errors.js';
import type { AccessListOutcome, CallRequest } from './execution/execution.js';
import type { MiningOutcome } from './execution/blockBuilder.js';
import { type MiningRun, mineMany, mineManyAhead, mineOnward } from './mining/mineMany.js';
import { type PowView, powViewOf } from './mining/powView.js';
import { mineExecutable, pendingBuild } from './mining/producer.js';
import type { CallOverrides } from './state/overrides.js';
import { type SimulateOptions, type SimulatedBlock, checkSimulateLimits } from './execution/simulate.js';
import type { ExecutionTracer, TracedRun } from './tracers/tracing.js';
import type { PooledTransaction } from './transactions/txpool.js';
import type { TestingBlock, TestingBlockRequest } from './execution/testingBlock.js';
import * as history from './chain/history.js';

export type { AccountReader, BlockReader, ChainSettings, ClockReader, PersistableState, PoolReader } from './chain/base.js';
import type { ChainCore } from './chain/core.js';
export type { ChainCore };
export * from './chain/types.js';
export type { MiningKind, MiningMode } from './mining/policy.js';
export type { PowView } from './mining/powView.js';
export { ReentryError } from './util/serial.js';
export { BlockGoneError } from './chain/detached.js';

export class Chain extends ChainControls {
  private constructor() {
    super();
  }

  static async create(options: EngineOptions): Promise<Chain> {
    const chain = new Chain();
    await chain.init(options, (wanted) => chain.mineOnTimer(wanted));
    return chain;
  }

  // ---- state reads and execution -------------------------------------------------------

  getBalance(address: Address, ref: BlockRef): Promise<bigint> {
    return this.runFetching('getBalance', (core) => state.getBalance(core, address, ref));
  }
  getTransactionCount(address: Address, ref: BlockRef): Promise<bigint> {
    return this.runFetching('getTransactionCount', (core) => state.getTransactionCount(core, address, ref));
  }
  getCode(address: Address, ref: BlockRef): Promise<Uint8Array> {
    return this.runFetching('getCode', (core) => state.getCode(core, address, ref));
  }
  getStorageAt(address: Address, slot: Uint8Array, ref: BlockRef): Promise<Uint8Array> {
    return this.runFetching('getStorageAt', (core) => state.getStorageAt(core, address, slot, ref));
  }
  getProof(address: Address, slots: readonly Uint8Array[], ref: BlockRef): Promise<Proof> {
    return this.runFetching('getProof', (core) => state.getProof(core, address, slots, ref));
  }
  /** The next block as the pool would make it now (eth_getBlockByNumber('pending')). */
  pendingBlock(): Promise<MinedBlock> {
    return this.run('pendingBlock', async (core) => (await pendingBuild(core, await core.executable())).block);
  }
  // Calls at an older block than the head, traces and eth_simulateV1 pin what they need in a
  // task and run after it, outside the queue (chain/detached.ts); a tracer they call is not
  // part of any task.
  call(request: CallRequest, ref: BlockRef, overrides?: CallOverrides): Promise<Uint8Array> {
    return this.runFetchingDetachable('call', (core) => calls.call(core, request, ref, overrides));
  }
  createAccessList(request: CallRequest, ref: BlockRef, overrides?: CallOverrides): Promise<AccessListOutcome> {
    return this.runFetchingDetachable('createAccessList', (core) => calls.createAccessList(core, request, ref, overrides));
  }
  estimateGas(request: CallRequest, ref: BlockRef, overrides?: CallOverrides): Promise<bigint> {
    return this.runFetchingDetachable('estimateGas', (core) => calls.estimate(core, request, ref, overrides));
  }
  traceCall(request: CallRequest, ref: BlockRef, tracer: ExecutionTracer, overrides?: CallOverrides): Promise<TracedRun> {
    return this.runDetachable('traceCall', (core) => calls.traceCall(core, request, ref, tracer, overrides));
  }
  traceCalls(requests: readonly CallRequest[], ref: BlockRef, tracerFor: (index: number) => ExecutionTracer): Promise<TracedRun[]> {
    return this.runDetachable('traceCalls', (core) => calls.traceCalls(core, requests, ref, tracerFor));
  }
  traceTransaction(hashHex: string, tracer: ExecutionTracer): Promise<TracedRun | undefined> {
    return this.runDetachable('traceTransaction', (core) => calls.traceTransaction(core, hashHex, tracer));
  }
  traceBlock(target: BlockToTrace, tracerFor: (index: number) => ExecutionTracer): Promise<TracedTransaction[]> {
    return this.runDetachable('traceBlock', (core) => calls.traceBlock(core, target, tracerFor));
  }
  simulate(options: SimulateOptions, ref: BlockRef): Promise<SimulatedBlock[]> {
    checkSimulateLimits(options.blocks);
    return this.runDetachable('simulate', (core) => calls.simulate(core, options, ref));
  }
  /** testing_buildBlockV1: a block on the head, on a throwaway copy of the state; the chain does not change. */
  buildTestingBlock(request: TestingBlockRequest): Promise<TestingBlock> {
    return this.run('buildTestingBlock', (core) => calls.buildTestingBlockOnHead(core, request));
  }
  /** The pool as txpool_* splits it: `pending` can run now (in block order), `queued` waits behind a nonce gap. */
  poolContent(): Promise<{ pending: PooledTransaction[]; queued: PooledTransaction[] }> {
    return this.run('poolContent', async (core) => {
      const pending = await core.executable();
      const runnable = new Set(pending);
      return { pending, queued: core.pool.all().filter((entry) => !runnable.has(entry)) };
    });
  }

  // ---- transactions ----------------------------------------------------------------------

  /** Decode, validate and pool a signed transaction; under automine, mine it right after answering (or first: SendOptions). */
  submitRawTransaction(raw: Uint8Array, options?: SendOptions): Promise<string> {
    return this.runFetching('submitRawTransaction', (core) => sending.submitRawTransaction(core, raw, options));
  }
  /** Build, sign with an owned key (or send as an impersonated account), and submit (eth_sendTransaction). */
  sendTransaction(request: CallRequest, options?: SendOptions): Promise<string> {
    return this.runFetching('sendTransaction', (core) => sending.sendFrom(core, request, options));
  }
  /** Build and submit without a signature, whoever `from` is (Anvil's eth_sendUnsignedTransaction). */
  sendUnsignedTransaction(request: CallRequest): Promise<string> {
    return this.runFetching('sendUnsignedTransaction', (core) => sending.sendFrom(core, request, { unsigned: true }));
  }
  /** personal_sendTransaction: as eth_sendTransaction, opening a locked account with its passphrase. */
  sendWithPassphrase(request: CallRequest, passphrase: string): Promise<string> {
    return this.runFetching('sendWithPassphrase', (core) => sending.sendFrom(core, request, { passphrase }));
  }
  /** Complete and sign with an owned key, without sending (eth_signTransaction); the nonce counts the pool. */
  signTransaction(request: CallRequest, passphrase?: string): Promise<Uint8Array> {
    return this.runFetching('signTransaction', (core) => sending.signTransaction(core, request, passphrase));
  }
  /** The transaction eth_sendTransaction would send, unsigned, with every default filled (eth_fillTransaction). */
  completeTransaction(request: CallRequest): Promise<TypedTransaction> {
    return this.runFetching('completeTransaction', (core) => sending.fillTransaction(core, request, senderOfRequest(request, 'fillTransaction')));
  }
  /** Remove a pending transaction; false if it is not in the pool. */
  dropTransaction(hashHex: string): Promise<boolean> {
    return this.run('dropTransaction', (core) => core.pool.remove(hashHex) !== undefined);
  }
  /** Remove every pool transaction, or every one `sender` sent; how many left. */
  dropTransactions(sender?: Address): Promise<number> {
    return this.run('dropTransactions', (core) => {
      const leaving = core.pool.all().filter((entry) => sender === undefined || entry.sender.equals(sender));
      for (const entry of leaving) core.pool.remove(entry.hashHex);
      return leaving.length;
    });
  }

  // ---- mining and time -------------------------------------------------------------------

  /** Mine one block with whatever pending transactions fit. */
  mine(count = 1n): Promise<void> {
    return this.mineMany(count);
  }

  /**
   * Mine `count` blocks (chain_mine / evm_mine / hardhat_mine): the first takes pending
   * transactions and `timestamp` if given; later ones are `interval` seconds apart (mining/mineMany.ts).
   */
  mineMany(count: bigint, interval?: bigint, timestamp?: bigint): Promise<void> {
    if (count > MAX_BLOCKS_PER_MINE) {
      throw new EngineError('invalidInput', `cannot mine ${count} blocks in one call: at most ${MAX_BLOCKS_PER_MINE}`);
    }
    return this.mineInTurns('mineMany', (core) => mineMany(core, count, interval, timestamp));
  }

  /** Anvil's anvil_mine with an interval: the clock jumps `interval` seconds before each block and stays ahead. */
  mineManyAhead(count: bigint, interval: bigint): Promise<void> {
    if (count > MAX_BLOCKS_PER_MINE) {
      throw new EngineError('invalidInput', `cannot mine ${count} blocks in one call: at most ${MAX_BLOCKS_PER_MINE}`);
    }
    return this.mineInTurns('mineManyAhead', (core) => mineManyAhead(core, count, interval));
  }

  /** Interval mining's block: none if the interval was changed or stopped while it waited for its turn (policy.ts). */
  private mineOnTimer(wanted: () => boolean): Promise<void> {
    return this.mineInTurns('mineOnTimer', async (core) => (wanted() ? mineMany(core, 1n) : { left: 0n, step: 1n }));
  }

  /** A run of blocks, a turn of the queue at a time: tasks queued meanwhile run between turns (mineMany.ts). */
  private async mineInTurns(what: string, first: (core: ChainCore) => Promise<MiningRun>): Promise<void> {
    let run = await this.run(what, first);
    while (run.left > 0n) {
      const going = run;
      run = await this.run(what, (core) => mineOnward(core, going));
    }
  }

  setAutomine(enabled: boolean): Promise<void> {
    return this.run('setAutomine', async (core) => {
      core.mining.automine = enabled;
      if (enabled) await mineExecutable(core);
    });
  }

  /** A block every `ms`, or every random whole number of ms in [ms, maxMs] (Hardhat's mining.interval range); 0: none. */
  setIntervalMining(ms: number, maxMs = ms): Promise<void> {
    return this.run('setIntervalMining', (core) => core.mining.setInterval(ms, maxMs));
  }

  /** Anvil's anvil_setIntervalMining: an interval in ms replaces automine (0: no mining at all). */
  setIntervalMiningOnly(ms: number): Promise<void> {
    return this.run('setIntervalMiningOnly', (core) => core.mining.intervalOnly(ms));
  }

  /** The mining mode the node was configured with: at start-up (once the chain is loaded); a reset restores it too. */
  startConfiguredMining(): Promise<void> {
    return this.run('startConfiguredMining', (core) => core.mining.restoreConfigured());
  }

  /** Stop background work (interval mining) so the process can exit; touches no state, so it needs no queue. */
  close(): void {
    this.core.mining.close();
    this.core.runHashing.close();
  }

  /**
   * Proof of work: `plan` runs inside one task with what the sealer may see and do (the head,
   * the live state root, a draft of the next block on the live state, rolled back).
   */
  powWork<T>(plan: (view: PowView) => Promise<T>): Promise<T> {
    return this.run('powWork', (core) => plan(powViewOf(core)));
  }

  /** Append a block built by powWork and sealed: only if the head and the live state are still `baseRoot`'s. */
  adoptBlock(outcome: MiningOutcome, baseRoot: Uint8Array): Promise<boolean> {
    return this.run('adoptBlock', (core) => history.adoptBlock(core, outcome, baseRoot));
  }
}
