/**
 * The chain's state and the operations on it, with no queue: a `ChainCore` is handed only to
 * tasks of the chain's serial queue (the facade in ../chain.ts), so everything here may assume
 * it runs alone. It never holds the facade, so no code here can queue a task and wait for it.
 */
import { randomBytes } from 'node:crypto';
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { EVM } from '@ethereumjs/evm';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches } from '@ethereumjs/statemanager';
import { type Address, ValueEncoding, bytesToHex } from '@ethereumjs/util';
import { type VM, createVM } from '@ethereumjs/vm';
import { AccountRegistry } from '../accounts/accounts.js';
import { type BlockRecord, BlockStore, type MinedBlock } from '../blocks/blocks.js';
import { BlockClock } from '../mining/clock.js';
import { type EmptyBlocksMode, RunHashing } from '../blocks/runHashing.js';
import { evmOptionsFor } from '../rules/codeSize.js';
import { ConsolePrinter } from '../execution/consoleLog.js';
import { askTerminalColorsOnce } from '../patches/debugColors.js';
import { RangeBlock, baseFeeAfterEmpty } from '../blocks/emptyRanges.js';
import { rejected } from '../util/errors.js';
import { transactionGasCap } from '../execution/execution.js';
import { type ForkSchedule, alignFork, forkBlock } from '../rules/forkSchedule.js';
import { type ForkPoint, startFork } from '../blocks/forkStart.js';
import { createGenesis } from '../blocks/genesis.js';
import { createChainCommon, createScheduledCommon } from '../rules/hardforks.js';
import { installJumpAnalysisCache } from '../patches/jumpAnalysis.js';
import type { MiningOutcome, NextBlockOverrides } from '../execution/blockBuilder.js';
import { MiningPolicy } from '../mining/policy.js';
import { PendingBlock } from '../mining/producer.js';
import { copyOf, stateRootOf } from './copies.js';
import { DetachedWork } from './detached.js';
import { installRevertTraceGuard } from '../patches/revertTraceGuard.js';
import { installLogNumbering } from '../patches/logNumbering.js';
import { BlobStore } from '../transactions/blobStore.js';
import { SignatureOverrides } from '../transactions/signatureOverrides.js';
import { setChainIdOf } from '../rules/chainId.js';
import { type ChainSnapshot, SnapshotRegistry } from '../state/snapshots.js';
import { TrackingStateManager } from '../state/stateDump.js';
import { installStepLoop } from '../patches/stepLoop.js';
import { installLazyRunState } from '../patches/lazyRunState.js';
import { installUint256Balances } from '../patches/uint256Balances.js';
import { installStepPacing } from '../patches/stepPacing.js';
import { TrieNodeDB } from '../state/trieDb.js';
import { EMPTY_TRIE_ROOT } from '../state/trieRoot.js';
import { type PooledTransaction, TxPool } from '../transactions/txpool.js';
import { type BlockRef, type ChainEvents, type EngineOptions, SUGGESTED_TIP } from './types.js';

/** Puts a VM on the fork of a block with this number and timestamp. */
export type VmAligner = (vm: VM, number: bigint, timestamp: bigint) => void;

/** A VM on a past state, kept for the next read at the same state. */
interface HistoricalVm {
  readonly root: string;
  readonly vm: VM;
  /** Work outside the queue runs on it now (lendVmAt): nothing else may until it is given back. */
  lent: boolean;
}

/** What the core needs from its facade: the events, the lane behind the current answer, and a queued block. */
export interface CoreHooks {
  /** Emit a chain event; listeners run as code outside the task (they may queue calls). */
  readonly emit: <K extends keyof ChainEvents>(event: K, ...args: ChainEvents[K]) => void;
  readonly listening: (event: keyof ChainEvents) => boolean;
  /** Run `task` right after the current task, before everything waiting (SerialQueue.runNext). */
  readonly afterAnswer: (task: () => Promise<void>) => void;
  /** Queue one block (interval mining's timer; never called from a task). */
  readonly mineOne: (wanted: () => boolean) => Promise<void>;
}

