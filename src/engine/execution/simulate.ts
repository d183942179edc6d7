/**
 * eth_simulateV1 as go-ethereum runs it (internal/ethapi/simulate.go): a chain of simulated
 * blocks on a throwaway copy of the state, each with block overrides, state overrides and
 * calls turned into unsigned transactions; headers, roots, hashes and parent links derived
 * as go-ethereum derives them. The chain itself never sees any of it.
 */
import { pace } from '../util/pace.js';
import { type Block, type HeaderData, createBlock } from '@ethereumjs/block';
import { type TypedTransaction, type TypedTxData, createTx } from '@ethereumjs/tx';
import { Address, createZeroAddress } from '@ethereumjs/util';
import { type RunTxResult, type VM, runTx } from '@ethereumjs/vm';
import type { EVM } from '@ethereumjs/evm';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { AccountRegistry } from '../accounts/accounts.js';
import { letContractSend } from '../transactions/contractSenders.js';
import { CodedError, rejected } from '../util/errors.js';
import { type CallRequest, withAuthorizations } from './execution.js';
import { PRELOADED_PARAMS, isPostMerge } from '../rules/hardforks.js';
import { LeanBlockBuilder } from './blockBuilder.js';
import { type BlockOverrides, type StateOverride, applyStateOverrides, resetPrecompiles } from '../state/overrides.js';
import { describeRevert, executionErrorText } from './revert.js';
import { ERR, invalidTransaction } from './simulateErrors.js';
import { MAX_TIMESTAMP } from '../mining/clock.js';
import { LogNumbers } from '../patches/logNumbering.js';
import { type SimLog, TransferLogCollector } from './simulateLogs.js';

/** go-ethereum's limits (simulate.go) and default RPC gas cap (the budget of one request). */
export const MAX_SIMULATE_BLOCKS = 256;
export const MAX_CALLS_PER_BLOCK = 5000;
export const MAX_TOTAL_CALLS = 10000;
export const SIMULATE_GAS_BUDGET = 50_000_000n;
const TIMESTAMP_INCREMENT = 12n;
const MAX_NONCE = (1n << 64n) - 1n;

export interface SimulatedBlockSpec {
  readonly blockOverrides?: BlockOverrides;
  readonly stateOverrides?: readonly StateOverride[];
  readonly calls: readonly CallRequest[];
}

export interface SimulateOptions {
  readonly blocks: readonly SimulatedBlockSpec[];
  readonly traceTransfers: boolean;
  readonly validation: boolean;
}

/** Where a simulation starts and what it may ask of the chain. */
export interface SimulationHost {
  /** A throwaway VM on the base block's state. */
  readonly vm: VM;
  readonly base: Block;
  readonly chainId: bigint;
  /** Put `vm` on the fork of a block with this number and timestamp. */
  align(vm: VM, number: bigint, timestamp: bigint): void;
  /** The hash of a canonical block at or below the base (BLOCKHASH). */
  canonicalHash(number: bigint): Uint8Array | undefined;
  checksum(address: Address): string;
  /** The node's accounts: an authorization without a signature names one of them to sign it. */
  readonly accounts?: AccountRegistry;
}

export interface SimulatedCallError {
  readonly code: number;
  readonly message: string;
  readonly data?: Uint8Array;
}

export interface SimulatedCall {
  readonly returnData: Uint8Array;
  readonly logs: readonly SimLog[];
  readonly gasUsed: bigint;
  readonly maxUsedGas: bigint;
  readonly status: 0 | 1;
  readonly error?: SimulatedCallError;
}

export interface SimulatedBlock {
  readonly block: Block;
  readonly hash: Uint8Array;
  readonly senders: readonly Address[];
  readonly calls: readonly SimulatedCall[];
}

/** The request-level checks go-ethereum makes before it simulates anything. */
export function checkSimulateLimits(blocks: readonly SimulatedBlockSpec[]): void {
  if (blocks.length === 0) throw new CodedError(ERR.invalidParams, 'empty input');
  if (blocks.length > MAX_SIMULATE_BLOCKS) throw new CodedError(ERR.clientLimitExceeded, 'too many blocks');
  let total = 0;
  for (const block of blocks) {
    if (block.calls.length > MAX_CALLS_PER_BLOCK)
      throw new CodedError(ERR.clientLimitExceeded, `too many calls in block: ${block.calls.length} > ${MAX_CALLS_PER_BLOCK}`);
    total += block.calls.length;
    if (total > MAX_TOTAL_CALLS) throw new CodedError(ERR.clientLimitExceeded, `too many calls: ${total} > ${MAX_TOTAL_CALLS}`);
  }
}

