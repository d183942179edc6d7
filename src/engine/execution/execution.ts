import { checkpointDepth, unwindTo } from '../state/unwind.js';
import { type Block, createBlock } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { type TypedTransaction, type TypedTxData, createTx } from '@ethereumjs/tx';
import { type Address, createZeroAddress } from '@ethereumjs/util';
import { type RunTxResult, type VM, runTx } from '@ethereumjs/vm';
import type { AccountRegistry } from '../accounts/accounts.js';
import { type AuthorizationRequest, authorizationTuple } from '../transactions/authorizations.js';
import { letContractSend } from '../transactions/contractSenders.js';
import { type Execution, callDirectly, callsDirectly } from './directCall.js';
import { EngineError, IntrinsicGasError, rejected } from '../util/errors.js';
import { PRELOADED_PARAMS } from '../rules/hardforks.js';
import { executionFailure } from './revert.js';
import { type EstimateRun, searchGasLimit } from './gasEstimate.js';
import { translateTxError } from '../transactions/validation.js';
import { sameWithLess, watchingGasDependence } from '../patches/gasDependence.js';

/** EIP-2930: addresses and storage keys (0x hex) a transaction declares warm. */
export type AccessList = ReadonlyArray<{ readonly address: string; readonly storageKeys: readonly string[] }>;

/** A message call as clients describe it (eth_call / eth_estimateGas / eth_sendTransaction). */
export interface CallRequest {
  readonly from?: Address;
  readonly to?: Address;
  readonly gas?: bigint;
  readonly gasPrice?: bigint;
  readonly maxFeePerGas?: bigint;
  readonly maxPriorityFeePerGas?: bigint;
  readonly maxFeePerBlobGas?: bigint;
  readonly value?: bigint;
  readonly data?: Uint8Array;
  readonly nonce?: bigint;
  readonly type?: number;
  readonly accessList?: AccessList;
  readonly blobVersionedHashes?: readonly string[];
  readonly chainId?: bigint;
  /** EIP-7702: the request is a type-4 transaction (authorizations.ts makes the tuples). */
  readonly authorizationList?: readonly AuthorizationRequest[];
}

/**
 * What a request asks for that no transaction built from it could honour: refused by name.
 * Blob transactions are sent signed (eth_sendRawTransaction); calls do not simulate them.
 */
export function assertHonourable(request: CallRequest, action: string, runsBlobs = false): void {
  if (runsBlobs && request.blobVersionedHashes !== undefined) {
    if (request.to === undefined) throw new EngineError('invalidInput', 'a blob transaction (blobVersionedHashes) must have a "to" address');
    if (request.authorizationList !== undefined)
      throw new EngineError('invalidInput', 'a transaction cannot carry both blobVersionedHashes and an authorizationList');
  } else if (request.blobVersionedHashes !== undefined || request.maxFeePerBlobGas !== undefined) {
    throw new EngineError(
      'invalidInput',
      `blob transactions (blobVersionedHashes, maxFeePerBlobGas) are not supported by ${action}: sign one and send it with eth_sendRawTransaction`,
    );
  }
  if (request.authorizationList !== undefined && request.to === undefined) {
    throw new EngineError('invalidInput', 'a transaction with an authorizationList (EIP-7702) must have a "to" address');
  }
  if (request.authorizationList !== undefined && request.gasPrice !== undefined) {
    throw new EngineError('invalidInput', 'a transaction with an authorizationList (EIP-7702) takes maxFeePerGas and maxPriorityFeePerGas, not gasPrice');
  }
}

/** The gas a single transaction may use: the block limit, and the EIP-7825 cap once Osaka is active. */
export function transactionGasCap(common: Common, blockGasLimit: bigint): bigint {
  if (common.isActivatedEIP(7825)) {
    const cap = common.param('maxTransactionGasLimit');
    return cap < blockGasLimit ? cap : blockGasLimit;
  }
  return blockGasLimit;
}

