import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { type Block, createBlock } from '@ethereumjs/block';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { Common } from '@ethereumjs/common';
import { Caches, type MerkleStateManager, type Proof, getMerkleStateProof } from '@ethereumjs/statemanager';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { type TypedTransaction, type TypedTxData, createTx } from '@ethereumjs/tx';
import { Account, type Address, ValueEncoding, bytesToHex, createAddressFromString, equalsBytes, setLengthLeft, toChecksumAddress } from '@ethereumjs/util';
import type { EVM } from '@ethereumjs/evm';
import { type VM, createVM } from '@ethereumjs/vm';
import { AccountRegistry, type OwnedAccount } from './accounts.js';
import { type CodeSizeLimit, evmOptionsFor } from './codeSize.js';
import { BlockStore, type ChainSegment, type MinedBlock, type TransactionLocation } from './blocks.js';
import { BlockClock, MAX_TIMESTAMP, type WallClock, assertMinable } from './clock.js';
import { EngineError, TransactionFailedError, rejected } from './errors.js';
import { type UnexplainedState, findUnexplainedState } from './exportCheck.js';
import { ConsolePrinter } from './consoleLog.js';
import { impersonate } from './impersonation.js';
import { askTerminalColorsOnce } from './debugColors.js';
import {
  type AccessListOutcome,
  type CallRequest,
  assertHonourable,
  createAccessList,
  estimateGas,
  executeCall,
  executeCallKeepingState,
  runCall,
  transactionGasCap,
  withAuthorizations,
} from './execution.js';
import { RangeBlock, ReservedBlocks, baseFeeAfterEmpty, emptySuccessor, reserveEmptyBlocks } from './emptyRanges.js';
import { type EncodedBlock, type ImportSummary, importBlocks } from './importer.js';
import { type ForkSchedule, alignFork, forkAt, forkBlock } from './forkSchedule.js';
import { type GenesisHeader, createGenesis } from './genesis.js';
import { type ForkPoint, startFork } from './forkStart.js';
import { EMPTY_TRIE_ROOT } from './trieRoot.js';
import { PRELOADED_PARAMS, createChainCommon, createScheduledCommon, isPostMerge } from './hardforks.js';
import { installJumpAnalysisCache } from './jumpAnalysis.js';
import { installStepLoop } from './stepLoop.js';
import { installRevertTraceGuard } from './revertTraceGuard.js';
import { TrieNodeDB } from './trieDb.js';
import { type ReorgItem, ReorgNonces, commonBlock, groupByBlock } from './reorg.js';
import { setChainIdOf } from './chainId.js';
import { SignatureOverrides } from './signatureOverrides.js';
import { type CallOverrides, applyStateOverrides, applyStateOverridesReversibly, blockWithOverrides, hasOverrides } from './overrides.js';
import { type SimulateOptions, type SimulatedBlock, checkSimulateLimits, simulate } from './simulate.js';
import { type ExecutionFailure, type MiningOutcome, type NextBlockOverrides, mineBlock, replayBlock, replayTransaction } from './miner.js';
import { type BlockToTrace, type TracedTransaction, planBlockTrace, tracedTransactions } from './blockTrace.js';
import type { ExecutionTracer, TracedRun } from './tracing.js';
import { SerialQueue } from './serial.js';
import { type ChainSnapshot, SnapshotRegistry } from './snapshots.js';
import { type Alloc, type AccountState, TrackingStateManager } from './stateDump.js';
import { type PoolOrder, type PooledTransaction, TxPool } from './txpool.js';
import { decodeRawTransaction, hashHexOf, senderOf, translateTxError, validateAdmission } from './validation.js';

export type BlockTag = 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized';

/** Which block a read refers to; hashes are 0x-prefixed lower-case hex. */
export type BlockRef = { readonly tag: BlockTag } | { readonly number: bigint } | { readonly hash: string; readonly requireCanonical?: boolean };

export const LATEST: BlockRef = { tag: 'latest' };

export interface EngineOptions {
  readonly chainId: bigint;
  readonly hardfork: string;
  readonly accounts: readonly OwnedAccount[];
  readonly balance: bigint;
  readonly gasLimit: bigint;
  readonly baseFee: bigint;
  readonly coinbase: Address;
  readonly order?: PoolOrder;
  readonly genesisTimestamp?: bigint;
  /** The genesis block's number (Anvil's --number): later blocks count on from it. Default 0. */
  readonly genesisNumber?: bigint;
  /** Accounts written into the genesis state after the prefunded ones (fixtures). */
  readonly genesisAlloc?: Alloc;
  readonly wallClock?: WallClock;
  /** 'pow': no automine; blocks come from solutions to chain_getWork (pow/sealer.ts). Default 'instant'. */
  readonly mining?: 'instant' | 'pow';
  /**
   * The mining mode configured at start-up, which a reset restores: automine (default: on unless
   * proof of work) and interval mining in milliseconds, a fixed period or a random one in
   * [min, max] (Hardhat's mining.interval).
   */
  readonly miningMode?: { readonly automine: boolean; readonly interval?: readonly [number, number] };
  /**
   * A genesis file: its fork schedule replaces `hardfork`, its header fields the genesis
   * settings above, and the genesis state is `genesisAlloc` alone (no prefunded accounts).
   */
  readonly genesis?: { readonly schedule: ForkSchedule; readonly header: GenesisHeader };
  /**
   * Hardhat's node (throwOnTransactionFailures): under automine a send waits for its block, and a
   * transaction that failed there answers TransactionFailedError instead of its hash (still mined).
   * Otherwise the hash is answered first and the block built right after (as Anvil and geth).
   */
  readonly throwOnTransactionFailures?: boolean;
  /** Fork an upstream chain (fork/): its pinned block replaces the genesis block, its state lies under the local one. */
  readonly fork?: ForkPoint;
  /** Contract size limit: bytes, 'unlimited', or undefined for the forks' own (codeSize.ts). */
  readonly codeSizeLimit?: CodeSizeLimit;
}

/** What the state setters (chain_setBalance, chain_setCode, chain_setNonce) change in an account. */
export interface AccountChange {
  readonly balance?: bigint;
  readonly nonce?: bigint;
  readonly code?: Uint8Array;
}

export interface ChainEvents {
  /** A block was appended to the canonical chain. */
  block: [MinedBlock];
  /** Empty blocks were reserved after the head (emptyRanges.ts): no 'block' event for each. */
  reserved: [ReservedBlocks];
  /** A transaction entered the pool (emitted even when automine mines it at once). */
  pendingTransaction: [string];
  /** Blocks left the canonical chain (snapshot revert, reset, reorganisation), oldest first. */
  reorg: [MinedBlock[]];
  /** The state went back to an earlier point (snapshot revert, reset): states built since are gone. */
  rewound: [];
  /** A contract called Solidity's console.log in a transaction or an eth_call: the line it printed. */
  consoleLog: [string];
  /** A background task (interval mining, printing console.log lines) failed. */
  error: [unknown];
  /** The chain id changed (anvil_setChainId, or a reset back to the configured one): EIP-1193's chainChanged. */
  chainChanged: [bigint];
}

/** System contracts called at the start or end of every block once their EIP is active. */
const SYSTEM_CONTRACTS: ReadonlyArray<readonly [number, Address]> = [
  [4788, createAddressFromString('0x000f3df6d732807ef1319fb7b8bb8522d0beac02')],
  [2935, createAddressFromString('0x0000f90827f1c53a10cb7a02335b175320002935')],
  [7002, createAddressFromString('0x00000961ef480eb55e80d19ad83579a64c007002')],
  [7251, createAddressFromString('0x0000bbddc7ce488642fb579f8b00f3a590007251')],
];

/** The state root after `mined`: a reserved empty block has its reservation's, without computing the block. */
function stateRootOf(mined: MinedBlock): Uint8Array {
  return mined instanceof RangeBlock ? mined.run.spec.template.header.stateRoot : mined.block.header.stateRoot;
}