export class ChainCore {
  /** Solidity's console.log lines, emitted as 'consoleLog'. */
  readonly consoleLines: ConsolePrinter;
  readonly pool: TxPool;
  /** Sidecars of blob transactions sent in their network form (anvil_getBlobsByTransactionHash). */
  readonly blobs = new BlobStore();
  readonly clock: BlockClock;
  readonly accounts: AccountRegistry;
  readonly mining: MiningPolicy;
  /** The next block as the pool would make it now, cached by the state's version (mining/producer.ts). */
  readonly pending = new PendingBlock();
  coinbase: Address;
  blockGasLimit: bigint;
  /** Legacy gas price: eth_gasPrice and legacy sends without a price (--gas-price, miner_setGasPrice); unset: base fee + tip. */
  gasPrice: bigint | undefined;
  /** Every mined block's extraData (miner_setExtra). */
  extraData: Uint8Array | undefined;
  /** The tip suggested and filled in when a request names none (--disable-min-priority-fee: 0). */
  suggestedTip = SUGGESTED_TIP;
  /** Gas cap of eth_call and eth_estimateGas (--transaction-gas-cap); unset: the block's (EIP-7825's) cap. */
  callGasCap: bigint | undefined;
  /** 'safe' is this many blocks behind the head and 'finalized' twice as many (--slots-in-an-epoch, as Anvil). */
  finalityLag = 0n;
  /**
   * 'reserve': chain_mine of many empty blocks reserves them as runs once nothing changes
   * state (emptyRanges.ts), a turn of the queue at a time, each hashed as it is added
   * (mining/mineMany.ts), and hashes a run left unhashed at the head (a loaded state) in the
   * background (runHashing.ts); 'lazy': reserves a whole run in O(1), hashed only when read
   * (tests of what a read computes); 'vm': every block through the VM (tests compare them).
   */
  emptyBlocks: EmptyBlocksMode = 'reserve';
  /** The head's reserved run, hashed in the background after the task that left it unhashed. */
  readonly runHashing = new RunHashing(
    () => this.head,
    () => this.emptyBlocks === 'reserve',
  );
  /** Identifies this run of the chain to tools (hardhat_metadata); a reset starts a new one. */
  instanceId: Uint8Array = randomBytes(32);
  /** Replaced, never mutated: snapshots hold it as it was. */
  nextBlock: NextBlockOverrides = {};
  readonly snapshots = new SnapshotRegistry();
  /** Where chain_reset returns: the genesis block, or the head of an imported chain. */
  genesisPoint: ChainSnapshot | undefined;
  forkPoint: ForkPoint | undefined;
  /** The VM of the last historical state read, by its state root (lent: work outside the queue runs on it). */
  historical: HistoricalVm | undefined;
  /** The last template of a run of empty blocks, by the constant fields it has (mining/mineMany.ts). */
  lastTemplate: { readonly key: string; readonly block: Block } | undefined;
  /** With a fork schedule: the rules the next block follows, asked without touching the VM's Common. */
  private readonly nextCommon: Common;

  private constructor(
    /** The VM's Common. With a fork schedule it is moved to each block's fork inside the queue only. */
    readonly common: Common,
    readonly vm: VM,
    readonly blocks: BlockStore,
    readonly options: EngineOptions,
    readonly schedule: ForkSchedule | undefined,
    readonly trieNodes: TrieNodeDB,
    readonly hooks: CoreHooks,
    /** anvil_impersonateSignature's registry, read by the ECRECOVER precompile of every VM (signatureOverrides.ts). */
    readonly signatures: SignatureOverrides,
  ) {
    this.nextCommon = schedule ? common.copy() : common;
    this.consoleLines = new ConsolePrinter(
      () => hooks.listening('consoleLog'),
      (line, source) => hooks.emit('consoleLog', line, source),
      (error) => hooks.emit('error', error),
      options.consoleAddresses,
    );
    this.pool = new TxPool(options.order ?? 'fees');
    this.clock = new BlockClock(options.wallClock);
    this.accounts = new AccountRegistry(options.accounts);
    this.coinbase = options.coinbase;
    this.blockGasLimit = options.gasLimit;
    const configured = options.miningMode ?? { automine: options.mining !== 'pow' };
    this.mining = new MiningPolicy(configured, options.mining === 'pow', hooks.mineOne, (error) => hooks.emit('error', error));
  }