function hasFees(request: CallRequest): boolean {
  return request.gasPrice !== undefined || request.maxFeePerGas !== undefined || request.maxPriorityFeePerGas !== undefined;
}

/**
 * Build an unsigned transaction whose sender is `from`, as go-ethereum's message from a call.
 * A fee-less call runs in a copy of the block with base fee 0 (go-ethereum's NoBaseFee).
 */
function callTransaction(common: Common, request: CallRequest, gasLimit: bigint, block: Block, accounts?: AccountRegistry): TypedTransaction {
  assertHonourable(request, 'eth_call and eth_estimateGas', common.isActivatedEIP(4844) && request.gasPrice === undefined);
  const from = request.from ?? createZeroAddress();
  const feeMarket = common.isActivatedEIP(1559) && request.gasPrice === undefined;
  const base = {
    nonce: request.nonce ?? 0n,
    gasLimit,
    to: request.to,
    value: request.value ?? 0n,
    data: request.data ?? new Uint8Array(),
  };
  let data: TypedTxData;
  if (feeMarket) {
    const tip = request.maxPriorityFeePerGas ?? 0n;
    const cap = request.maxFeePerGas ?? (hasFees(request) ? (block.header.baseFeePerGas ?? 0n) + tip : 0n);
    data = {
      ...base,
      type: 2,
      maxFeePerGas: cap,
      maxPriorityFeePerGas: tip > cap ? cap : tip,
      accessList: request.accessList && accessListData(request.accessList),
    };
    if (request.authorizationList) data = withAuthorizations(data, request.authorizationList, accounts, common);
    // A blob transaction's message: BLOBHASH sees the hashes; the blob fee is at least the block's blob gas price.
    if (request.blobVersionedHashes) {
      const blobGasPrice = block.header.excessBlobGas === undefined ? 1n : block.header.getBlobGasPrice();
      data = {
        ...data,
        type: 3,
        blobVersionedHashes: [...request.blobVersionedHashes],
        maxFeePerBlobGas: request.maxFeePerBlobGas ?? blobGasPrice,
      } as TypedTxData;
    }
  } else if (request.authorizationList) {
    throw new EngineError('unsupported', 'authorizationList (EIP-7702) needs the prague hardfork or later');
  } else if (request.accessList) {
    data = { ...base, type: 1, gasPrice: request.gasPrice ?? 0n, accessList: accessListData(request.accessList) };
  } else {
    data = { ...base, type: 0, gasPrice: request.gasPrice ?? 0n };
  }
  let tx: TypedTransaction;
  try {
    tx = createTx(data, { common, freeze: false, params: PRELOADED_PARAMS });
  } catch (error) {
    // e.g. gasLimit * maxFeePerGas over 2^256-1: the caller's numbers, not a bug.
    throw translateTxError(error);
  }
  // Calls are never signed: the message's sender is whoever the caller names.
  Object.defineProperty(tx, 'getSenderAddress', { value: () => from });
  Object.defineProperty(tx, 'isSigned', { value: () => true });
  Object.defineProperty(tx, 'hash', { value: () => new Uint8Array(32) });
  return tx;
}

/** A type-2 request's data as type 4, with the authorizations as signed tuples. */
export function withAuthorizations(
  data: TypedTxData,
  list: readonly AuthorizationRequest[],
  accounts: AccountRegistry | undefined,
  common: Common,
): TypedTxData {
  if (!common.isActivatedEIP(7702)) throw new EngineError('unsupported', 'authorizationList (EIP-7702) needs the prague hardfork or later');
  const tuples = list.map((item, i) => {
    if (!item.signature && !accounts) throw new EngineError('invalidInput', `authorizationList[${i}] has no signature (yParity, r, s)`);
    return authorizationTuple(item, accounts!, i);
  });
  return { ...data, type: 4, authorizationList: tuples } as TypedTxData;
}