/** A new VM sharing `source`'s trie database, on `stateRoot` (by default the state `source` is at). */
async function copyOf(source: VM, stateRoot?: Uint8Array): Promise<VM> {
  const vm = await source.shallowCopy(false);
  await vm.stateManager.setStateRoot(stateRoot ?? (await source.stateManager.getStateRoot()));
  return vm;
}

/** The `from` a transaction request must name (eth_sendTransaction, eth_signTransaction). */
function senderOfRequest(request: CallRequest, method: string): Address {
  if (!request.from) throw new EngineError('invalidInput', `missing "from" for ${method}`);
  return request.from;
}

/** Block headers store the timestamp as a uint64. */

/** A bound on one chain_mine call, so a typo cannot wedge the node for hours. */
export const MAX_BLOCKS_PER_MINE = 1_000_000n;

function assertTimestamp(timestamp: bigint): void {
  if (timestamp > MAX_TIMESTAMP || timestamp < 0n) {
    throw new EngineError('invalidInput', `timestamp ${timestamp} is outside the uint64 range of block headers`);
  }
}

/** Where a call runs: a VM at the block's state, the block (or the pending header), the node's accounts. */
type CallContext = { readonly vm: VM; readonly block: Block; readonly accounts: AccountRegistry };

/** Fee suggestions for clients that ask (go-ethereum answers base fee + suggested tip). */
export const SUGGESTED_TIP = 1_000_000_000n;

/**
 * The chain facade the RPC layer calls. Everything that touches state runs
 * through one serial queue; block data structures are updated atomically.
 */
export class Chain extends EventEmitter<ChainEvents> {
  /** Solidity's console.log lines, emitted as 'consoleLog'. */
  readonly consoleLines = new ConsolePrinter(
    () => this.listenerCount('consoleLog') > 0,
    (line) => this.emit('consoleLog', line),
    (error) => this.emit('error', error),
  );
  /** Every operation on the state, one at a time; an answer waits for the console.log lines printed before it. */
  readonly queue = new SerialQueue(() => this.consoleLines.take());
  readonly pool: TxPool;
  readonly clock: BlockClock;
  readonly accounts: AccountRegistry;
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
  automine = true;
  /** Replaced, never mutated: snapshots hold it as it was. */
  private nextBlock: NextBlockOverrides = {};
  private readonly snapshots = new SnapshotRegistry();
  /** Where chain_reset returns: the genesis block, or the head of an imported chain. */
  private genesisPoint: ChainSnapshot | undefined;
  /** anvil_impersonateSignature's registry, read by the ECRECOVER precompile of every VM (signatureOverrides.ts). */
  private signatures!: SignatureOverrides;
  private forkPoint: ForkPoint | undefined;
  private intervalTimer: NodeJS.Timeout | undefined;
  /** The interval mining period in milliseconds, while interval mining is on (anvil_getIntervalMining). */
  intervalMs: number | undefined;
  private historical: { root: string; vm: VM } | undefined;
  /** The pending block and its state, by what they were built from (pendingBuild). */
  private pending: { key: string; template: NextBlockOverrides; vm: VM; block: MinedBlock } | undefined;
  /** With a fork schedule: the rules the next block follows, asked without touching the VM's Common. */
  private readonly nextCommon: Common;
  /**
   * 'reserve': chain_mine of many empty blocks reserves them in O(1) once nothing changes
   * state (emptyRanges.ts); 'vm': every block through the VM (tests compare the two).
   */
  emptyBlocks: 'reserve' | 'vm' = 'reserve';
  /** Identifies this run of the chain to tools (hardhat_metadata); a reset starts a new one. */
  instanceId: Uint8Array = randomBytes(32);
  /** The last template emptyRunTemplate built, by the constant fields it has. */
  private lastTemplate: { readonly key: string; readonly block: Block } | undefined;
  /** Work queued behind an answer, while it is under way (afterAnswer). */
  private workAfterAnswer: Promise<void> | undefined;

  private constructor(
    /** The VM's Common. With a fork schedule it is moved to each block's fork inside the queue only. */
    readonly common: Common,
    readonly vm: VM,
    readonly blocks: BlockStore,
    private readonly options: EngineOptions,
    readonly schedule: ForkSchedule | undefined,
    private readonly trieNodes: TrieNodeDB,
  ) {
    super();
    // Each WebSocket connection with subscriptions listens to the chain's events: no fixed bound.
    this.setMaxListeners(0);
    this.nextCommon = schedule ? common.copy() : common;
    this.pool = new TxPool(options.order ?? 'fees');
    this.clock = new BlockClock(options.wallClock);
    this.accounts = new AccountRegistry(options.accounts);
    this.coinbase = options.coinbase;
    this.blockGasLimit = options.gasLimit;
    this.automine = this.configuredAutomine();
  }

  static async create(options: EngineOptions): Promise<Chain> {
    const schedule = options.genesis?.schedule ?? options.fork?.schedule;
    const common = schedule
      ? createScheduledCommon(options.chainId, schedule, options.genesis?.header.timestamp ?? (options.fork!.header.timestamp as bigint))
      : createChainCommon(options.chainId, options.hardfork);
    // A fork of a known network starts on the rules of its pinned block.
    if (schedule && options.fork) alignFork(common, schedule, options.fork.number, options.fork.header.timestamp as bigint);
    await installJumpAnalysisCache();
    await installStepLoop();
    await installRevertTraceGuard();
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
    const chain = new Chain(common, vm, store, options, schedule, trieNodes);
    chain.signatures = signatures;
    chain.consoleLines.watch(vm.evm as EVM);
    await chain.startBase(options.fork);
    chain.genesisPoint = await chain.capture();
    return chain;
  }

  /** The upstream block this chain forks (undefined: a local chain). */
  get fork(): ForkPoint | undefined {
    return this.forkPoint;
  }