  static async create(options: EngineOptions, hooks: CoreHooks): Promise<ChainCore> {
    const schedule = options.genesis?.schedule ?? options.fork?.schedule;
    const common = schedule
      ? createScheduledCommon(options.chainId, schedule, options.genesis?.header.timestamp ?? (options.fork!.header.timestamp as bigint))
      : createChainCommon(options.chainId, options.hardfork);
    // A fork of a known network starts on the rules of its pinned block.
    if (schedule && options.fork) alignFork(common, schedule, options.fork.number, options.fork.header.timestamp as bigint);
    await installJumpAnalysisCache();
    await installStepLoop();
    await installStepPacing();
    await installLazyRunState();
    await installRevertTraceGuard();
    await installLogNumbering();
    installUint256Balances();
    askTerminalColorsOnce();
    const store = new BlockStore();
    const trieNodes = new TrieNodeDB();
    const signatures = new SignatureOverrides();
    const vm = await createVM({
      common,
      evmOpts: { ...evmOptionsFor(options.codeSizeLimit), customPrecompiles: [signatures.precompile()] },
      // Caches keep writes of a transaction (and of reverted calls) out of the trie until a block commits.
      stateManager: new TrackingStateManager({
        common,
        caches: new Caches(),
        trie: new MerklePatriciaTrie({ useKeyHashing: true, common, db: trieNodes, valueEncoding: ValueEncoding.Bytes }),
      }),
      blockchain: store.asEvmBlockchain(),
    });
    const core = new ChainCore(common, vm, store, options, schedule, trieNodes, hooks, signatures);
    core.consoleLines.watch(vm.evm as EVM);
    await core.startBase(options.fork);
    core.genesisPoint = await core.capture();
    return core;
  }

  /** The first block: a new genesis block, or a fork's pinned block (on an empty block store and state). */
  async startBase(fork: ForkPoint | undefined): Promise<void> {
    const options = this.options;
    this.forkPoint = fork;
    this.state.remote = undefined;
    await this.state.setStateRoot(EMPTY_TRIE_ROOT);
    if (fork) {
      const funding = { addresses: options.accounts.map((a) => a.address), balance: options.balance, warm: [options.coinbase] };
      await startFork(this.vm, this.blocks, this.trieNodes, fork, funding);
      return;
    }
    this.blocks.olderHash = undefined;
    this.blocks.history = undefined;
    this.blocks.startAt(options.genesisNumber ?? 0n);
    const genesis = await createGenesis(this.vm, {
      number: options.genesisNumber,
      accounts: options.genesis ? [] : options.accounts.map((a) => ({ address: a.address, balance: options.balance })),
      gasLimit: options.gasLimit,
      baseFee: options.baseFee,
      timestamp: options.genesisTimestamp ?? this.clock.nowSeconds(),
      coinbase: options.coinbase,
      alloc: options.genesisAlloc,
      header: options.genesis?.header,
    });
    this.blocks.append(genesis);
  }

  /**
   * Run `fn` with the upstream's misses deferred (forkState.ts, remoteMiss.ts): a value not
   * fetched yet throws RemoteReadPending instead of being awaited while the queue is held.
   * `fn` must leave no effect behind when it throws, so that it can run again from the start.
   */
  async deferringMisses<T>(fn: () => Promise<T>): Promise<T> {
    const state = this.state;
    const was = state.deferMisses;
    state.deferMisses = state.remote !== undefined;
    try {
      return await fn();
    } finally {
      state.deferMisses = was;
    }
  }

  get state(): TrackingStateManager {
    return this.vm.stateManager as TrackingStateManager;
  }

  get chainId(): bigint {
    return this.common.chainId();
  }

  get head(): MinedBlock {
    return this.blocks.head;
  }

  /**
   * A reserved head's hash and those of the runs before it, computed a few hundred at a time
   * letting other requests in (EmptyRun.materializePaced): what a block built on the head
   * needs (its parent hash), and 100,000 reserved blocks take 0.45 s to hash.
   */
  async hashHead(): Promise<void> {
    const head = this.head;
    if (head instanceof RangeBlock) await head.run.materializePaced(head.index);
  }

  /** The base fee the next block will have (undefined before London). */
  nextBaseFee(): bigint | undefined {
    const common = this.nextBlockCommon();
    if (!common.isActivatedEIP(1559)) return undefined;
    if (this.nextBlock.baseFeePerGas !== undefined) return this.nextBlock.baseFeePerGas;
    // The London block itself starts from the initial base fee: its parent has none.
    const head = this.head;
    if (head instanceof RangeBlock) return baseFeeAfterEmpty(common, head.baseFee!);
    const parent = head.block.header;
    return parent.baseFeePerGas === undefined ? common.param('initialBaseFee') : parent.calcNextBaseFee();
  }