function accessListData(list: AccessList): Array<{ address: `0x${string}`; storageKeys: `0x${string}`[] }> {
  return list.map((item) => ({ address: item.address as `0x${string}`, storageKeys: item.storageKeys as `0x${string}`[] }));
}

/** Fee-less copies of blocks, built once per block: calls at the head reuse them. */
const feeLessBlocks = new WeakMap<Block, Block>();

/** The block a fee-less call runs in: the same header with base fee 0 (go-ethereum's NoBaseFee). */
function callBlock(block: Block, request: CallRequest): Block {
  if (hasFees(request) || block.header.baseFeePerGas === undefined) return block;
  let feeLess = feeLessBlocks.get(block);
  if (!feeLess) {
    const header = { ...block.header.toJSON(), baseFeePerGas: 0n };
    // A blob base fee override (overrides.ts) lives on the header instance: keep it.
    const blobGasPrice = Object.getOwnPropertyDescriptor(block.header, 'getBlobGasPrice');
    feeLess = createBlock(
      { header },
      { common: block.common, skipConsensusFormatValidation: true, params: PRELOADED_PARAMS, freeze: blobGasPrice === undefined },
    );
    if (blobGasPrice) Object.defineProperty(feeLess.header, 'getBlobGasPrice', blobGasPrice);
    feeLessBlocks.set(block, feeLess);
  }
  return feeLess;
}

export interface ExecutionContext {
  readonly vm: VM;
  readonly block: Block;
  /** The node's keys: unsigned EIP-7702 authorizations of its accounts are signed with them. */
  readonly accounts?: AccountRegistry;
}

/** A call's block and transaction, built once and run with different gas limits. */
interface PreparedCall {
  readonly block: Block;
  readonly tx: TypedTransaction;
}

function prepare(ctx: ExecutionContext, request: CallRequest, gasLimit: bigint): PreparedCall {
  const block = callBlock(ctx.block, request);
  return { block, tx: callTransaction(ctx.vm.common, request, gasLimit, block, ctx.accounts) };
}

/**
 * `body` on a checkpoint that is always reverted (nothing it does stays), with the prepared
 * transaction's gas limit set to `gasLimit`; ethereumjs' errors come out in go-ethereum's words.
 */
async function inRevertedCheckpoint<T>(ctx: ExecutionContext, call: PreparedCall, gasLimit: bigint, body: () => Promise<T>, keep = false): Promise<T> {
  // The unsigned call transaction is not frozen: set the limit instead of rebuilding it per attempt.
  (call.tx as { gasLimit: bigint }).gasLimit = gasLimit;
  const stateManager = ctx.vm.stateManager;
  const depth = checkpointDepth(ctx.vm);
  await stateManager.checkpoint();
  let kept = false;
  try {
    const result = await body();
    // `keep` (trace_callMany, on a copy of the state): the next call sees this one's changes.
    if (keep) await stateManager.commit(), (kept = true);
    return result;
  } catch (error) {
    throw translateRunError(error);
  } finally {
    // Normally one revert; more when the run threw out of open frames (unwind.ts).
    if (!kept) await unwindTo(ctx.vm, depth);
  }
}

/** One execution through runTx. */
function execute(
  ctx: ExecutionContext,
  call: PreparedCall,
  request: CallRequest,
  gasLimit: bigint,
  reportAccessList = false,
  keep = false,
): Promise<RunTxResult> {
  return inRevertedCheckpoint(
    ctx,
    call,
    gasLimit,
    async () => {
      // go-ethereum calls from any address, contracts included (contractSenders.ts).
      const senderDone = request.from ? await letContractSend(ctx.vm.stateManager, request.from) : undefined;
      try {
        return await runTx(ctx.vm, {
          tx: call.tx,
          block: call.block,
          skipNonce: true,
          skipBlockGasLimitValidation: true,
          skipHardForkValidation: true,
          reportAccessList,
        });
      } finally {
        senderDone?.();
      }
    },
    keep,
  );
}