interface PlannedBlock {
  readonly overrides: BlockOverrides & { readonly number: bigint; readonly time: bigint };
  readonly stateOverrides: readonly StateOverride[];
  readonly calls: readonly CallRequest[];
}

/** A timestamp a simulated block's header can hold (uint64), refused as every other path refuses it (clock.ts). */
function headerTimestamp(time: bigint): bigint {
  if (time > MAX_TIMESTAMP) throw new CodedError(ERR.blockTimestampInvalid, `block timestamp ${time} would exceed 2^64-1`);
  return time;
}

/** Numbers and timestamps strictly increasing, gaps filled with empty blocks (sanitizeChain). */
function planChain(blocks: readonly SimulatedBlockSpec[], base: Block): PlannedBlock[] {
  const plan: PlannedBlock[] = [];
  let prevNumber = base.header.number;
  let prevTime = base.header.timestamp;
  for (const block of blocks) {
    const overrides = block.blockOverrides ?? {};
    const number = overrides.number ?? prevNumber + 1n;
    if (number <= prevNumber) throw new CodedError(ERR.blockNumberInvalid, `block numbers must be in order: ${number} <= ${prevNumber}`);
    if (number - base.header.number > BigInt(MAX_SIMULATE_BLOCKS)) throw new CodedError(ERR.clientLimitExceeded, 'too many blocks');
    for (let gap = prevNumber + 1n; gap < number; gap++) {
      prevTime = headerTimestamp(prevTime + TIMESTAMP_INCREMENT);
      plan.push({ overrides: { number: gap, time: prevTime }, stateOverrides: [], calls: [] });
    }
    prevNumber = number;
    const time = overrides.time ?? headerTimestamp(prevTime + TIMESTAMP_INCREMENT);
    if (overrides.time !== undefined && time <= prevTime)
      throw new CodedError(ERR.blockTimestampInvalid, `block timestamps must be in order: ${time} <= ${prevTime}`);
    prevTime = time;
    plan.push({ overrides: { ...overrides, number, time }, stateOverrides: block.stateOverrides ?? [], calls: block.calls });
  }
  return plan;
}

/**
 * Run the simulation. Errors that go-ethereum returns for the whole request (invalid
 * transactions, bad overrides, order) throw; failed calls are results.
 */
export async function simulate(host: SimulationHost, options: SimulateOptions): Promise<SimulatedBlock[]> {
  checkSimulateLimits(options.blocks);
  const plan = planChain(options.blocks, host.base);
  const { vm } = host;
  const results: SimulatedBlock[] = [];
  // BLOCKHASH sees the simulated blocks already built, then the canonical chain.
  const evm = vm.evm as unknown as { blockchain: { getBlock(n: number): Promise<{ hash(): Uint8Array }> } };
  const byNumber = new Map<bigint, Uint8Array>();
  const canonical = evm.blockchain;
  evm.blockchain = {
    ...canonical,
    getBlock: async (n: number) => {
      const hash = byNumber.get(BigInt(n)) ?? host.canonicalHash(BigInt(n)) ?? new Uint8Array(32);
      return { hash: () => hash };
    },
  };
  const budget = { remaining: SIMULATE_GAS_BUDGET };
  let parent = host.base;
  // Coinbase, gas limit and difficulty carry over from block to block (makeHeaders).
  let carried = { coinbase: host.base.header.coinbase, gasLimit: host.base.header.gasLimit, difficulty: host.base.header.difficulty };
  for (const planned of plan) {
    const o = planned.overrides;
    carried = { coinbase: o.feeRecipient ?? carried.coinbase, gasLimit: o.gasLimit ?? carried.gasLimit, difficulty: carried.difficulty };
    const built = await simulateBlock(host, options, planned, parent, carried, budget);
    byNumber.set(built.block.header.number, built.hash);
    results.push(built);
    parent = built.block;
  }
  return results;
}