  /**
   * A Common on the fork of the next block (number head + 1, the clock's next timestamp).
   * Without a fork schedule it is the chain's one Common. Safe outside the queue: with a
   * schedule it is a copy no VM listens to.
   */
  nextBlockCommon(): Common {
    if (this.schedule) alignFork(this.nextCommon, this.schedule, this.head.number + 1n, this.clock.peekNext(this.blocks.headTimestamp));
    return this.nextCommon;
  }

  /** With a fork schedule: put a VM on the fork of a block. */
  alignVm(vm: VM, number: bigint, timestamp: bigint): void {
    if (this.schedule) alignFork(vm.common, this.schedule, number, timestamp);
  }

  /** alignVm without the core, for work outside the queue (the schedule never changes). */
  aligner(): VmAligner {
    const schedule = this.schedule;
    return (vm, number, timestamp) => {
      if (schedule) alignFork(vm.common, schedule, number, timestamp);
    };
  }

  /** Resolve a block reference; throws go-ethereum's "header not found" when it names no block. */
  resolve(ref: BlockRef): MinedBlock {
    const found = this.find(ref);
    if (!found) throw rejected('hash' in ref ? `header for hash not found` : 'header not found');
    return found;
  }

  /** Like resolve, but undefined when no such block exists (block getters answer null). */
  find(ref: BlockRef): MinedBlock | undefined {
    if ('tag' in ref) {
      if (ref.tag === 'earliest') return this.blocks.byNumber(this.blocks.firstNumber);
      if (this.finalityLag > 0n && (ref.tag === 'safe' || ref.tag === 'finalized')) {
        const behind = this.head.number - this.finalityLag * (ref.tag === 'safe' ? 1n : 2n);
        return this.blocks.byNumber(behind > 0n ? behind : 0n);
      }
      return this.head;
    }
    if ('number' in ref) return this.blocks.byNumber(ref.number);
    return this.blocks.byHashHex(ref.hash);
  }

  /**
   * The block a reference names, as a read of history (its transactions and receipts, not its
   * state): on a fork, at or below the pinned block, the upstream's, 'earliest' included.
   */
  findHistory(ref: BlockRef): Promise<BlockRecord | undefined> {
    const { blocks } = this;
    if ('hash' in ref) return blocks.historyByHash(ref.hash);
    if ('number' in ref) return blocks.historyByNumber(ref.number);
    if (ref.tag === 'earliest') return blocks.historyByNumber(blocks.history ? 0n : blocks.firstNumber);
    if (this.finalityLag > 0n && (ref.tag === 'safe' || ref.tag === 'finalized')) {
      const behind = this.head.number - this.finalityLag * (ref.tag === 'safe' ? 1n : 2n);
      return blocks.historyByNumber(behind > 0n ? behind : 0n);
    }
    return blocks.historyByNumber(this.head.number);
  }

  /** anvil_setChainId (chainId.ts): later signatures and CHAINID use `chainId`; a reset puts the configured one back. */
  setChainId(chainId: bigint): void {
    const before = this.chainId;
    setChainIdOf([this.common, this.vm.common, this.nextCommon], chainId);
    // Cached VMs and the pending block ran under the old id.
    this.historical = undefined;
    this.pending.cached = undefined;
    if (chainId !== before) this.hooks.emit('chainChanged', chainId);
  }

  /** The VM whose state is the state as of `mined` (the live VM for the head); tasks only. */
  async vmAt(mined: MinedBlock): Promise<VM> {
    if (mined === this.head) return this.vm;
    return (await this.historicalAt(mined)).vm;
  }

  /**
   * A VM on the state as of `mined` that nothing else runs on until `giveBack` (work outside
   * the queue: detach). The cached historical VM when it is free, else a new one.
   */
  async lendVmAt(mined: MinedBlock): Promise<{ readonly vm: VM; readonly giveBack: () => void }> {
    const entry = await this.historicalAt(mined);
    entry.lent = true;
    return {
      vm: entry.vm,
      giveBack: () => {
        entry.lent = false;
      },
    };
  }