/**
 * runTx's failures in go-ethereum's words, as typed engine errors. ethereumjs throws plain
 * errors whose text is all they carry: this is the one place that text is read.
 */
function translateRunError(error: unknown): EngineError {
  // A forked chain's upstream failure already names the upstream, method and key (fork/upstream.ts).
  if (error instanceof EngineError && error.kind === 'upstream') return error;
  const message = error instanceof Error ? error.message : String(error);
  const funds = /sender's account \((0x[0-9a-fA-F]{40})\) only has: (\d+)/.exec(message);
  const cost = /(?:upfront|max) cost is: (\d+)/.exec(message);
  if (funds) {
    return rejected(`insufficient funds for gas * price + value: address ${funds[1]} have ${funds[2]} want ${cost?.[1] ?? '?'}`);
  }
  if (/INTRINSIC_GAS_TOO_LOW/.test(message)) return new IntrinsicGasError();
  if (/baseFeePerGas/.test(message)) return rejected('max fee per gas less than block base fee');
  return rejected(message.replace(/\s*\(.*$/s, ''));
}

/** One run of the call through runTx, whatever its outcome (a tracer looks at failed runs too). */
export function executeCall(ctx: ExecutionContext, request: CallRequest, gasCap: bigint, reportAccessList = false): Promise<RunTxResult> {
  const gasLimit = request.gas ?? gasCap;
  return execute(ctx, prepare(ctx, request, gasLimit), request, gasLimit, reportAccessList);
}

/** A call whose state changes stay on `ctx.vm` (a copy), for the calls after it (trace_callMany). */
export function executeCallKeepingState(ctx: ExecutionContext, request: CallRequest, gasCap: bigint): Promise<RunTxResult> {
  const gasLimit = request.gas ?? gasCap;
  return execute(ctx, prepare(ctx, request, gasLimit), request, gasLimit, false, true);
}

/** One run of the call without runTx (directCall.ts); undefined when it has to go through runTx. */
export function executeCallDirectly(ctx: ExecutionContext, request: CallRequest, gasCap: bigint): Promise<Execution | undefined> {
  const gasLimit = request.gas ?? gasCap;
  return executeDirectly(ctx, prepare(ctx, request, gasLimit), request, gasLimit);
}

/** One execution without runTx (directCall.ts); undefined when the call has to go through runTx. */
async function executeDirectly(ctx: ExecutionContext, call: PreparedCall, request: CallRequest, gasLimit: bigint): Promise<Execution | undefined> {
  if (!callsDirectly(ctx.vm.common, request)) return undefined;
  return inRevertedCheckpoint(ctx, call, gasLimit, () => callDirectly(ctx.vm, call.block, call.tx, request.from ?? createZeroAddress()));
}

/** One run: without runTx where directCall.ts can, else through it. */
async function run(ctx: ExecutionContext, call: PreparedCall, request: CallRequest, gasLimit: bigint): Promise<Execution> {
  return (await executeDirectly(ctx, call, request, gasLimit)) ?? execute(ctx, call, request, gasLimit);
}

/** What a successful call returns; reverts throw RevertError, other failures EngineError. */
export async function runCall(ctx: ExecutionContext, request: CallRequest, gasCap: bigint): Promise<Uint8Array> {
  const gasLimit = request.gas ?? gasCap;
  const { execResult } = await run(ctx, prepare(ctx, request, gasLimit), request, gasLimit);
  if (execResult.exceptionError) {
    throw executionFailure(execResult.exceptionError.error, execResult.returnValue);
  }
  return execResult.returnValue;
}

export interface AccessListOutcome {
  readonly accessList: AccessList;
  /** Gas used with the access list in place. */
  readonly gasUsed: bigint;
  /** Why the execution failed (it still yields the list), as go-ethereum reports it. */
  readonly error?: string;
}

/** Runs that may still find new entries before the list stops changing (each run warms what the last one found). */
const MAX_ACCESS_LIST_RUNS = 10;

/**
 * eth_createAccessList, as go-ethereum computes it: run the call with the list found so far
 * until a run finds no new address or slot (the sender, the recipient and precompiles stay
 * out unless their storage is touched; ethereumjs also leaves the coinbase out).
 */
export async function createAccessList(ctx: ExecutionContext, request: CallRequest, gasCap: bigint): Promise<AccessListOutcome> {
  if (!ctx.vm.common.isActivatedEIP(2930)) throw rejected('access lists are not supported before the berlin hardfork');
  let list: AccessList = request.accessList ?? [];
  for (let run = 1; ; run++) {
    const result = await executeCall(ctx, { ...request, accessList: list }, gasCap, true);
    const found = result.accessList ?? [];
    if (sameAccessList(found, list) || run === MAX_ACCESS_LIST_RUNS) {
      const failure = result.execResult.exceptionError;
      return {
        accessList: found,
        gasUsed: result.totalGasSpent,
        error: failure ? executionFailure(failure.error, result.execResult.returnValue).message : undefined,
      };
    }
    list = found;
  }
}

function sameAccessList(a: AccessList, b: AccessList): boolean {
  const entries = (list: AccessList) =>
    new Set(list.flatMap((item) => [item.address.toLowerCase(), ...item.storageKeys.map((key) => `${item.address.toLowerCase()}:${key.toLowerCase()}`)]));
  const left = entries(a);
  const right = entries(b);
  return left.size === right.size && [...left].every((entry) => right.has(entry));
}

/** The gas below which no limit is tried: go-ethereum ignores a request's gas under a plain transfer's. */
const TX_GAS = 21_000n;

/**
 * The smallest gas limit with which the call succeeds (gasEstimate.ts searches), below the
 * request's gas (if at least 21000), what the sender's funds pay for at the request's fee
 * cap, and the cap; errors in go-ethereum's words.
 */
export async function estimateGas(ctx: ExecutionContext, request: CallRequest, gasCap: bigint, balance: bigint): Promise<bigint> {
  let highest = request.gas !== undefined && request.gas >= TX_GAS ? request.gas : gasCap;
  const feeCap = request.gasPrice ?? request.maxFeePerGas ?? 0n;
  if (feeCap > 0n) {
    const value = request.value ?? 0n;
    if (value >= balance && value > 0n) {
      throw rejected(`insufficient funds for transfer: address ${request.from?.toString() ?? ''}`);
    }
    const allowance = (balance - value) / feeCap;
    if (allowance < highest) highest = allowance;
  }
  if (highest > gasCap) highest = gasCap;
  const call = prepare(ctx, request, highest);
  const peakOf = (result: Execution): bigint => {
    // runTx reports the refund earned (uncapped); the peak is what was used before any refund.
    const used = result.execResult.executionGasUsed + call.tx.getIntrinsicGas();
    return used > result.totalGasSpent ? used : result.totalGasSpent;
  };
  return searchGasLimit({
    highest,
    plainTransfer: await isPlainTransfer(ctx, request),
    run: async (gasLimit): Promise<EstimateRun> => {
      // Watched: whether the gas left mattered to the run, so that a lower limit would go the same way.
      const { result, dependence } = await watchingGasDependence(ctx.vm.evm, () => run(ctx, call, request, gasLimit));
      return {
        execResult: result.execResult,
        totalGasSpent: result.totalGasSpent,
        peakGas: peakOf(result),
        sameWithLess: (lower) => sameWithLess(dependence, gasLimit, lower),
      };
    },
  });
}

/** No data, and a recipient without code (go-ethereum's test before trying 21000). */
async function isPlainTransfer(ctx: ExecutionContext, request: CallRequest): Promise<boolean> {
  if (request.to === undefined || (request.data?.length ?? 0) > 0) return false;
  return (await ctx.vm.stateManager.getCode(request.to)).length === 0;
}