async function simulateBlock(
  host: SimulationHost,
  options: SimulateOptions,
  planned: PlannedBlock,
  parent: Block,
  carried: { coinbase: Address; gasLimit: bigint; difficulty: bigint },
  budget: { remaining: bigint },
): Promise<SimulatedBlock> {
  const { vm } = host;
  const o = planned.overrides;
  host.align(vm, o.number, o.time);
  const common = vm.common;
  const postMerge = isPostMerge(common);
  const cancun = common.isActivatedEIP(4844);
  const baseFee = common.isActivatedEIP(1559) ? (o.baseFeePerGas ?? (options.validation ? parent.header.calcNextBaseFee() : 0n)) : undefined;
  const headerData: HeaderData = {
    parentHash: parent.hash(),
    number: o.number,
    timestamp: o.time,
    gasLimit: carried.gasLimit,
    coinbase: carried.coinbase,
    difficulty: o.difficulty ?? (postMerge ? 0n : carried.difficulty),
    mixHash: o.prevRandao ?? new Uint8Array(32),
    baseFeePerGas: baseFee,
    excessBlobGas: cancun ? (parent.header.excessBlobGas !== undefined ? parent.header.calcNextExcessBlobGas(common) : 0n) : undefined,
    parentBeaconBlockRoot: cancun ? (o.beaconRoot ?? new Uint8Array(32)) : undefined,
  };
  resetPrecompiles(vm);
  await applyStateOverrides(vm, planned.stateOverrides, host.checksum);
  // Into the trie now, as go-ethereum's Finalise: cached writes made before the builder's
  // checkpoint would otherwise be missing from the block's state root.
  if (planned.stateOverrides.length > 0) await (vm.stateManager as MerkleStateManager).flush();
  const withdrawals = common.isActivatedEIP(4895)
    ? (o.withdrawals ?? []).map((w) => ({ index: w.index, validatorIndex: w.validatorIndex, address: w.address, amount: w.amount }))
    : undefined;
  const builder = new LeanBlockBuilder(vm, {
    parentBlock: parent,
    headerData,
    withdrawals,
    blockOpts: { putBlockIntoBlockchain: false, skipConsensusFormatValidation: true, params: PRELOADED_PARAMS },
  });
  await builder.initState();
  const runner = new CallRunner(host, options, builder, headerData, o.blobBaseFee, budget);
  const calls: SimulatedCall[] = [];
  const collector = options.traceTransfers ? new TransferLogCollector() : undefined;
  // Without traceTransfers the receipt's logs are numbered as go-ethereum's tracer counts them (logNumbering.ts).
  const detach = collector ? collector.attach(vm.evm as EVM) : runner.numbers.attach(vm.evm);
  try {
    for (const request of planned.calls) {
      // Thousands of calls without code run no interpreter step: let the event loop turn between them too.
      await pace();
      calls.push(await runner.run(request, collector));
    }
  } finally {
    detach?.();
  }
  const { block } = await builder.build();
  const hash = block.hash();
  return { block, hash, senders: runner.senders, calls };
}

type Internals = { transactions: TypedTransaction[]; transactionResults: RunTxResult[]; gasUsed: bigint; blobGasUsed: bigint; _minerValue: bigint };

/** Turns calls into transactions and runs them in the block being built. */
class CallRunner {
  readonly senders: Address[] = [];
  readonly numbers = new LogNumbers();
  /** The header calls run under, built once per base fee (the block's, or 0 for fee-less calls). */
  private readonly runBlocks = new Map<bigint | undefined, Block>();

  constructor(
    private readonly host: SimulationHost,
    private readonly options: SimulateOptions,
    private readonly builder: LeanBlockBuilder,
    private readonly header: HeaderData,
    private readonly blobBaseFee: bigint | undefined,
    private readonly budget: { remaining: bigint },
  ) {}

  private get internals(): Internals {
    return this.builder as unknown as Internals;
  }

