import { checkpointDepth, unwindTo } from '../state/unwind.js';
import { RemoteReadPending } from '../state/remoteMiss.js';
import { pace } from '../util/pace.js';
import { Block, type HeaderData, createBlock, genRequestsRoot } from '@ethereumjs/block';
import { type Common, ConsensusType, Mainnet } from '@ethereumjs/common';
import { Capability, type TypedTransaction } from '@ethereumjs/tx';
import { Address, CLRequest, CLRequestType, bytesToHex } from '@ethereumjs/util';
import { sha256 } from '@noble/hashes/sha2.js';
import { BlockBuilder, type BuildBlockOpts, type RunTxResult, type VM, encodeReceipt } from '@ethereumjs/vm';
import { keccak256 } from '../util/keccak256.js';
import { type LogRecord, type MinedBlock, type ReceiptRecord, minedBlock } from '../blocks/blocks.js';
import { PRELOADED_PARAMS, isPostMerge } from '../rules/hardforks.js';
import { letContractSend } from '../transactions/contractSenders.js';
import { asSentBy } from '../transactions/impersonation.js';
import type { ExecutionTracer } from '../tracers/tracing.js';
import { orderedTrieRoot } from '../state/trieRoot.js';
import type { PooledTransaction } from '../transactions/txpool.js';
import { applyPlainTransfer, plainTransfersApply } from './plainTransfer.js';
import { DeploymentRecorder } from './deployments.js';
import { systemContractsAbsent } from '../rules/systemContracts.js';

/** Header fields set for the next block only; it uses them up. */
export interface NextBlockOverrides {
  /** Overrides the EIP-1559 formula (chain_setNextBlockBaseFeePerGas). */
  readonly baseFeePerGas?: bigint;
  /** The post-merge PREVRANDAO, the header's mixHash (chain_setPrevRandao); later blocks hash on from it. */
  readonly prevRandao?: Uint8Array;
}

export interface BlockTemplate extends NextBlockOverrides {
  readonly timestamp: bigint;
  readonly coinbase: Address;
  readonly gasLimit: bigint;
  readonly extraData?: Uint8Array;
  /** Pre-merge difficulty; post-merge blocks always have 0. */
  readonly difficulty?: bigint;
}

export interface MiningOutcome {
  readonly mined: MinedBlock;
  readonly included: readonly PooledTransaction[];
  /** Transactions that could not be included, with the reason (they leave the pool). */
  readonly dropped: ReadonlyArray<{ readonly entry: PooledTransaction; readonly reason: string }>;
  /** Included transactions whose execution failed (status 0), by hash: what a send may report (chain/sending.ts). */
  readonly failures: ReadonlyMap<string, ExecutionFailure>;
}

/** Why an included transaction failed: the EVM's error ('revert', 'out of gas', ...) and its return data. */
export interface ExecutionFailure {
  readonly error: string;
  readonly returnValue: Uint8Array;
}

/**
 * Executes pool transactions on top of `parent` with the VM's block builder and
 * returns the sealed block with its receipts. The VM's state advances to the new block.
 */
