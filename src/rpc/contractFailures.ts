/**
 * Failed calls, estimates and sends explained with the project's contracts (docs/contracts.md):
 * once the node has artifacts, a failure is run again with the call tracer (only failures pay
 * for it) to learn which contracts and functions it went through, and its revert data is
 * decoded. The answer keeps its code and `data` (what clients parse: revert bytes for code 3,
 * Hardhat's object for a failed send); a custom error's name and arguments go into the message
 * (`execution reverted: custom error 'InsufficientBalance(100, 1000)'`, Hardhat's "reverted with
 * custom error '...'"), the whole explanation into the error object's `decoded` member, and
 * the node's console prints it.
 */
import { signatureOf } from '../contracts/abi.js';
import { jsonValue } from '../contracts/abiFormat.js';
import {
  type NamedFrame,
  type RevertReason,
  UNRECOGNIZED_CONTRACT,
  customErrorText,
  decodeRevert,
  failurePath,
  frameAddress,
  nameFrame,
} from '../contracts/failure.js';
import type { ContractRegistry } from '../contracts/registry.js';
import type { BlockRef } from '../engine/chain/types.js';
import type { CallRequest } from '../engine/execution/execution.js';
import { type CallFrame, CallTracer } from '../engine/tracers/tracing.js';
import { RevertError, TransactionFailedError } from '../engine/util/errors.js';
import type { BlockOverrides, StateOverride } from '../engine/state/overrides.js';
import { encodeData } from './encode.js';
import { ErrorCode, RpcError } from './errors.js';
import { hardhatFailureMessage, hardhatPanicDescription, hardhatSendError } from './hardhatErrors.js';
import type { Json } from './json.js';
import type { RpcContext, RpcMethod } from './method.js';
import { callOverrides } from './overrides.js';
import type { MethodTable } from './table.js';

/** The records whose failures are explained: calls and estimates (code 3), and every send (a failed transaction, or its estimate). */
const EXPLAINED: ReadonlySet<string> = new Set([
  'chain_call',
  'chain_estimateGas',
  'chain_sendTransaction',
  'chain_sendRawTransaction',
  'chain_sendUnsignedTransaction',
  'personal_sendTransaction',
  'eth_sendTransactionSync',
  'eth_sendRawTransactionSync',
]);

export function withContractFailures(table: MethodTable): MethodTable {
  const result = new Map(table);
  const wrapped = new Map<RpcMethod, RpcMethod>();
  for (const [name, method] of table) {
    if (!EXPLAINED.has(method.name)) continue;
    if (!wrapped.has(method)) wrapped.set(method, explaining(method));
    result.set(name, wrapped.get(method)!);
  }
  return result;
}

function explaining(method: RpcMethod): RpcMethod {
  return {
    ...method,
    invoke(ctx, params) {
      return method.invoke(ctx, params).catch(async (error: unknown) => {
        const contracts = ctx.contracts;
        if (!contracts?.active || !(error instanceof RevertError || error instanceof TransactionFailedError)) throw error;
        throw await explain(ctx, contracts, method, params, error);
      });
    },
  };
}

/** What a failure turned into: the client's error, and the lines the node prints. */
interface Explained {
  readonly error: RpcError;
  readonly lines: readonly string[];
}

async function explain(
  ctx: RpcContext,
  contracts: ContractRegistry,
  method: RpcMethod,
  params: readonly unknown[],
  failure: RevertError | TransactionFailedError,
): Promise<RpcError> {
  let explained: Explained;
  try {
    explained = await explainFailure(ctx, contracts, method, params, failure);
  } catch (error) {
    // An explanation is a courtesy: if it cannot be had (the chain moved on, a bug), the failure is answered as before.
    console.error('chain-sim: could not explain a failure with the artifacts:', error);
    throw failure;
  }
  for (const line of explained.lines) ctx.print?.(line);
  return explained.error;
}