  async run(request: CallRequest, collector: TransferLogCollector | undefined): Promise<SimulatedCall> {
    const { vm } = this.host;
    const from = request.from ?? createZeroAddress();
    const gasLimit = this.header.gasLimit as bigint;
    const remaining = gasLimit - this.internals.gasUsed;
    const wanted = request.gas ?? remaining;
    if (remaining < wanted) throw new CodedError(ERR.blockGasLimitReached, `block gas limit reached: remaining: ${remaining}, required: ${wanted}`);
    const gas = wanted > this.budget.remaining ? this.budget.remaining : wanted;
    const capped = gas < wanted;
    if (request.chainId !== undefined && request.chainId !== this.host.chainId) {
      throw rejected(`chainId does not match node's (have=${request.chainId}, want=${this.host.chainId})`);
    }
    const nonce = request.nonce ?? (await vm.stateManager.getAccount(from))?.nonce ?? 0n;
    if (nonce === MAX_NONCE && this.options.validation) {
      throw new CodedError(ERR.internal, `err: nonce has max value: address ${this.host.checksum(from)}, nonce: ${nonce} (supplied gas ${gas})`);
    }
    if (this.options.validation && request.nonce !== undefined) {
      // go-ethereum checks the nonce before the fees.
      const state = (await vm.stateManager.getAccount(from))?.nonce ?? 0n;
      const who = this.host.checksum(from);
      if (nonce < state) throw new CodedError(ERR.nonceTooLow, `err: nonce too low: address ${who}, tx: ${nonce} state: ${state} (supplied gas ${gas})`);
      if (nonce > state) throw new CodedError(ERR.nonceTooHigh, `err: nonce too high: address ${who}, tx: ${nonce} state: ${state} (supplied gas ${gas})`);
    }
    if (request.authorizationList !== undefined) this.checkAuthorizations(request, from, gas);
    const tx = this.transaction(request, from, nonce, gas);
    const baseFee = this.header.baseFeePerGas as bigint | undefined;
    // go-ethereum's NoBaseFee outside validation: a call paying nothing runs in a header with base fee 0.
    const feeLess = !this.options.validation && isFeeLess(request);
    const block = this.runBlock(feeLess ? 0n : baseFee);
    collector?.reset();
    let result: RunTxResult;
    const senderDone = await letContractSend(vm.stateManager, from);
    try {
      result = await runTx(vm, {
        tx,
        block,
        skipNonce: !this.options.validation,
        // The receipt's cumulative gas: the block's so far (the shared run header does not carry it).
        blockGasUsed: this.internals.gasUsed,
        skipBlockGasLimitValidation: true,
        skipHardForkValidation: true,
      });
    } catch (error) {
      throw invalidTransaction(error, this.host.checksum(from), tx, baseFee);
    } finally {
      senderDone();
    }
    // go-ethereum's uint64 nonce wraps to 0 past 2^64-1 (possible only without validation).
    const sender = await vm.stateManager.getAccount(from);
    if (sender && sender.nonce > MAX_NONCE) {
      sender.nonce = 0n;
      await vm.stateManager.putAccount(from, sender);
    }
    const internals = this.internals;
    internals.transactions.push(tx);
    internals.transactionResults.push(result);
    internals.gasUsed += result.totalGasSpent;
    internals.blobGasUsed += result.blobGasUsed ?? 0n;
    internals._minerValue += result.minerValue;
    this.senders.push(from);
    this.budget.remaining -= result.totalGasSpent;
    const receiptLogs = result.receipt.logs.map((log) => ({ address: new Address(log[0]), topics: log[1], data: log[2], index: this.numbers.numberOf(log) }));
    const failure = result.execResult.exceptionError;
    const logs = collector ? collector.logs() : failure ? [] : receiptLogs;
    const base = {
      // go-ethereum's ExecutionResult.Return(): nothing when the call failed (revert data goes into the error).
      returnData: failure ? new Uint8Array() : result.execResult.returnValue,
      logs,
      gasUsed: result.totalGasSpent,
      maxUsedGas: result.totalGasSpent + result.gasRefund,
    };
    if (!failure) return { ...base, status: 1 };
    if (failure.error === 'revert') {
      return { ...base, status: 0, error: { code: 3, message: describeRevert(result.execResult.returnValue), data: result.execResult.returnValue } };
    }
    const message = executionErrorText(failure.error) + (capped ? " (gas limit was capped by the RPC server's global gas cap)" : '');
    return { ...base, status: 0, error: { code: ERR.vmError, message } };
  }