  /** The first block: a new genesis block, or a fork's pinned block (on an empty block store and state). */
  private async startBase(fork: ForkPoint | undefined): Promise<void> {
    const options = this.options;
    this.forkPoint = fork;
    this.state.remote = undefined;
    await this.state.setStateRoot(EMPTY_TRIE_ROOT);
    if (fork) {
      const funding = { addresses: options.accounts.map((a) => a.address), balance: options.balance };
      await startFork(this.vm, this.blocks, this.trieNodes, fork, funding);
      return;
    }
    this.blocks.olderHash = undefined;
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

  /** Trie nodes and code held for every state still reachable (memory diagnostics). */
  get storedStateNodes(): number {
    return this.trieNodes.size;
  }

  get chainId(): bigint {
    return this.common.chainId();
  }

  /** The pool's order when several transactions fit a block (--order). */
  get poolOrder(): PoolOrder {
    return this.options.order ?? 'fees';
  }

  get head(): MinedBlock {
    return this.blocks.head;
  }

  /** True while blocks are produced without being asked for (automine or interval mining). */
  isMining(): boolean {
    return this.automine || this.intervalTimer !== undefined;
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

  /** With a fork schedule: put a VM on the fork of a block (call inside the queue). */
  private alignVm(vm: VM, number: bigint, timestamp: bigint): void {
    if (this.schedule) alignFork(vm.common, this.schedule, number, timestamp);
  }

  setNextBaseFee(fee: bigint | undefined): void {
    this.nextBlock = { ...this.nextBlock, baseFeePerGas: fee };
  }

  /** The next block's PREVRANDAO (its mixHash); only after the merge, where the header carries it. */
  setNextPrevRandao(prevRandao: Uint8Array): void {
    if (!isPostMerge(this.nextBlockCommon())) throw rejected('prevRandao can only be set after the merge (hardfork paris or later)');
    this.nextBlock = { ...this.nextBlock, prevRandao };
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

  transaction(hashHex: string): TransactionLocation | undefined {
    return this.blocks.transaction(hashHex);
  }

  // ---- state reads -------------------------------------------------------------------

  /** The state a read names: `pending` includes what the pool would do in the next block. */
  private async stateAt(ref: BlockRef): Promise<VM> {
    if ('tag' in ref && ref.tag === 'pending') return this.pendingState();
    return this.vmAt(this.resolve(ref));
  }

  /** The state after the executable pool transactions (pendingBuild); with an empty pool, the live state itself. */
  private async pendingState(): Promise<VM> {
    const executable = await this.executable();
    if (executable.length === 0) return this.vm;
    return (await this.pendingBuild(executable)).vm;
  }

  /**
   * The next block as the pool would make it now (eth_getBlockByNumber('pending')), as go-ethereum,
   * Hardhat and Anvil serve it: the head's child with the executable pool transactions.
   */
  pendingBlock(): Promise<MinedBlock> {
    return this.queue.run(async () => (await this.pendingBuild(await this.executable())).block);
  }

  /**
   * The next block from `executable`, built on a scratch copy of the VM (sharing the trie
   * database, so the live state is untouched) and reused until the head, the pool, the clock's
   * next timestamp or the next-block settings change.
   */
  private async pendingBuild(executable: PooledTransaction[]): Promise<{ vm: VM; block: MinedBlock }> {
    const timestamp = this.clock.peekNext(this.blocks.headTimestamp);
    const fork = this.schedule ? forkAt(this.schedule, this.head.number + 1n, timestamp) : '';
    const key = `${this.head.hashHex}:${fork}:${timestamp}:${this.coinbase}:${this.blockGasLimit}:${executable.map((e) => e.hashHex).join(',')}`;
    if (this.pending?.key !== key || this.pending.template !== this.nextBlock) {
      const vm = await copyOf(this.vm);
      this.consoleLines.watch(vm.evm as EVM);
      this.alignVm(vm, this.head.number + 1n, timestamp);
      // The pool's transactions print their console.log lines when they are mined, not here.
      const outcome = await this.consoleLines.mutedDuring(() =>
        mineBlock(vm, this.head, executable, {
          timestamp,
          coinbase: this.coinbase,
          gasLimit: this.blockGasLimit,
          extraData: this.extraData,
          ...this.nextBlock,
        }),
      );
      this.pending = { key, template: this.nextBlock, vm, block: outcome.mined };
    }
    return this.pending;
  }

  /** The VM whose state is the state as of `mined` (the live VM for the head). */
  private async vmAt(mined: MinedBlock): Promise<VM> {
    if (mined === this.head) return this.vm;
    const stateRoot = stateRootOf(mined);
    const root = bytesToHex(stateRoot);
    if (this.historical?.root !== root) {
      const vm = await this.copyAt(mined, stateRoot);
      this.consoleLines.watch(vm.evm as EVM);
      this.historical = { root, vm };
    }
    return this.historical.vm;
  }

  /** A new VM on the state as of `mined`, sharing the trie database. */
  private async copyAt(mined: MinedBlock, stateRoot = stateRootOf(mined)): Promise<VM> {
    // Blocks restored from a --state file keep no state of their own: only the head's is loaded.
    if (!(await this.state.hasStateRoot(stateRoot))) {
      throw rejected(`state of block ${mined.number} is not available (not kept across a restart)`);
    }
    return copyOf(this.vm, stateRoot);
  }

  getBalance(address: Address, ref: BlockRef): Promise<bigint> {
    return this.queue.run(async () => {
      const vm = await this.stateAt(ref);
      return (await vm.stateManager.getAccount(address))?.balance ?? 0n;
    });
  }

  /** The account nonce at a block; `pending` also counts the sender's queued transactions. */
  getTransactionCount(address: Address, ref: BlockRef): Promise<bigint> {
    return this.queue.run(async () => {
      const vm = await this.stateAt(ref);
      const nonce = (await vm.stateManager.getAccount(address))?.nonce ?? 0n;
      return 'tag' in ref && ref.tag === 'pending' ? this.pool.nextNonce(address, nonce) : nonce;
    });
  }

  getCode(address: Address, ref: BlockRef): Promise<Uint8Array> {
    return this.queue.run(async () => {
      const vm = await this.stateAt(ref);
      return vm.stateManager.getCode(address);
    });
  }

  getStorageAt(address: Address, slot: Uint8Array, ref: BlockRef): Promise<Uint8Array> {
    return this.queue.run(async () => {
      const vm = await this.stateAt(ref);
      const value = await vm.stateManager.getStorage(address, setLengthLeft(slot, 32));
      return setLengthLeft(value, 32);
    });
  }

  /** An EIP-1186 proof of an account and some of its storage slots (32 bytes each) at a block. */
  getProof(address: Address, slots: readonly Uint8Array[], ref: BlockRef): Promise<Proof> {
    return this.queue.run(async () => {
      const vm = await this.stateAt(ref);
      return getMerkleStateProof(vm.stateManager as MerkleStateManager, address, [...slots]);
    });
  }

  // ---- execution without transactions --------------------------------------------------

  call(request: CallRequest, ref: BlockRef, overrides?: CallOverrides): Promise<Uint8Array> {
    return this.queue.run(() => this.inCallContext(ref, overrides, (ctx) => runCall(ctx, request, this.gasCap())));
  }

  /**
   * A call run with `tracer` attached (debug_traceCall), on a copy of the state it would run
   * on: a tracer that stops a run (too large) leaves its VM mid-transaction. The copy prints
   * no console.log lines.
   */
  traceCall(request: CallRequest, ref: BlockRef, tracer: ExecutionTracer, overrides?: CallOverrides): Promise<TracedRun> {
    return this.queue.run(async () => {
      const ctx = await this.plainExecutionContext(ref);
      const vm = await copyOf(ctx.vm);
      const block = hasOverrides(overrides) ? blockWithOverrides(ctx.block, overrides.block) : ctx.block;
      if (hasOverrides(overrides)) {
        // The copy is thrown away: the overrides need no undoing.
        this.alignVm(vm, block.header.number, block.header.timestamp);
        await applyStateOverrides(vm, overrides.state ?? [], (address) => toChecksumAddress(address.toString()));
      }
      const detach = tracer.attach({ vm, coinbase: block.header.coinbase });
      try {
        return { result: await executeCall({ vm, block }, request, this.gasCap()), logsBefore: 0 };
      } finally {
        detach();
      }
    });
  }

  /** Calls run one after another on one copy of the state, each seeing the ones before (trace_callMany). */
  traceCalls(requests: readonly CallRequest[], ref: BlockRef, tracerFor: (index: number) => ExecutionTracer): Promise<TracedRun[]> {
    return this.queue.run(async () => {
      const ctx = await this.plainExecutionContext(ref);
      const vm = await copyOf(ctx.vm);
      const runs: TracedRun[] = [];
      for (let i = 0; i < requests.length; i++) {
        const detach = tracerFor(i).attach({ vm, coinbase: ctx.block.header.coinbase });
        try {
          runs.push({ result: await executeCallKeepingState({ vm, block: ctx.block }, requests[i]!, this.gasCap()), logsBefore: 0 });
        } finally {
          detach();
        }
      }
      return runs;
    });
  }

  /**
   * A mined transaction run again with `tracer` attached (debug_traceTransaction), on a copy
   * of the state its block started from, after the transactions before it; undefined for an
   * unknown hash. The copy prints no console.log lines (they were printed when it was mined).
   */
  traceTransaction(hashHex: string, tracer: ExecutionTracer): Promise<TracedRun | undefined> {
    return this.queue.run(async () => {
      const found = this.blocks.transaction(hashHex);
      if (!found) return undefined;
      const { mined, index } = found;
      const parent = this.blocks.byNumber(mined.number - 1n)!;
      const vm = await this.copyAt(parent, mined.preStateRoot ?? stateRootOf(parent));
      this.alignVm(vm, mined.number, mined.block.header.timestamp);
      const result = await replayTransaction(vm, parent, mined, index, tracer);
      const location = { blockHash: mined.hash, blockNumber: mined.number, index, txHash: mined.block.transactions[index]!.hash() };
      return { result, logsBefore: mined.receipts.slice(0, index).reduce((sum, receipt) => sum + receipt.logs.length, 0), location };
    });
  }

  /**
   * Every transaction of a block run again, each with the tracer `tracerFor` gives it
   * (debug_traceBlock*), on a copy of the state the block started from (blockTrace.ts).
   */
  traceBlock(target: BlockToTrace, tracerFor: (index: number) => ExecutionTracer): Promise<TracedTransaction[]> {
    return this.queue.run(async () => {
      const scratch = await copyOf(this.vm); // only its Common is used, to decode an RLP block at its fork
      const plan = planBlockTrace(target, this.blocks, scratch.common, (number, timestamp) => this.alignVm(scratch, number, timestamp));
      const { header } = plan.replayed.block;
      const vm = await this.copyAt(plan.parent, plan.preStateRoot ?? stateRootOf(plan.parent));
      this.alignVm(vm, header.number, header.timestamp);
      const results = await replayBlock(vm, plan.parent, plan.replayed, plan.replayed.block.transactions.length, tracerFor);
      return tracedTransactions(plan.replayed.block, results);
    });
  }

  /** eth_simulateV1 on a throwaway copy of the state at `ref` (simulate.ts). */
  simulate(options: SimulateOptions, ref: BlockRef): Promise<SimulatedBlock[]> {
    checkSimulateLimits(options.blocks);
    return this.queue.run(async () => {
      const ctx = await this.plainExecutionContext(ref);
      const vm = await copyOf(ctx.vm);
      return simulate(
        {
          vm,
          base: ctx.block,
          chainId: this.chainId,
          align: (target, number, timestamp) => this.alignVm(target, number, timestamp),
          canonicalHash: (number) => this.blocks.byNumber(number)?.hash,
          checksum: (address) => toChecksumAddress(address.toString()),
        },
        options,
      );
    });
  }

  createAccessList(request: CallRequest, ref: BlockRef, overrides?: CallOverrides): Promise<AccessListOutcome> {
    return this.queue.run(() => this.inCallContext(ref, overrides, (ctx) => createAccessList(ctx, request, this.gasCap())));
  }

  /**
   * Where a call runs: the state and header of the named block, or for `pending` the
   * head's state in the context of the next block (its number, timestamp with time
   * travel applied, base fee), so a call sees what a transaction sent now would see.
   */
  /**
   * Run `body` where a call runs (plainExecutionContext), with `overrides` applied: block overrides on
   * a copy of the header, state overrides inside a checkpoint of the state that is always
   * reverted (overrides.ts), so nothing leaks.
   */
  private async inCallContext<T>(ref: BlockRef, overrides: CallOverrides | undefined, body: (ctx: CallContext) => Promise<T>): Promise<T> {
    const ctx = await this.plainExecutionContext(ref);
    if (!hasOverrides(overrides)) return body(ctx);
    const block = blockWithOverrides(ctx.block, overrides.block);
    this.alignVm(ctx.vm, block.header.number, block.header.timestamp);
    const restore = await applyStateOverridesReversibly(ctx.vm, overrides.state ?? [], (address) => toChecksumAddress(address.toString()));
    try {
      return await body({ ...ctx, block });
    } finally {
      await restore();
    }
  }

  private async plainExecutionContext(ref: BlockRef): Promise<CallContext> {
    if ('tag' in ref && ref.tag === 'pending') {
      const vm = await this.pendingState();
      // With an empty pool that is the live VM: it runs under the next block's fork.
      const header = this.pendingHeaderBlock();
      this.alignVm(vm, header.header.number, header.header.timestamp);
      return { vm, block: header, accounts: this.accounts };
    }
    const mined = this.resolve(ref);
    const vm = await this.vmAt(mined);
    this.alignVm(vm, mined.number, mined.block.header.timestamp);
    return { vm, block: mined.block, accounts: this.accounts };
  }

  private pendingHeaderBlock(): Block {
    const parent = this.head.block;
    const common = this.nextBlockCommon();
    const postMerge = isPostMerge(common);
    return createBlock(
      {
        header: {
          parentHash: this.head.hash,
          number: parent.header.number + 1n,
          timestamp: this.clock.peekNext(parent.header.timestamp),
          gasLimit: this.blockGasLimit,
          coinbase: this.coinbase,
          difficulty: postMerge ? 0n : 1n,
          mixHash: postMerge ? (this.nextBlock.prevRandao ?? keccak_256(parent.header.mixHash)) : undefined,
          baseFeePerGas: this.nextBaseFee(),
          excessBlobGas: common.isActivatedEIP(4844) ? parent.header.calcNextExcessBlobGas(common) : undefined,
        },
      },
      { common, skipConsensusFormatValidation: true, params: PRELOADED_PARAMS },
    );
  }

  estimateGas(request: CallRequest, ref: BlockRef, overrides?: CallOverrides): Promise<bigint> {
    return this.queue.run(() => this.estimateUnqueued(request, ref, overrides));
  }

  private async estimateUnqueued(request: CallRequest, ref: BlockRef, overrides?: CallOverrides): Promise<bigint> {
    return this.inCallContext(ref, overrides, async (ctx) => {
      const balance = request.from ? ((await ctx.vm.stateManager.getAccount(request.from))?.balance ?? 0n) : 0n;
      // An estimate runs the call many times: its console.log lines would print once per run.
      return this.consoleLines.mutedDuring(() => estimateGas(ctx, request, this.gasCap(), balance));
    });
  }

  private gasCap(): bigint {
    return this.callGasCap ?? transactionGasCap(this.nextBlockCommon(), this.blockGasLimit);
  }

  // ---- transactions ----------------------------------------------------------------------

  /** Decode, validate and pool a signed transaction; under automine, mine it right after answering. */
  submitRawTransaction(raw: Uint8Array): Promise<string> {
    return this.queue.run(async () => {
      const tx = decodeRawTransaction(raw, this.nextBlockCommon());
      return this.admit(tx, senderOf(tx));
    });
  }

  /** Build, sign with an owned key (or send as an impersonated account), and submit (eth_sendTransaction). */
  sendTransaction(request: CallRequest): Promise<string> {
    return this.sendFrom(request, false);
  }

  /** Build and submit without a signature, whoever `from` is (Anvil's eth_sendUnsignedTransaction). */
  sendUnsignedTransaction(request: CallRequest): Promise<string> {
    return this.sendFrom(request, true);
  }

  /**
   * Complete and sign with an owned key, without sending (eth_signTransaction): the signed
   * transaction's bytes. The nonce counts the pool, as for a send.
   */
  signTransaction(request: CallRequest, passphrase?: string): Promise<Uint8Array> {
    return this.queue.run(async () => {
      const from = senderOfRequest(request, 'signTransaction');
      const key = this.accounts.signingKeyOf(from, passphrase);
      return (await this.fillTransaction(request, from)).sign(key).serialize();
    });
  }

  /** The transaction eth_sendTransaction would send, unsigned, with every default filled (eth_fillTransaction). */
  completeTransaction(request: CallRequest): Promise<TypedTransaction> {
    return this.queue.run(async () => this.fillTransaction(request, senderOfRequest(request, 'fillTransaction')));
  }

  /** personal_sendTransaction: as eth_sendTransaction, opening a locked account with its passphrase. */
  sendWithPassphrase(request: CallRequest, passphrase: string): Promise<string> {
    return this.sendFrom(request, false, passphrase);
  }

  private sendFrom(request: CallRequest, unsigned: boolean, passphrase?: string): Promise<string> {
    return this.queue.run(async () => {
      const from = senderOfRequest(request, 'sendTransaction');
      const sender = unsigned ? 'unsigned' : this.accounts.senderKeyOf(from, passphrase);
      const key = sender === 'unsigned' ? undefined : sender;
      const filled = await this.fillTransaction(request, from);
      const tx = key ? filled.sign(key) : impersonate(filled, from);
      return this.admit(tx, from);
    });
  }

  /** Complete a transaction request with go-ethereum's defaults (nonce, gas, fees, chain id). */
  private async fillTransaction(request: CallRequest, from: Address): Promise<TypedTransaction> {
    assertHonourable(request, 'eth_sendTransaction');
    const account = await this.vm.stateManager.getAccount(from);
    const nonce = request.nonce ?? this.pool.nextNonce(from, account?.nonce ?? 0n);
    const gasLimit = request.gas ?? (await this.estimateUnqueued({ ...request, from }, { tag: 'pending' }));
    const base = {
      nonce,
      gasLimit,
      to: request.to,
      value: request.value ?? 0n,
      data: request.data ?? new Uint8Array(),
      chainId: this.chainId,
    };
    const nextBaseFee = this.nextBaseFee();
    let data: TypedTxData;
    if (nextBaseFee !== undefined && request.gasPrice === undefined && request.type !== 0 && request.type !== 1) {
      const tip = request.maxPriorityFeePerGas ?? this.suggestedTip;
      // go-ethereum: twice the head's base fee plus the tip, which covers the next block's;
      // a base fee set for the next block may be higher than that, so it counts instead.
      const cap = request.maxFeePerGas ?? 2n * (this.nextBlock.baseFeePerGas ?? this.blocks.headBaseFee!) + tip;
      data = { ...base, type: 2, maxPriorityFeePerGas: tip, maxFeePerGas: cap, accessList: request.accessList as never };
      if (request.authorizationList) data = withAuthorizations(data, request.authorizationList, this.accounts, this.nextBlockCommon());
    } else if (request.authorizationList) {
      throw new EngineError(
        'invalidInput',
        'a transaction with an authorizationList (EIP-7702) is type 4: it needs EIP-1559 fees (the london hardfork or later), not type 0 or 1',
      );
    } else {
      const gasPrice = request.gasPrice ?? this.gasPrice ?? (nextBaseFee ?? 0n) + this.suggestedTip;
      data =
        request.accessList || request.type === 1 ? { ...base, type: 1, gasPrice, accessList: request.accessList as never } : { ...base, type: 0, gasPrice };
    }
    try {
      return createTx(data, { common: this.nextBlockCommon(), params: PRELOADED_PARAMS });
    } catch (error) {
      throw translateTxError(error);
    }
  }

  private async admit(tx: TypedTransaction, sender: Address): Promise<string> {
    const hashHex = hashHexOf(tx);
    // go-ethereum: 'already known' while it is pooled; once mined its nonce is used ('nonce too low').
    if (this.pool.get(hashHex)) throw rejected('already known');
    const mined = this.blocks.transaction(hashHex) !== undefined;
    const account = await this.vm.stateManager.getAccount(sender);
    const stateNonce = account?.nonce ?? 0n;
    if (mined && tx.nonce < stateNonce) throw rejected(`nonce too low: address ${sender.toString()}, tx: ${tx.nonce} state: ${stateNonce}`);
    // A nonce set back by a test control would let it run twice under one hash.
    if (mined) throw rejected('already known');
    validateAdmission(tx, sender, {
      stateNonce,
      poolNonce: this.pool.nextNonce(sender, stateNonce),
      balance: account?.balance ?? 0n,
      blockGasLimit: this.blockGasLimit,
      nextBaseFee: this.nextBaseFee(),
      nextBlobGasPrice: undefined,
    });
    if (this.automine) {
      // What mining could still refuse, refused now: the answer goes out before the block is built.
      assertMinable(this.clock.peekNext(this.head.block.header.timestamp));
    }
    this.pool.add(tx, sender, hashHex);
    this.emit('pendingTransaction', hashHex);
    if (this.automine && this.options.throwOnTransactionFailures) {
      const { dropped, failures } = await this.mineExecutable();
      this.reportRefused(dropped);
      const failure = failures.get(hashHex);
      if (failure) throw new TransactionFailedError(hashHex, failure.error, failure.returnValue);
    } else if (this.automine) {
      this.mineAfterAnswer();
    }
    return hashHex;
  }

  /**
   * Automine, as Anvil does it: the client reads the hash while the server builds the block.
   * Admission checked everything the block builder checks, so a transaction it still refuses
   * means a check is missing there: reported as an internal error, not left unsaid.
   */
  private mineAfterAnswer(): void {
    this.afterAnswer(async () => this.reportRefused((await this.mineExecutable()).dropped));
  }

  private reportRefused(dropped: MiningOutcome['dropped']): void {
    for (const { entry, reason } of dropped) {
      this.emit('error', new Error(`transaction ${entry.hashHex} was answered but refused by the block builder: ${reason}`));
    }
  }

  /**
   * From inside a queue task: run `task` right after it, while its answer goes out. Tasks already
   * waiting run after `task`, and reads that bypass the queue wait for `settling`, so nobody
   * sees the chain as it was before an answer. `task` starts at once: the answer is written at
   * its first awaits (over HTTP no later than if `task` waited a macrotask, measured; in process
   * 0.05 ms a snapshot cycle sooner).
   */
  private afterAnswer(task: () => Promise<void>): void {
    const done = this.queue.runNext(async () => {
      await task().catch((error: unknown) => this.emit('error', error));
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

  // ---- mining ---------------------------------------------------------------------------

  /** Automine: one block per executable transaction, until none is left. Returns what the blocks could not take (it left the pool). */
  private async mineExecutable(): Promise<Pick<MiningOutcome, 'dropped' | 'failures'>> {
    const dropped: Array<MiningOutcome['dropped'][number]> = [];
    const failures = new Map<string, ExecutionFailure>();
    for (;;) {
      const next = (await this.executable())[0];
      if (!next) return { dropped, failures };
      const outcome = await this.mineWith([next]);
      dropped.push(...outcome.dropped);
      for (const [hash, failure] of outcome.failures) failures.set(hash, failure);
    }
  }

  /** Executable pool content in block order, by the state nonces at the head (the pool itself has no state). Call inside the queue. */
  async executable(): Promise<PooledTransaction[]> {
    const nonces = new Map<string, bigint>();
    for (const sender of this.pool.senders()) {
      nonces.set(sender.toString(), (await this.vm.stateManager.getAccount(sender))?.nonce ?? 0n);
    }
    return this.pool.executable((sender) => nonces.get(sender.toString()) ?? 0n, this.nextBaseFee());
  }

  /** Mine one block from the given pool entries (or as many executable ones as fit, if omitted). */
  private async mineWith(entries: PooledTransaction[] | undefined, timestamp?: bigint) {
    const candidates = entries ?? (await this.executable());
    const parent = this.head;
    const blockTimestamp = timestamp ?? this.clock.takeNext(parent.block.header.timestamp);
    assertMinable(blockTimestamp);
    if (this.schedule) this.enterFork(parent.number + 1n, blockTimestamp);
    const outcome = await mineBlock(this.vm, parent, candidates, {
      timestamp: blockTimestamp,
      coinbase: this.coinbase,
      gasLimit: this.blockGasLimit,
      extraData: this.extraData,
      ...this.nextBlock,
    });
    this.appendMined(outcome);
    return outcome;
  }

  /** A new head: its transactions leave the pool, the next-block overrides are used up. */
  private appendMined(outcome: MiningOutcome): void {
    this.nextBlock = {};
    for (const entry of outcome.included) this.pool.remove(entry.hashHex);
    for (const { entry } of outcome.dropped) this.pool.remove(entry.hashHex);
    this.blocks.append(outcome.mined);
    this.emit('block', outcome.mined);
  }

  /**
   * Put the live VM on the fork of the block about to be mined. At the London block the gas
   * limit doubles, as go-ethereum's miner and header checks expect (the gas target stays).
   */
  private enterFork(number: bigint, timestamp: bigint): void {
    this.alignVm(this.vm, number, timestamp);
    if (number > 0n && number === forkBlock(this.schedule!, 'london')) this.blockGasLimit *= 2n;
  }

  /**
   * Append a block built and sealed elsewhere (proof-of-work mode: executed on a scratch VM,
   * sealed by chain_submitWork). Only if the head and the live state are still those it was
   * built on (`baseRoot`); false, and nothing changes, otherwise.
   */
  adoptBlock(outcome: MiningOutcome, baseRoot: Uint8Array): Promise<boolean> {
    return this.queue.run(async () => {
      const { header } = outcome.mined.block;
      const liveRoot = await this.vm.stateManager.getStateRoot();
      if (bytesToHex(header.parentHash) !== this.head.hashHex || bytesToHex(liveRoot) !== bytesToHex(baseRoot)) return false;
      await this.vm.stateManager.setStateRoot(header.stateRoot);
      // A timestamp set for the next block is used up once a block reaches it.
      const override = this.clock.save().nextOverride;
      if (override !== undefined && override <= header.timestamp) this.clock.takeNext(header.timestamp);
      this.appendMined(outcome);
      return true;
    });
  }

  /** Mine one block with whatever pending transactions fit. */
  mine(count = 1n): Promise<void> {
    return this.mineMany(count);
  }

  /**
   * Mine `count` blocks (chain_mine / evm_mine / hardhat_mine): the first takes pending
   * transactions and `timestamp` if given; later ones are `interval` seconds apart (if none,
   * the block timestamp interval if one is set, else 1). Once nothing would change state
   * the rest are reserved in O(1) (emptyRanges.ts).
   */
  mineMany(count: bigint, interval?: bigint, timestamp?: bigint): Promise<void> {
    if (count > MAX_BLOCKS_PER_MINE) {
      throw new EngineError('invalidInput', `cannot mine ${count} blocks in one call: at most ${MAX_BLOCKS_PER_MINE}`);
    }
    return this.queue.run(async () => {
      const head = this.blocks.headTimestamp;
      if (timestamp !== undefined && timestamp <= head) {
        throw new EngineError('invalidInput', `timestamp ${timestamp} is not after the latest block's timestamp ${head}`);
      }
      // An interval of 0 means none given (viem sends 0x0 when its caller gave none).
      const step = interval || this.clock.blockInterval || 1n;
      // Refuse a run whose last block would overflow before mining its first (a failed call changes nothing).
      if (count > 0n) assertTimestamp((timestamp ?? this.clock.peekNext(head)) + (count - 1n) * step);
      for (let i = 0n; i < count; i++) {
        // Let timers, sockets and other requests in between blocks of a long run.
        if (i > 0n) await new Promise((resolve) => setImmediate(resolve));
        const parentTime = this.blocks.headTimestamp;
        const at = i > 0n ? parentTime + step : timestamp;
        const template = await this.emptyRunTemplate(count - i, at ?? this.clock.peekNext(parentTime), step);
        if (template) {
          this.reserveEmpty(template, count - i, at ?? this.clock.takeNext(parentTime), step);
          break;
        }
        await this.mineWith(undefined, at);
      }
      // Time set by mining (evm_mine(timestamp), intervals) carries on for later blocks.
      const last = this.blocks.headTimestamp;
      if (last > this.clock.nowSeconds()) this.clock.setTime(last);
    });
  }

  /**
   * The template of a run of `count` empty blocks after the head, the first at `first`, or
   * undefined when they must go through the VM: something is pending, a block reward
   * (pre-merge), a next-block override (base fee, prevRandao), a system contract that would
   * write state at the start of a block, blob gas still to drain, or a fork boundary ahead.
   * The template is the head run's own while nothing that enters a header changed since
   * (state, coinbase, gas limit); otherwise the empty block the VM would build now
   * (emptySuccessor).
   */
  private async emptyRunTemplate(count: bigint, first: bigint, step: bigint): Promise<Block | undefined> {
    if (this.emptyBlocks !== 'reserve') return undefined;
    const head = this.head;
    if (this.schedule) {
      // The reservation copies the head's header layout: only while no fork boundary lies ahead.
      const headTime = this.blocks.headTimestamp;
      const headFork = forkAt(this.schedule, head.number, headTime);
      if (forkAt(this.schedule, head.number + count, first + (count - 1n) * step) !== headFork) return undefined;
      this.alignVm(this.vm, head.number, headTime);
    }
    const { baseFeePerGas, prevRandao } = this.nextBlock;
    if (!isPostMerge(this.common) || baseFeePerGas !== undefined || prevRandao !== undefined || this.extraData) return undefined;
    if ((await this.executable()).length > 0) return undefined;
    for (const [eip, address] of SYSTEM_CONTRACTS) {
      if (this.common.isActivatedEIP(eip) && (await this.vm.stateManager.getAccount(address))) return undefined;
    }
    const stateRoot = await this.vm.stateManager.getStateRoot();
    if (head instanceof RangeBlock) {
      const template = head.run.spec.template;
      const { coinbase, gasLimit } = template.header;
      if (coinbase.equals(this.coinbase) && gasLimit === this.blockGasLimit && equalsBytes(stateRoot, template.header.stateRoot)) return template;
    } else if (this.common.isActivatedEIP(4844) && head.block.header.calcNextExcessBlobGas(this.common) > 0n) {
      return undefined;
    }
    // A run only takes a template's constant fields, so the last one serves while they are
    // the same (a test that mines, reverts and mines again): building a header costs more
    // than the reservation itself.
    const key = `${bytesToHex(stateRoot)}:${this.coinbase.toString()}:${this.blockGasLimit}:${this.common.hardfork()}`;
    if (this.lastTemplate?.key !== key) {
      const block = emptySuccessor(head, {
        stateRoot,
        coinbase: this.coinbase,
        gasLimit: this.blockGasLimit,
        timestamp: first,
        baseFee: this.nextBaseFee(),
        common: this.common,
      });
      this.lastTemplate = { key, block };
    }
    return this.lastTemplate.block;
  }

  /** Reserve `count` empty blocks after the head, the first at `first`, then `step` seconds apart: O(1). */
  private reserveEmpty(template: Block, count: bigint, first: bigint, step: bigint): void {
    const range = reserveEmptyBlocks({
      parent: this.head,
      template,
      count: Number(count),
      firstTimestamp: first,
      step,
      firstBaseFee: this.nextBaseFee(),
    });
    this.blocks.reserve(range);
    this.emit('reserved', range);
  }

  /**
   * Anvil's anvil_mine with an interval: the clock jumps `interval` seconds before each of the
   * `count` blocks and stays that far ahead afterwards (mineMany's spacing, shifted by one step).
   */
  async mineManyAhead(count: bigint, interval: bigint): Promise<void> {
    assertTimestamp(this.clock.nowSeconds() + count * interval);
    this.clock.increase(interval);
    try {
      await this.mineMany(count, interval);
    } catch (error) {
      this.clock.increase(-interval);
      throw error;
    }
    // mineMany leaves the clock at the last block's time, which is where Anvil's stands too.
  }

  increaseTime(seconds: bigint): bigint {
    assertTimestamp(this.clock.nowSeconds() + seconds);
    return this.clock.increase(seconds);
  }

  setTime(timestamp: bigint): void {
    assertTimestamp(timestamp);
    this.clock.setTime(timestamp);
  }

  /** The next block's timestamp; it must be later than the head's (blocks' timestamps strictly increase). */
  setNextBlockTimestamp(timestamp: bigint): void {
    const head = this.blocks.headTimestamp;
    if (timestamp <= head) {
      throw new EngineError('invalidInput', `timestamp ${timestamp} is not after the latest block's timestamp ${head}`);
    }
    assertTimestamp(timestamp);
    this.clock.setNext(timestamp);
  }

  // ---- test controls ---------------------------------------------------------------------

  /** Everything a revert needs, taken now (call inside the queue). */
  private async capture(): Promise<ChainSnapshot> {
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
  private async restore(snapshot: ChainSnapshot, keep = true, rewindClock = false): Promise<void> {
    this.pending = undefined;
    this.historical = undefined;
    if (snapshot.caches) await this.state.revertTo(snapshot.stateRoot, snapshot.caches, keep);
    else await this.vm.stateManager.setStateRoot(snapshot.stateRoot);
    this.pool.replaceAll(snapshot.pool);
    this.clock.restore(snapshot.clock, rewindClock);
    this.nextBlock = snapshot.nextBlock;
    this.blockGasLimit = snapshot.blockGasLimit;
    this.coinbase = snapshot.coinbase;
  }

  snapshot(): Promise<number> {
    return this.queue.run(async () => this.snapshots.add({ ...(await this.capture()), caches: this.state.openJournal(), trieMark: this.trieNodes.mark() }));
  }

  /** Go back to a snapshot; false when the id is unknown. `consume` gives evm_revert's one-shot semantics. */
  revert(id: number, consume: boolean): Promise<boolean> {
    return this.queue.run(async () => {
      const snapshot = this.snapshots.take(id, consume);
      if (!snapshot) return false;
      this.afterAnswer(async () => {
        const dropped = this.blocks.truncateAbove(snapshot.headNumber);
        await this.restore(snapshot, !consume, true);
        // After restore, whose flush writes anything still cached: the rewind frees that too.
        this.trieNodes.rewind(snapshot.trieMark!);
        if (this.snapshots.size === 0) this.trieNodes.closeLog();
        this.emit('rewound');
        if (dropped.length > 0) this.emit('reorg', dropped);
      });
      return true;
    });
  }

  /** A state point outside the snapshot registry (loadFixture keeps these across reverts). */
  statePoint(): Promise<ChainSnapshot> {
    return this.queue.run(() => this.pinnedPoint());
  }

  /** A state point whose state no revert frees. */
  private async pinnedPoint(): Promise<ChainSnapshot> {
    const point = await this.capture();
    this.trieNodes.pin();
    return point;
  }

  /** The blocks mined since a state point (oldest first), or undefined if the chain left it. */
  blocksSince(point: ChainSnapshot): MinedBlock[] | undefined {
    if (this.blocks.byNumber(point.headNumber)?.hashHex !== point.head.hashHex) return undefined;
    const blocks: MinedBlock[] = [];
    for (let n = point.headNumber + 1n; n <= this.head.number; n++) blocks.push(this.blocks.byNumber(n)!);
    return blocks;
  }

  /**
   * Replay a recorded segment: when the chain is exactly at `from` (same head, same state),
   * re-attach `blocks` and move to `to` without re-executing anything. False otherwise.
   */
  replay(from: ChainSnapshot, to: ChainSnapshot, blocks: readonly MinedBlock[]): Promise<boolean> {
    return this.queue.run(async () => {
      const here = await this.capture();
      if (here.head.hashHex !== from.head.hashHex || bytesToHex(here.stateRoot) !== bytesToHex(from.stateRoot)) return false;
      for (const mined of blocks) {
        this.blocks.append(mined);
        this.emit('block', mined);
      }
      await this.restore(to);
      return true;
    });
  }

  private get state(): TrackingStateManager {
    return this.vm.stateManager as TrackingStateManager;
  }

  /** What an export of blocks first..last cannot carry (exportCheck.ts). */
  unexplainedState(first: bigint, last: bigint): Promise<UnexplainedState> {
    return this.queue.run(async () => findUnexplainedState(this.blocks, first, last, await this.vm.stateManager.getStateRoot()));
  }

  /** Every account of the current state (chain_dumpState). */
  dumpState(): Promise<Map<string, AccountState>> {
    return this.queue.run(() => this.state.dump());
  }

  /** Every account of block 0's state (setters since may have changed the live state without a block). */
  genesisState(): Promise<Map<string, AccountState>> {
    return this.queue.run(async () => {
      const root = this.blocks.byNumber(this.blocks.firstNumber)!.block.header.stateRoot;
      if (!(await this.state.hasStateRoot(root))) throw rejected('state of block 0 is not available (not kept across a restart)');
      const copy = this.state.shallowCopy(false);
      await copy.setStateRoot(root);
      return this.state.dump(copy);
    });
  }

  /**
   * Replace the whole chain with blocks saved by an earlier run (--state); the caller loads
   * the matching state. Nothing is re-executed and no events fire: this is the start of a run.
   */
  adoptSavedBlocks(saved: readonly (MinedBlock | ReservedBlocks)[]): Promise<void> {
    return this.queue.run(async () => {
      if (saved.length === 0) return;
      this.blocks.truncateAbove(-1n);
      // Saved runs of empty blocks come back as reservations: nothing is hashed until read.
      for (const entry of saved) entry instanceof ReservedBlocks ? this.blocks.reserve(entry) : this.blocks.append(entry);
      this.pending = undefined;
    });
  }

  /** The chain as a save writes it (blocks, and runs of empty blocks uncomputed); call inside a queue task. */
  segments(): ChainSegment[] {
    return this.blocks.segments();
  }

  /**
   * Execute and append blocks from a chain file (--import; see importer.ts). The clock, the
   * block gas limit and chain_reset's starting point then follow the imported head.
   */
  importBlocks(source: AsyncIterable<EncodedBlock>): Promise<ImportSummary> {
    return this.queue.run(async () => {
      this.pending = undefined;
      const summary = await importBlocks(
        {
          vm: this.vm,
          store: this.blocks,
          appended: (mined) => this.emit('block', mined),
          alignFork: (number, timestamp) => this.alignVm(this.vm, number, timestamp),
        },
        source,
      );
      const head = this.head.block.header;
      if (head.timestamp > this.clock.nowSeconds()) this.clock.setTime(head.timestamp);
      this.blockGasLimit = head.gasLimit;
      this.genesisPoint = await this.pinnedPoint();
      return summary;
    });
  }

  /** Every block from genesis to the head. */
  allBlocks(): MinedBlock[] {
    const all: MinedBlock[] = [];
    for (let n = this.blocks.firstNumber; n <= this.head.number; n++) all.push(this.blocks.byNumber(n)!);
    return all;
  }

  /** Write accounts over the current state without mining (chain_loadState, fixtures). */
  loadState(alloc: Alloc): Promise<void> {
    return this.queue.run(() => {
      this.pending = undefined;
      return this.state.load(alloc);
    });
  }

  /**
   * Back to the genesis state, or an imported chain's head (hardhat_reset / anvil_reset): blocks, state, pool, clock, snapshots, mining mode.
   * With `base`: start again from another fork point, or (fork undefined) from a new local genesis block.
   */
  reset(base?: { readonly fork: ForkPoint | undefined }): Promise<void> {
    return this.queue.run(async () => {
      const dropped = this.blocks.truncateAbove(base ? -1n : this.genesisPoint!.headNumber);
      if (!base) await this.restore(this.genesisPoint!);
      this.snapshots.clear();
      this.state.closeJournals();
      this.trieNodes.rewind(0);
      this.trieNodes.closeLog();
      if (base) {
        this.pending = undefined;
        this.historical = undefined;
        await this.startBase(base.fork);
        this.blockGasLimit = base.fork ? this.head.block.header.gasLimit : this.options.gasLimit;
        this.genesisPoint = await this.capture();
        await this.restore(this.genesisPoint);
      }
      this.emit('rewound');
      this.startConfiguredMining();
      if (this.chainId !== this.options.chainId) {
        setChainIdOf([this.common, this.vm.common, this.nextCommon], this.options.chainId);
        this.emit('chainChanged', this.options.chainId);
      }
      this.coinbase = this.options.coinbase;
      this.accounts.stopAllImpersonation();
      this.instanceId = randomBytes(32);
      if (dropped.length > 0) this.emit('reorg', dropped);
    });
  }

  /** anvil_impersonateSignature: ECRECOVER answers `address` for `signature` from now on (signatureOverrides.ts). */
  impersonateSignature(signature: Uint8Array, address: Address): Promise<void> {
    return this.queue.run(async () => {
      this.pending = undefined; // the pending block may have run a check the override changes
      this.signatures.add(signature, address);
    });
  }

  /** anvil_setChainId (chainId.ts); a reset goes back to the configured id. */
  setChainId(chainId: bigint): Promise<void> {
    return this.queue.run(async () => {
      this.pending = undefined;
      this.historical = undefined;
      const before = this.chainId;
      setChainIdOf([this.common, this.vm.common, this.nextCommon], chainId);
      if (chainId !== before) this.emit('chainChanged', chainId);
    });
  }

  /** tenderly_setBalance / tenderly_addBalance: each balance set to, or raised by, `amount`, all or none; answers the new state root. */
  changeBalances(addresses: readonly Address[], amount: bigint, add: boolean): Promise<Uint8Array> {
    return this.queue.run(async () => {
      const balances: bigint[] = [];
      for (const address of addresses) {
        const balance = add ? ((await this.vm.stateManager.getAccount(address))?.balance ?? 0n) + amount : amount;
        if (balance >= 2n ** 256n) throw new EngineError('invalidInput', `the balance of ${address} would exceed 2^256-1`);
        balances.push(balance);
      }
      for (const [i, address] of addresses.entries()) await this.applyAccountChange(address, { balance: balances[i] });
      return this.vm.stateManager.getStateRoot();
    });
  }

  /** anvil_rollback: drop the `depth` newest blocks (reorg.ts). */
  rollback(depth: bigint): Promise<void> {
    return this.queue.run(() => this.rollBackTo(commonBlock(this.blocks, depth, 'Rollback')));
  }

  /** anvil_reorg: replace the `depth` newest blocks with as many new ones holding `items` (reorg.ts). Built before anything changes. */
  reorg(depth: bigint, items: readonly ReorgItem[]): Promise<void> {
    return this.queue.run(async () => {
      const common = commonBlock(this.blocks, depth, 'Reorg');
      const nonces = new ReorgNonces(async (sender) => (await (await this.vmAt(common)).stateManager.getAccount(sender))?.nonce ?? 0n);
      const blocks: PooledTransaction[][] = [];
      for (const group of groupByBlock(depth, items)) {
        const entries: PooledTransaction[] = [];
        for (const item of group) {
          const tx = 'raw' in item ? decodeRawTransaction(item.raw, this.nextBlockCommon()) : await this.reorgRequest(item.request, nonces, common);
          entries.push({ tx, sender: senderOf(tx), hashHex: hashHexOf(tx), arrival: 0 });
        }
        blocks.push(entries);
      }
      await this.rollBackTo(common);
      for (const entries of blocks) await this.mineWith(entries);
    });
  }

  /**
   * A reorg's request, as Anvil builds it: from (default the first account), the nonce given or
   * Anvil's count, signed or impersonated. Gas is estimated on the common block's state (the new
   * chain's), and as Anvil a request whose estimate fails gets the block gas limit (its receipt tells).
   */
  private async reorgRequest(request: CallRequest, nonces: ReorgNonces, common: MinedBlock): Promise<TypedTransaction> {
    const from = request.from ?? this.accounts.list()[0];
    if (!from) throw rejected('no signer available');
    const sender = this.accounts.senderKeyOf(from);
    const nonce = await nonces.take(from);
    const gas = request.gas ?? (await this.estimateUnqueued({ ...request, from }, { hash: common.hashHex }).catch(() => this.blockGasLimit));
    const filled = await this.fillTransaction({ ...request, from, gas, nonce: request.nonce ?? nonce }, from);
    return sender === 'unsigned' ? impersonate(filled, from) : filled.sign(sender);
  }

  /** Back to `common`'s state and time, the blocks above it dropped; snapshots taken on them are discarded. Inside the queue. */
  private async rollBackTo(common: MinedBlock): Promise<void> {
    const stateRoot = stateRootOf(common);
    if (!(await this.state.hasStateRoot(stateRoot))) throw rejected(`state of block ${common.number} is not available (not kept across a restart)`);
    const dropped = this.blocks.truncateAbove(common.number);
    this.pending = undefined;
    this.historical = undefined;
    await this.vm.stateManager.setStateRoot(stateRoot);
    this.snapshots.dropWhere((snapshot) => this.blocks.byNumber(snapshot.headNumber)?.hashHex !== snapshot.head.hashHex);
    // As Anvil: the clock and the block gas limit are the common block's again.
    this.clock.setTime(common.block.header.timestamp);
    this.blockGasLimit = common.block.header.gasLimit;
    this.emit('rewound');
    if (dropped.length > 0) this.emit('reorg', dropped);
  }

  private configuredAutomine(): boolean {
    return this.options.miningMode?.automine ?? this.options.mining !== 'pow';
  }

  /** The mining mode the node was started with: at start-up (once the chain is loaded) and after a reset. */
  startConfiguredMining(): void {
    this.automine = this.configuredAutomine();
    const [min, max] = this.options.miningMode?.interval ?? [0, 0];
    this.setIntervalMining(min, max);
  }

  setAutomine(enabled: boolean): Promise<void> {
    return this.queue.run(async () => {
      this.automine = enabled;
      if (enabled) await this.mineExecutable();
    });
  }

  /** A block every `ms`, or every random whole number of ms in [ms, maxMs] (Hardhat's mining.interval range). */
  setIntervalMining(ms: number, maxMs = ms): void {
    if (this.intervalTimer) clearTimeout(this.intervalTimer);
    this.intervalTimer = undefined;
    this.intervalMs = ms > 0 ? ms : undefined;
    if (ms <= 0) return;
    const arm = () => {
      const wait = maxMs > ms ? ms + Math.floor(Math.random() * (maxMs - ms + 1)) : ms;
      this.intervalTimer = setTimeout(() => {
        arm();
        this.mine(1n).catch((error: unknown) => this.emit('error', error));
      }, wait);
      this.intervalTimer.unref();
    };
    arm();
  }

  /** Stop background work (interval mining) so the process can exit. */
  close(): void {
    this.setIntervalMining(0);
  }

  /** Change an account outside any transaction; no block is mined (as Hardhat and Anvil). */
  modifyAccount(address: Address, change: AccountChange): Promise<void> {
    return this.queue.run(() => this.applyAccountChange(address, change));
  }

  /**
   * A nonce set as Hardhat's hardhat_setNonce sets it: never lower than the account's, and
   * not while transactions wait in the pool (their nonces were checked against the old one).
   */
  raiseNonce(address: Address, nonce: bigint): Promise<void> {
    return this.queue.run(async () => {
      if (this.pool.size > 0) throw rejected('Cannot set account nonce when the transaction pool is not empty');
      const current = (await this.vm.stateManager.getAccount(address))?.nonce ?? 0n;
      if (nonce < current) throw new EngineError('invalidInput', `New nonce (${nonce}) must not be smaller than the existing nonce (${current})`);
      await this.applyAccountChange(address, { nonce });
    });
  }

  private async applyAccountChange(address: Address, change: AccountChange): Promise<void> {
    this.pending = undefined;
    const sm = this.vm.stateManager;
    const account = (await sm.getAccount(address)) ?? new Account();
    if (change.balance !== undefined) account.balance = change.balance;
    if (change.nonce !== undefined) account.nonce = change.nonce;
    await sm.putAccount(address, account);
    if (change.code !== undefined) await sm.putCode(address, change.code);
    // Flush the caches into the trie: otherwise the next block's header keeps the old state root.
    await sm.getStateRoot();
  }

  setStorageAt(address: Address, slot: Uint8Array, value: Uint8Array): Promise<void> {
    return this.queue.run(async () => {
      this.pending = undefined;
      const sm = this.vm.stateManager;
      if (!(await sm.getAccount(address))) await sm.putAccount(address, new Account());
      await sm.putStorage(address, setLengthLeft(slot, 32), value.every((b) => b === 0) ? new Uint8Array() : value);
      await sm.getStateRoot(); // as in modifyAccount: the next block's header must include the change
    });
  }

  /** Remove a pending transaction; false if it is not in the pool. */
  dropTransaction(hashHex: string): boolean {
    return this.pool.remove(hashHex) !== undefined;
  }

  /** Remove every pool transaction, or every one `sender` sent; how many left. */
  dropTransactions(sender?: Address): number {
    const leaving = this.pool.all().filter((entry) => sender === undefined || entry.sender.equals(sender));
    for (const entry of leaving) this.pool.remove(entry.hashHex);
    return leaving.length;
  }

  /**
   * The pool as go-ethereum's txpool_* methods split it: `pending` can run now (in block
   * order), `queued` waits behind a nonce gap.
   */
  poolContent(): Promise<{ pending: PooledTransaction[]; queued: PooledTransaction[] }> {
    return this.queue.run(async () => {
      const pending = await this.executable();
      const runnable = new Set(pending);
      return { pending, queued: this.pool.all().filter((entry) => !runnable.has(entry)) };
    });
  }
}