  /** The cached historical VM for `mined`'s state if it is free, else a new one, cached (a lent one stays its borrower's). */
  private async historicalAt(mined: MinedBlock): Promise<HistoricalVm> {
    const stateRoot = stateRootOf(mined);
    const root = bytesToHex(stateRoot);
    const cached = this.historical;
    if (cached?.root === root && !cached.lent) return cached;
    const vm = await this.copyAt(mined, stateRoot);
    this.consoleLines.watch(vm.evm as EVM);
    this.historical = { root, vm, lent: false };
    return this.historical;
  }

  /**
   * Hand `work` out to run after this task, outside the queue (detached.ts): every trie node
   * is kept until it ends (a lease), then `release` (lent VMs) runs too; `at` is the block it
   * runs at, whose leaving the chain meanwhile refuses its answer.
   */
  detach<T>(at: MinedBlock, work: () => Promise<T>, release: () => void = () => {}): DetachedWork<T> {
    const endLease = this.trieNodes.lease();
    return new DetachedWork(
      work,
      () => {
        release();
        endLease();
      },
      at,
      this.blocks,
    );
  }

  /** A new VM on the state as of `mined`, sharing the trie database. */
  async copyAt(mined: MinedBlock, stateRoot = stateRootOf(mined)): Promise<VM> {
    // Blocks restored from a --state file keep no state of their own: only the head's is loaded.
    if (!(await this.state.hasStateRoot(stateRoot))) {
      throw rejected(`state of block ${mined.number} is not available (not kept across a restart)`);
    }
    return copyOf(this.vm, stateRoot);
  }

  /** Executable pool content in block order, by the state nonces at the head (the pool itself has no state). */
  async executable(): Promise<PooledTransaction[]> {
    const nonces = new Map<string, bigint>();
    for (const sender of this.pool.senders()) {
      nonces.set(sender.toString(), (await this.vm.stateManager.getAccount(sender))?.nonce ?? 0n);
    }
    return this.pool.executable((sender) => nonces.get(sender.toString()) ?? 0n, this.nextBaseFee());
  }

  /** The gas cap of calls and estimates. */
  gasCap(): bigint {
    return this.callGasCap ?? transactionGasCap(this.nextBlockCommon(), this.blockGasLimit);
  }

  /** A new head: its transactions leave the pool, the next-block overrides are used up. */
  appendMined(outcome: MiningOutcome): void {
    this.nextBlock = {};
    for (const entry of outcome.included) this.pool.remove(entry.hashHex);
    for (const { entry } of outcome.dropped) this.pool.remove(entry.hashHex);
    this.blocks.append(outcome.mined);
    this.hooks.emit('block', outcome.mined);
  }

  /**
   * Put the live VM on the fork of the block about to be mined. At the London block the gas
   * limit doubles, as go-ethereum's miner and header checks expect (the gas target stays).
   */
  enterFork(number: bigint, timestamp: bigint): void {
    this.alignVm(this.vm, number, timestamp);
    if (number > 0n && number === forkBlock(this.schedule!, 'london')) this.blockGasLimit *= 2n;
  }

  /** Everything a revert needs, taken now. */
  async capture(): Promise<ChainSnapshot> {
    return {
      headNumber: this.head.number,
      head: this.head,
      stateRoot: await this.vm.stateManager.getStateRoot(),
      pool: this.pool.all(),
      clock: this.clock.save(),
      nextBlock: this.nextBlock,
      blockGasLimit: this.blockGasLimit,
      coinbase: this.coinbase,
    };
  }

  /**
   * Put back everything but the blocks, which the caller has arranged; `keep`: the snapshot stays
   * valid; `rewindClock` (snapshot reverts): the clock reads again what it read then (BlockClock.restore).
   */
  async restore(snapshot: ChainSnapshot, keep = true, rewindClock = false): Promise<void> {
    this.historical = undefined;
    if (snapshot.caches) await this.state.revertTo(snapshot.stateRoot, snapshot.caches, keep);
    else await this.vm.stateManager.setStateRoot(snapshot.stateRoot);
    this.pool.replaceAll(snapshot.pool);
    this.clock.restore(snapshot.clock, rewindClock);
    this.nextBlock = snapshot.nextBlock;
    this.blockGasLimit = snapshot.blockGasLimit;
    this.coinbase = snapshot.coinbase;
  }

  /** A state point whose state no revert frees. */
  async pinnedPoint(): Promise<ChainSnapshot> {
    const point = await this.capture();
    this.trieNodes.pin();
    return point;
  }
}