  /** go-ethereum's pre-checks of a set-code call (state_transition.go preCheck; CallDefaults for gasPrice), in its words. */
  private checkAuthorizations(request: CallRequest, from: Address, gas: bigint): void {
    const list = request.authorizationList!;
    if (request.gasPrice !== undefined) throw rejected('both gasPrice and authorizationList specified');
    if (request.blobVersionedHashes !== undefined) throw rejected('both blobVersionedHashes and authorizationList specified');
    const who = this.host.checksum(from);
    if (request.to === undefined) {
      throw new CodedError(ERR.internal, `err: EIP-7702 transaction cannot be used to create contract (sender ${who}) (supplied gas ${gas})`);
    }
    if (list.length === 0) throw new CodedError(ERR.internal, `err: EIP-7702 transaction with empty auth list (sender ${who}) (supplied gas ${gas})`);
  }

  /** The header a call runs under: the block's, with the blob base fee override (its gasUsed is not read by runTx). */
  private runBlock(baseFee: bigint | undefined): Block {
    const known = this.runBlocks.get(baseFee);
    if (known) return known;
    const block = createBlock(
      { header: { ...this.header, baseFeePerGas: baseFee } },
      { common: this.host.vm.common, skipConsensusFormatValidation: true, params: PRELOADED_PARAMS, freeze: this.blobBaseFee === undefined },
    );
    if (this.blobBaseFee !== undefined) {
      const fee = this.blobBaseFee;
      Object.defineProperty(block.header, 'getBlobGasPrice', { value: () => fee });
    }
    this.runBlocks.set(baseFee, block);
    return block;
  }

  /** go-ethereum's TransactionArgs.ToTransaction(DynamicFeeTxType) after CallDefaults: unsigned (v = r = s = 0). */
  private transaction(request: CallRequest, from: Address, nonce: bigint, gas: bigint): TypedTransaction {
    const common = this.host.vm.common;
    const base = { nonce: 0n, gasLimit: 0n, to: request.to, value: request.value ?? 0n, data: request.data ?? new Uint8Array(), v: 0n, r: 0n, s: 0n };
    const accessList = (request.accessList ?? []).map((item) => ({ address: item.address as `0x${string}`, storageKeys: item.storageKeys as `0x${string}`[] }));
    let data: TypedTxData;
    if (request.gasPrice !== undefined) {
      data = { ...base, type: 0, gasPrice: request.gasPrice };
    } else if (request.blobVersionedHashes !== undefined) {
      data = {
        ...base,
        type: 3,
        chainId: this.host.chainId,
        maxFeePerGas: request.maxFeePerGas ?? 0n,
        maxPriorityFeePerGas: request.maxPriorityFeePerGas ?? 0n,
        maxFeePerBlobGas: request.maxFeePerBlobGas ?? 0n,
        accessList,
        blobVersionedHashes: request.blobVersionedHashes as `0x${string}`[],
      };
    } else {
      data = {
        ...base,
        type: 2,
        chainId: this.host.chainId,
        maxFeePerGas: request.maxFeePerGas ?? 0n,
        maxPriorityFeePerGas: request.maxPriorityFeePerGas ?? 0n,
        accessList,
      };
      // go-ethereum's ToTransaction: an authorization list makes it a set-code (type 4) transaction,
      // whose authorizations the state transition applies before the call runs.
      if (request.authorizationList !== undefined) data = withAuthorizations(data, request.authorizationList, this.host.accounts, common);
    }
    let tx: TypedTransaction;
    try {
      tx = createTx(data, { common, freeze: false, params: PRELOADED_PARAMS, allowUnlimitedInitCodeSize: true });
    } catch (error) {
      throw rejected(error instanceof Error ? error.message.replace(/\s*\(.*$/s, '') : String(error));
    }
    // Gas limit and nonce are set after construction: go-ethereum lets a simulated call use more
    // than EIP-7825's cap, and (without validation) the nonce 2^64-1 that ethereumjs refuses.
    (tx as { gasLimit: bigint }).gasLimit = gas;
    (tx as { nonce: bigint }).nonce = nonce;
    Object.defineProperty(tx, 'getSenderAddress', { value: () => from });
    return tx;
  }
}

function isFeeLess(request: CallRequest): boolean {
  const zero = (v: bigint | undefined) => v === undefined || v === 0n;
  return zero(request.gasPrice) && zero(request.maxFeePerGas) && zero(request.maxPriorityFeePerGas);
}