export async function mineBlock(vm: VM, parent: MinedBlock, candidates: readonly PooledTransaction[], template: BlockTemplate): Promise<MiningOutcome> {
  const common = vm.common;
  const postMerge = isPostMerge(common);
  const headerData: HeaderData = {
    coinbase: template.coinbase,
    timestamp: template.timestamp,
    gasLimit: template.gasLimit,
    extraData: template.extraData,
    difficulty: postMerge ? 0n : (template.difficulty ?? 1n),
    // prevRandao for post-merge blocks: a deterministic chain of hashes, so runs are reproducible.
    mixHash: postMerge ? (template.prevRandao ?? keccak256(parent.block.header.mixHash)) : undefined,
    baseFeePerGas: template.baseFeePerGas,
    parentBeaconBlockRoot: common.isActivatedEIP(4788) ? new Uint8Array(32) : undefined,
  };
  const preStateRoot = await vm.stateManager.getStateRoot();
  const outerDepth = checkpointDepth(vm);
  // No withdrawals list, not an empty one: the block and its header default to an empty list and
  // the empty trie's root, which the library would otherwise compute by building a trie.
  let built: Awaited<ReturnType<BlockBuilder['build']>>;
  const included: PooledTransaction[] = [];
  const results: RunTxResult[] = [];
  const dropped: Array<{ entry: PooledTransaction; reason: string }> = [];
  const failures = new Map<string, ExecutionFailure>();
  const deployments = new DeploymentRecorder();
  try {
    const builder = await startBlock(vm, { parentBlock: parent.block, headerData });
    const depth = checkpointDepth(vm);
    for (const entry of candidates) {
      if (entry.tx.gasLimit > template.gasLimit - builder.gasUsed) continue; // waits for the next block
      // A block of thousands of transactions lets the event loop turn between them (pace.ts).
      await pace();
      try {
        const result = await addTransaction(vm, builder, entry.tx, entry.sender, { recorder: deployments, index: included.length });
        results.push(result);
        included.push(entry);
        const failure = result.execResult.exceptionError;
        if (failure) failures.set(entry.hashHex, { error: failure.error, returnValue: result.execResult.returnValue });
      } catch (error) {
        await unwindTo(vm, depth); // an exception out of the state (unwind.ts): nothing of the transaction stays
        if (error instanceof RemoteReadPending) throw error;
        dropped.push({ entry, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    // Sealing runs system calls too (EIP-7002, EIP-7251 requests), which read accounts.
    built = await builder.build();
  } catch (error) {
    // A value the upstream has not sent yet (remoteMiss.ts): no block, the state as it was; the caller mines again once it came.
    if (!(error instanceof RemoteReadPending)) throw error;
    // The builder's checkpoint (opened by startBlock or the first transaction) is reverted with the rest.
    await unwindTo(vm, outerDepth);
    throw error;
  }
  const { block } = built;
  // Where the block holds copies of the transactions (the library's own build, see below):
  // give them the hashes the pool already computed instead of serialising them again.
  block.transactions.forEach((tx, i) => {
    tx.cache.hash ??= included[i]!.tx.cache.hash;
  });
  const senders = included.map((entry) => entry.sender);
  const receipts = buildReceipts(block, senders, results, common);
  const mined = minedBlock(block, senders, receipts, parent.totalDifficulty + block.header.difficulty, preStateRoot, deployments.found);
  return { mined, included, dropped, failures };
}

/**
 * The VM's block builder, with less work per transaction:
 * - @ethereumjs/vm makes a Block of all the transactions added so far to run each new one
 *   in (re-creating and validating every one of them), though running a transaction needs
 *   only the header: mining n transactions cost O(n²), 5 s for 1,000. Its list is set
 *   aside while it does that, and while it seals the block, which would re-create them all
 *   once more (neither under EIP-7928, which numbers transactions by that list);
 * - the transaction and receipt roots are computed in one pass (trieRoot.ts), not through
 *   a trie database.
 * All of these reach the builder's private list of transactions; if that is ever renamed,
 * the library's own ways are used.
 */
/** Tests turn the plain-transfer path off to compare it with the VM's (test/engine/plainTransfer.test.ts). */
export const PLAIN_TRANSFERS = { enabled: true, applied: 0 };

/**
 * Tests turn off the blocks made without the system contracts' calls (startBlock's and
 * sealing's, when none of those contracts exists) to compare them with the library's
 * (test/engine/systemCallsSkipped.test.ts).
 */
export const ABSENT_SYSTEM_CONTRACTS = { enabled: true, starts: 0, seals: 0 };

/** The library builder's fields addPlainTransfer keeps as its addTransaction does. */
interface BuilderInternals {
  checkpointed: boolean;
  _minerValue: bigint;
  blockStatus: { status: string; block?: Block };
  readonly transactionResults: RunTxResult[];
  readonly headerData: HeaderData & { readonly baseFeePerGas?: unknown; readonly coinbase?: unknown; readonly gasLimit?: unknown };
  readonly blockOpts: Parameters<typeof createBlock>[1] & { readonly cliqueSigner?: unknown };
  readonly withdrawals?: unknown[];
  readonly blobGasUsed: bigint;
  checkStatus(): void;
  rewardMiner(): Promise<void>;
}

export class LeanBlockBuilder extends BlockBuilder {
  private readonly setsListAside: boolean;
  /** While build() runs the library's on an empty list: the roots of the real one. */
  private roots: { readonly transactions: Uint8Array; readonly receipts: Uint8Array } | undefined;

  /** The library's `vm`, which it keeps private. */
  private readonly machine: VM;

  constructor(vm: VM, opts: BuildBlockOpts) {
    super(vm, opts);
    this.machine = vm;
    this.setsListAside = !vm.common.isActivatedEIP(7928);
  }

  /** The library's list of the block's transactions, as it appends them (blob transactions without blobs). */
  private get included(): TypedTransaction[] | undefined {
    const list = (this as unknown as { transactions?: unknown }).transactions;
    return Array.isArray(list) ? (list as TypedTransaction[]) : undefined;
  }

  private set included(list: TypedTransaction[]) {
    (this as unknown as { transactions: TypedTransaction[] }).transactions = list;
  }

  /**
   * A plain value transfer from `sender` applied without the EVM (plainTransfer.ts), with the
   * bookkeeping the library's addTransaction does for it; undefined when it must run in the VM.
   */
  async addPlainTransfer(vm: VM, tx: TypedTransaction, sender: Address): Promise<RunTxResult | undefined> {
    const self = this as unknown as BuilderInternals;
    const list = this.included;
    if (
      !PLAIN_TRANSFERS.enabled ||
      !list ||
      !Array.isArray(self.transactionResults) ||
      typeof self.checkpointed !== 'boolean' ||
      typeof self._minerValue !== 'bigint'
    )
      return undefined;
    const { baseFeePerGas, coinbase: given, gasLimit } = self.headerData;
    // By its bytes: an Address of another copy of @ethereumjs/util is an Address too.
    const bytes = (given as { bytes?: unknown } | undefined)?.bytes;
    if (typeof baseFeePerGas !== 'bigint' || !(bytes instanceof Uint8Array) || bytes.length !== 20 || typeof gasLimit !== 'bigint') return undefined;
    const coinbase = new Address(bytes);
    if (tx.gasLimit > gasLimit - this.gasUsed) return undefined; // the library's error
    if (!plainTransfersApply(vm)) return undefined;
    if (!self.checkpointed) {
      await vm.evm.journal.checkpoint();
      self.checkpointed = true;
    }
    const result = await applyPlainTransfer(vm, tx, sender, { baseFee: baseFeePerGas, coinbase, gasUsedBefore: this.gasUsed });
    if (!result) return undefined;
    PLAIN_TRANSFERS.applied++;
    list.push(tx);
    self.transactionResults.push(result);
    this.gasUsed += result.blockGasSpent;
    self._minerValue += result.minerValue;
    return result;
  }

  /**
   * The library's start of a block writes the parent's beacon root (EIP-4788) and hash
   * (EIP-2935) into their system contracts, each found to have no code when it does not
   * exist (chain-sim's chains start without them): with neither there, only its checkpoint.
   */
  override async initState(): Promise<void> {
    const common = this.machine.common;
    const writes = common.isActivatedEIP(4788) || common.isActivatedEIP(2935);
    if (!writes || !ABSENT_SYSTEM_CONTRACTS.enabled || common.isActivatedEIP(7928) || !(await systemContractsAbsent(this.machine, [4788, 2935]))) {
      return super.initState();
    }
    ABSENT_SYSTEM_CONTRACTS.starts++;
    const self = this as unknown as BuilderInternals;
    if (!self.checkpointed) {
      await this.machine.evm.journal.checkpoint();
      self.checkpointed = true;
    }
  }

  override async addTransaction(tx: TypedTransaction, opts?: Parameters<BlockBuilder['addTransaction']>[1]): Promise<RunTxResult> {
    const kept = this.included;
    if (!this.setsListAside || !kept?.length) return super.addTransaction(tx, opts);
    this.included = [];
    try {
      return await super.addTransaction(tx, opts);
    } finally {
      kept.push(...this.included!);
      this.included = kept;
    }
  }

  /**
   * The library's build makes the block with createBlock, which re-creates every transaction
   * from its fields: here it builds on an empty list, with the roots of the real one, and the
   * block gets the transactions that ran.
   */
  override async build(sealOpts?: Parameters<BlockBuilder['build']>[0]): ReturnType<BlockBuilder['build']> {
    const list = this.included;
    if (list && this.setsListAside && (await this.requestsAreEmpty())) return this.sealWithoutSystemCalls(list, sealOpts);
    if (!this.setsListAside || !list?.length) return super.build(sealOpts);
    this.roots = { transactions: await this.transactionsTrie(), receipts: await this.receiptTrie() };
    this.included = [];
    let built: Awaited<ReturnType<BlockBuilder['build']>>;
    try {
      built = await super.build(sealOpts);
    } finally {
      this.included = list;
      this.roots = undefined;
    }
    const { header, withdrawals } = built.block;
    return { ...built, block: new Block(header, list, [], withdrawals) };
  }

  /**
   * Whether the block's execution-layer requests (EIP-7685) are known empty without the
   * library's two EVM system calls: the withdrawal and consolidation request contracts
   * (EIP-7002, EIP-7251) do not exist, and no transaction logged from the deposit contract
   * (EIP-6110). Blocks before Prague have none to make.
   */
  private async requestsAreEmpty(): Promise<boolean> {
    const common = this.machine.common;
    const self = this as unknown as BuilderInternals;
    if (!ABSENT_SYSTEM_CONTRACTS.enabled || self.blockOpts.cliqueSigner !== undefined || self.withdrawals !== undefined) return false;
    if (!common.isActivatedEIP(7685)) return true;
    if (common.isActivatedEIP(8282) || !(await systemContractsAbsent(this.machine, [7002, 7251]))) return false;
    if (!common.isActivatedEIP(6110)) return true;
    // The library's deposit contract: the chain's, else mainnet's.
    const depositContract = ((common as unknown as { _chainParams: { depositContractAddress?: string } })._chainParams.depositContractAddress ??
      Mainnet.depositContractAddress)!.toLowerCase();
    return self.transactionResults.every((result) => result.receipt.logs.every(([address]) => bytesToHex(address) !== depositContract));
  }

  /**
   * The library's build, less what does nothing here: the request system calls of a chain
   * without their contracts (requestsAreEmpty), the roots of a list set aside and put back.
   * The header is made once, with the same fields in the same order as the library's.
   */
  private async sealWithoutSystemCalls(list: TypedTransaction[], sealOpts?: Parameters<BlockBuilder['build']>[0]): ReturnType<BlockBuilder['build']> {
    const self = this as unknown as BuilderInternals;
    const common = this.machine.common;
    self.checkStatus();
    const proofOfWork = common.consensusType() === ConsensusType.ProofOfWork;
    if (proofOfWork) await self.rewardMiner();
    const transactionsTrie = await this.transactionsTrie();
    const receiptTrie = await this.receiptTrie();
    const logsBloom = this.logsBloom();
    const blobGasUsed = common.isActivatedEIP(4844) ? self.blobGasUsed : undefined;
    let requests: Awaited<ReturnType<BlockBuilder['build']>>['requests'];
    let requestsHash: Uint8Array | undefined;
    if (common.isActivatedEIP(7685)) {
      // In type order, each with no data, as accumulateRequests makes them for a chain without the contracts.
      requests = [];
      if (common.isActivatedEIP(6110)) requests.push(new CLRequest(CLRequestType.Deposit, new Uint8Array()));
      if (common.isActivatedEIP(7002)) requests.push(new CLRequest(CLRequestType.Withdrawal, new Uint8Array()));
      if (common.isActivatedEIP(7251)) requests.push(new CLRequest(CLRequestType.Consolidation, new Uint8Array()));
      requestsHash = genRequestsRoot(requests, common.customCrypto.sha256 ?? sha256);
    }
    ABSENT_SYSTEM_CONTRACTS.seals++;
    const stateRoot = await this.machine.stateManager.getStateRoot();
    const headerData: HeaderData = {
      ...self.headerData,
      stateRoot,
      transactionsTrie,
      withdrawalsRoot: undefined,
      receiptTrie,
      logsBloom,
      gasUsed: this.gasUsed,
      timestamp: self.headerData.timestamp ?? 0n,
      blobGasUsed,
      requestsHash,
    };
    if (proofOfWork) {
      headerData.nonce = sealOpts?.nonce ?? headerData.nonce;
      headerData.mixHash = sealOpts?.mixHash ?? headerData.mixHash;
    }
    // Made on an empty list (createBlock would re-create every transaction), then given the ones that ran.
    const { header, withdrawals } = createBlock({ header: headerData, transactions: [] }, self.blockOpts);
    const block = new Block(header, list, [], withdrawals);
    self.blockStatus = { status: 'build', block };
    if (self.checkpointed) {
      await this.machine.evm.journal.commit();
      self.checkpointed = false;
    }
    return { block, requests, blockLevelAccessList: this.machine.evm.blockLevelAccessList };
  }

  override async transactionsTrie(): Promise<Uint8Array> {
    if (this.roots) return this.roots.transactions;
    const list = this.included;
    return list ? orderedTrieRoot(list.map((tx) => tx.serialize())) : super.transactionsTrie();
  }

  override async receiptTrie(): Promise<Uint8Array> {
    if (this.roots) return this.roots.receipts;
    const list = this.included;
    if (!list) return super.receiptTrie();
    return orderedTrieRoot(this.transactionReceipts.map((receipt, i) => encodeReceipt(receipt, list[i]!.type)));
  }
}

/**
 * What @ethereumjs/vm's buildBlock does, with the builder above, for a block kept out of the
 * VM's blockchain (the chain stores its blocks itself) and built from fields set here.
 */
export async function startBlock(vm: VM, opts: Omit<BuildBlockOpts, 'blockOpts'>): Promise<BlockBuilder> {
  const builder = new LeanBlockBuilder(vm, {
    ...opts,
    blockOpts: { putBlockIntoBlockchain: false, skipConsensusFormatValidation: true, params: PRELOADED_PARAMS },
  });
  await builder.initState();
  // The builder opens its checkpoint at the first transaction when no system call opened it
  // (before Cancun). Opened here, mineBlock's unwinding after a refused transaction (unwindTo)
  // stops above it: it used to revert it, and the block's build then failed to commit.
  const internals = builder as unknown as Partial<BuilderInternals>;
  if (internals.checkpointed === false) {
    await vm.evm.journal.checkpoint();
    internals.checkpointed = true;
  }
  return builder;
}

/** Where a mined transaction's creations are recorded (deployments.ts): the block's recorder and the transaction's index. */
export interface RecordedAt {
  readonly recorder: DeploymentRecorder;
  readonly index: number;
}

/**
 * Runs a transaction in the block being built; a sender with code may send too (contractSenders.ts).
 * With `recorded`, the contracts it creates are recorded (a plain transfer creates none).
 */
export async function addTransaction(vm: VM, builder: BlockBuilder, tx: TypedTransaction, sender: Address, recorded?: RecordedAt): Promise<RunTxResult> {
  if (builder instanceof LeanBlockBuilder) {
    const done = await builder.addPlainTransfer(vm, tx, sender);
    if (done) return done;
  }
  const senderDone = await letContractSend(vm.stateManager, sender);
  const run = () => builder.addTransaction(tx, { skipHardForkValidation: true, allowNoBlobs: true });
  try {
    return await (recorded ? recorded.recorder.during(vm.evm, recorded.index, run) : run());
  } finally {
    senderDone();
  }
}

/** A block to replay: its transactions and who sent each (impersonated senders included). */
export interface ReplayedBlock {
  readonly block: Block;
  readonly senders: readonly Address[];
}

let replays = 0;

/** How many block replays (replayBlock) this process ran (tests: empty blocks are not replayed). */
export function blockReplays(): number {
  return replays;
}

/**
 * Runs a block's first `count` transactions on `vm` (at the state the block started from) in
 * a block built like it (same header fields, so the same system calls and environment),
 * each with the tracer `tracerFor` gives it (none: untraced). The block is never sealed.
 */
export async function replayBlock(
  vm: VM,
  parent: MinedBlock,
  { block, senders }: ReplayedBlock,
  count: number,
  tracerFor: (index: number) => ExecutionTracer | undefined,
): Promise<RunTxResult[]> {
  replays++;
  const { header } = block;
  const builder = await startBlock(vm, {
    parentBlock: parent.block,
    headerData: {
      coinbase: header.coinbase,
      timestamp: header.timestamp,
      gasLimit: header.gasLimit,
      extraData: header.extraData,
      difficulty: header.difficulty,
      mixHash: header.mixHash,
      baseFeePerGas: header.baseFeePerGas,
      parentBeaconBlockRoot: header.parentBeaconBlockRoot,
    },
  });
  const results: RunTxResult[] = [];
  for (let i = 0; i < count; i++) {
    await pace();
    const detach = tracerFor(i)?.attach({ vm, coinbase: header.coinbase });
    try {
      results.push(await addTransaction(vm, builder, asSentBy(block.transactions[i]!, senders[i]!), senders[i]!));
    } finally {
      detach?.();
    }
  }
  return results;
}

/** The transaction at `index` of a mined block run again with `tracer` attached, after those before it. */
export async function replayTransaction(vm: VM, parent: MinedBlock, mined: MinedBlock, index: number, tracer: ExecutionTracer): Promise<RunTxResult> {
  const results = await replayBlock(vm, parent, mined, index + 1, (i) => (i === index ? tracer : undefined));
  return results[index]!;
}

/** Receipts of a block's transactions from their execution results (also used for imported blocks). */
export function buildReceipts(block: Block, senders: readonly Address[], results: readonly RunTxResult[], common: Common): ReceiptRecord[] {
  const baseFee = block.header.baseFeePerGas;
  const blobGasPrice = common.isActivatedEIP(4844) ? block.header.getBlobGasPrice() : undefined;
  let logIndex = 0;
  return results.map((result, i) => {
    const tx = block.transactions[i]!;
    const receipt = result.receipt;
    const logs: LogRecord[] = receipt.logs.map(([address, topics, data]) => ({
      address: new Address(address),
      topics,
      data,
      logIndex: logIndex++,
    }));
    const preByzantium = 'stateRoot' in receipt;
    return {
      type: tx.type,
      from: senders[i]!,
      to: tx.to,
      contractAddress: result.createdAddress,
      gasUsed: result.totalGasSpent,
      cumulativeGasUsed: receipt.cumulativeBlockGasUsed,
      status: preByzantium ? undefined : (receipt as { status: 0 | 1 }).status,
      root: preByzantium ? (receipt as { stateRoot: Uint8Array }).stateRoot : undefined,
      logs,
      logsBloom: receipt.bitvector,
      effectiveGasPrice: effectiveGasPrice(tx, baseFee),
      blobGasUsed: result.blobGasUsed,
      blobGasPrice: result.blobGasUsed !== undefined ? blobGasPrice : undefined,
    };
  });
}

/** What the sender paid per gas: the legacy gas price, or base fee + effective tip. */
export function effectiveGasPrice(tx: TypedTransaction, baseFee: bigint | undefined): bigint {
  if (tx.supports(Capability.EIP1559FeeMarket)) return (baseFee ?? 0n) + tx.getEffectivePriorityFee(baseFee ?? 0n);
  return (tx as TypedTransaction & { gasPrice: bigint }).gasPrice;
}