async function explainFailure(
  ctx: RpcContext,
  contracts: ContractRegistry,
  method: RpcMethod,
  params: readonly unknown[],
  failure: RevertError | TransactionFailedError,
): Promise<Explained> {
  const root = await tracedRoot(ctx, method, params, failure);
  const path = root ? failurePath(root).map((frame) => nameFrame(contracts, frame)) : [];
  const evmError = failure instanceof TransactionFailedError ? failure.error : 'revert';
  const data = failure.data;
  const reason = decodeRevert(contracts, evmError === 'revert' ? data : new Uint8Array());
  const custom = reason.kind === 'customError' ? customErrorText(reason) : undefined;
  const message = hardhatFailureMessage(evmError, data, custom);
  const stack = [...path].reverse();
  const decoded: Json = { message, reason: reasonJson(reason, evmError), stack: stack.map(frameJson) };
  const what = failure instanceof TransactionFailedError ? `Transaction ${failure.hashHex}` : method.name === 'chain_estimateGas' ? 'Gas estimate' : 'Call';
  const lines = [`${what} failed: ${message}`, ...stack.map((frame) => `    at ${callSite(frame)}`)];
  if (failure instanceof TransactionFailedError) return { error: hardhatSendError(failure, custom, decoded), lines };
  const text = custom === undefined ? failure.message : `execution reverted: custom error '${custom}'`;
  return { error: new RpcError(ErrorCode.executionReverted, text, encodeData(data), decoded), lines };
}

/** The call tree of the failed run, run again with each frame's code; undefined when it cannot be run again. */
async function tracedRoot(
  ctx: RpcContext,
  method: RpcMethod,
  params: readonly unknown[],
  failure: RevertError | TransactionFailedError,
): Promise<CallFrame | undefined> {
  const tracer = new CallTracer(false, undefined, true);
  if (failure instanceof TransactionFailedError) {
    const run = await ctx.chain.traceTransaction(failure.hashHex, tracer);
    return run ? tracer.root : undefined;
  }
  // A call or estimate, or a send whose estimate reverted: its request, run as a call. The parameters decoded once already.
  if (method.params[0]?.name !== 'transaction') return undefined;
  const [request, ref, state, block] = method.params.map((p, i) => p.decode(params[i], `params[${i}]`)) as [
    CallRequest | undefined,
    BlockRef | undefined,
    StateOverride[] | undefined,
    BlockOverrides | undefined,
  ];
  const sends = method.name !== 'chain_call' && method.name !== 'chain_estimateGas';
  await ctx.chain.traceCall(request ?? {}, sends ? { tag: 'latest' } : (ref ?? { tag: 'latest' }), tracer, sends ? undefined : callOverrides(state, block));
  return tracer.root;
}

function reasonJson(reason: RevertReason, evmError: string): Json {
  if (evmError !== 'revert') return { kind: 'vmError', error: evmError };
  switch (reason.kind) {
    case 'customError':
      return {
        kind: 'customError',
        name: reason.name,
        signature: reason.signature,
        args: reason.args.map((arg) => ({ name: arg.name, type: arg.type, value: jsonValue(arg.value) })),
      };
    case 'errorString':
      return { kind: 'errorString', text: reason.text };
    case 'panic': {
      const description = hardhatPanicDescription(reason.code);
      return { kind: 'panic', code: `0x${reason.code.toString(16)}`, ...(description === undefined ? {} : { description }) };
    }
    default:
      return { kind: reason.kind };
  }
}

function frameJson(named: NamedFrame): Json {
  const address = frameAddress(named.frame);
  return {
    contract: named.contract?.name ?? UNRECOGNIZED_CONTRACT,
    function: named.functionName,
    ...(named.item ? { signature: signatureOf(named.item) } : {}),
    ...(named.contract ? { file: named.contract.sourceName } : {}),
    ...(address === undefined ? {} : { address }),
    call: named.frame.type,
  };
}

/** Hardhat's stack line: `Token.transfer (contracts/Token.sol)`; an unknown contract by its address. */
function callSite(named: NamedFrame): string {
  const file = named.contract?.sourceName ?? frameAddress(named.frame) ?? 'unknown';
  return `${named.contract?.name ?? UNRECOGNIZED_CONTRACT}.${named.functionName} (${file})`;
}
