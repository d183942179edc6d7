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
import { type RevertReason, customErrorText, decodeRevert, failurePath, frameAddress, nameFrame } from '../contracts/failure.js';
import type { ContractRegistry } from '../contracts/registry.js';
import { type SourceFrame, solidityStack } from '../contracts/stackTrace.js';
import {
  type FrameSteps,
  StepRecorder,
  bothTracers,
  type BlockRef,
  type CallRequest,
  type CallFrame,
  CallTracer,
  RevertError,
  TransactionFailedError,
  type BlockOverrides,
  type StateOverride,
} from '../engine/index.js';
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
  'eth_sendTransaction',
  'eth_sendRawTransaction',
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
  const run = await tracedRun(ctx, method, params, failure);
  const path = run ? failurePath(run.root).map((frame) => nameFrame(contracts, frame)) : [];
  const solidity = solidityStack(path, run?.steps ?? new Map());
  const evmError = failure instanceof TransactionFailedError ? failure.error : 'revert';
  const data = failure.data;
  const reason = decodeRevert(contracts, evmError === 'revert' ? data : new Uint8Array());
  const custom = reason.kind === 'customError' ? customErrorText(reason) : undefined;
  const message = solidity.inferred ?? hardhatFailureMessage(evmError, data, custom);
  const stack = [...solidity.frames].reverse();
  const decoded: Json = { message, reason: reasonJson(reason, evmError), stack: stack.map(frameJson) };
  const what = failure instanceof TransactionFailedError ? `Transaction ${failure.hashHex}` : method.name === 'chain_estimateGas' ? 'Gas estimate' : 'Call';
  const lines = [`${what} failed: ${message}`, ...stack.map((frame) => `    at ${callSite(frame)}`)];
  if (failure instanceof TransactionFailedError) return { error: hardhatSendError(failure, message, decoded), lines };
  const text = custom === undefined ? failure.message : `execution reverted: custom error '${custom}'`;
  return { error: new RpcError(ErrorCode.executionReverted, text, encodeData(data), decoded), lines };
}

/** The call tree of the failed run, run again with each frame's code and steps; undefined when it cannot be run again. */
async function tracedRun(
  ctx: RpcContext,
  method: RpcMethod,
  params: readonly unknown[],
  failure: RevertError | TransactionFailedError,
): Promise<{ root: CallFrame; steps: Map<CallFrame, FrameSteps> } | undefined> {
  const calls = new CallTracer(false, undefined, true);
  const recorder = new StepRecorder();
  const tracer = bothTracers(calls, recorder);
  const traced = () => (calls.root ? { root: calls.root, steps: stepsByFrame(calls.root, recorder) } : undefined);
  if (failure instanceof TransactionFailedError) {
    const run = await ctx.chain.traceTransaction(failure.hashHex, tracer);
    return run ? traced() : undefined;
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
  return traced();
}

/** The recorder's frames are the messages in the order they began: the call tree in pre-order, without SELFDESTRUCT entries. */
function stepsByFrame(root: CallFrame, recorder: StepRecorder): Map<CallFrame, FrameSteps> {
  const map = new Map<CallFrame, FrameSteps>();
  let next = 0;
  const visit = (frame: CallFrame) => {
    if (frame.type === 'SELFDESTRUCT') return;
    const steps = recorder.frames[next++];
    if (steps) map.set(frame, steps);
    frame.calls.forEach(visit);
  };
  visit(root);
  return map;
}

/** The `reason` member of `decoded` (and of a named trace's `decodedError`). */
export function reasonJson(reason: RevertReason, evmError: string): Json {
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

/** A frame of `decoded.stack`: the external call's opcode and the function's signature on the frame it entered by. */
function frameJson(source: SourceFrame): Json {
  const named = source.external;
  const address = frameAddress(named.frame);
  return {
    contract: source.contract,
    function: source.function,
    ...(source.file === undefined ? {} : { file: source.file }),
    ...(source.line === undefined ? {} : { line: source.line }),
    ...(address === undefined ? {} : { address }),
    ...(source.entry ? { call: named.frame.type, ...(named.item ? { signature: signatureOf(named.item) } : {}) } : {}),
  };
}

/** Hardhat's stack line: `Token._transfer (contracts/Token.sol:61)`; an unknown contract by its address. */
function callSite(source: SourceFrame): string {
  const file = source.file ?? frameAddress(source.external.frame) ?? 'unknown';
  return `${source.contract}.${source.function} (${file}${source.line === undefined ? '' : `:${source.line}`})`;
}
