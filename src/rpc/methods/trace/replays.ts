/**
 * Parity/OpenEthereum's replays, as Erigon and Anvil answer them (traceOutput.ts's parityTraces):
 * trace_replayTransaction, trace_replayBlockTransactions, trace_call, trace_callMany and
 * trace_rawTransaction with the `trace`, `stateDiff` and `vmTrace` types.
 */
import {
  type Chain,
  type CallRequest,
  CallTracer,
  TraceBudget,
  type ExecutionTracer,
  type TracedRun,
  traceTooLarge,
  MuxTracer,
  PrestateTracer,
  VmTracer,
  decodeRawTransaction,
} from '../../../engine/index.js';
import { arrayOf, blockNumberOrTag, blockRef, callRequest, data, hash } from '../../codec.js';
import { encodeData, encodeQuantity } from '../../encode.js';
import { invalidParams, serverError } from '../../errors.js';
import type { Json, JsonObject } from '../../json.js';
import { defineMethod, optionalParam, param } from '../../method.js';
import { blockArgument, transactionArgument } from '../../forkForwarding.js';
import { TraceNames } from '../../namedTraceOutput.js';
import { parityTraces } from '../../traceOutput.js';
import { formatVmTrace } from '../../vmTraceOutput.js';

type TraceType = 'trace' | 'stateDiff' | 'vmTrace';

const TRACE_TYPES: readonly string[] = ['trace', 'stateDiff', 'vmTrace'];

/** The replay types: `trace` (the calls), `stateDiff` (what changed), `vmTrace` (every opcode). */
const traceTypes = (value: unknown, path: string): ReadonlySet<TraceType> => {
  if (!Array.isArray(value)) throw invalidParams(`invalid argument ${path}: expected an array of trace types ("trace", "stateDiff", "vmTrace")`);
  for (const type of value) {
    if (!TRACE_TYPES.includes(type))
      throw invalidParams(`invalid argument ${path}: unknown trace type ${JSON.stringify(type)}; expected "trace", "stateDiff" or "vmTrace"`);
  }
  return new Set(value as TraceType[]);
};

/** One transaction's tracers for a replay: the call tree always (its output), the state diff when asked. */
function replayTracers(types: ReadonlySet<TraceType>, budget: TraceBudget, names: TraceNames | undefined) {
  const calls = new CallTracer(false, budget, names !== undefined);
  const state = types.has('stateDiff')
    ? new PrestateTracer({ diffMode: true, includeEmpty: true, disableCode: false, disableStorage: false }, budget)
    : undefined;
  const vm = types.has('vmTrace') ? new VmTracer(budget) : undefined;
  const tracers: ExecutionTracer[] = [calls, ...(state ? [state] : []), ...(vm ? [vm] : [])];
  const tracer: ExecutionTracer = tracers.length > 1 ? new MuxTracer(tracers) : calls;
  return {
    tracer,
    result(run: TracedRun): JsonObject {
      if (budget.exceeded) throw traceTooLarge('traces');
      const { execResult } = run.result;
      const failed = execResult.exceptionError !== undefined && execResult.exceptionError.error !== 'revert';
      return {
        output: encodeData(failed ? new Uint8Array() : execResult.returnValue),
        stateDiff: state ? stateDiff(state) : null,
        trace: types.has('trace') ? parityTraces(calls, run, false, names) : [],
        vmTrace: vm?.root ? formatVmTrace(vm.root) : null,
      };
    },
  };
}

/** Parity's stateDiff: per account, each field "=" (same), {"+": new}, {"-": old} or {"*": {from, to}}. */
function stateDiff(tracer: PrestateTracer): JsonObject {
  const out: JsonObject = {};
  const entries = [...tracer.pre].sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [key, before] of entries) {
    const after = tracer.post.get(key);
    const destroyed = tracer.deleted.has(key);
    if (!after && !destroyed) continue;
    if (before.empty && after) {
      out[key] = {
        balance: { '+': encodeQuantity(after.balance ?? 0n) },
        code: { '+': encodeData(after.code ?? new Uint8Array()) },
        nonce: { '+': encodeQuantity(after.nonce) },
        storage: Object.fromEntries([...(after.storage ?? [])].map(([slot, value]) => [word(slot), { '+': word(value) }])),
      };
      continue;
    }
    if (destroyed) {
      out[key] = {
        balance: { '-': encodeQuantity(before.balance ?? 0n) },
        code: { '-': encodeData(before.code ?? new Uint8Array()) },
        nonce: { '-': encodeQuantity(before.nonce) },
        storage: Object.fromEntries([...(before.storage ?? [])].map(([slot, value]) => [word(slot), { '-': word(value) }])),
      };
      continue;
    }
    const changed = (from: string, to: string | undefined): Json => (to === undefined ? '=' : { '*': { from, to } });
    const slots = new Set([...(before.storage?.keys() ?? []), ...(after!.storage?.keys() ?? [])]);
    out[key] = {
      balance: changed(encodeQuantity(before.balance ?? 0n), after!.balance === undefined ? undefined : encodeQuantity(after!.balance)),
      code: changed(encodeData(before.code ?? new Uint8Array()), after!.code === undefined ? undefined : encodeData(after!.code)),
      nonce: changed(encodeQuantity(before.nonce), after!.nonce === 0n ? undefined : encodeQuantity(after!.nonce)),
      storage: Object.fromEntries(
        [...slots]
          .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
          .map((slot) => [word(slot), { '*': { from: word(before.storage?.get(slot) ?? 0n), to: word(after!.storage?.get(slot) ?? 0n) } }]),
      ),
    };
  }
  return out;
}

function word(value: bigint): string {
  return `0x${value.toString(16).padStart(64, '0')}`;
}

async function replayCall(
  chain: Chain,
  request: CallRequest,
  types: ReadonlySet<TraceType>,
  ref: ReturnType<typeof blockRef>,
  names: TraceNames | undefined,
): Promise<JsonObject> {
  const replay = replayTracers(types, new TraceBudget(), names);
  return replay.result(await chain.traceCall(request, ref, replay.tracer));
}

export const replayTraceMethods = [
  defineMethod(
    { name: 'trace_replayTransaction', forwardOnFork: transactionArgument('trace_replayTransaction', 0) },
    [param('transactionHash', hash), param('traceTypes', traceTypes)],
    async ({ chain, contracts }, txHash, types) => {
      const replay = replayTracers(types, new TraceBudget(), TraceNames.of(contracts));
      const run = await chain.traceTransaction(txHash, replay.tracer);
      if (!run) throw serverError('transaction not found');
      return replay.result(run);
    },
  ),
  defineMethod(
    { name: 'trace_replayBlockTransactions', forwardOnFork: blockArgument('trace_replayBlockTransactions', 0) },
    [param('block', blockNumberOrTag), param('traceTypes', traceTypes)],
    async ({ chain, contracts }, ref, types) => {
      if ('tag' in ref && ref.tag === 'pending') throw serverError('tracing the pending block is not supported');
      const mined = chain.find(ref);
      if (!mined) return null;
      if (mined.number === 0n) return [];
      const budget = new TraceBudget();
      const names = TraceNames.of(contracts);
      const replays: Array<ReturnType<typeof replayTracers>> = [];
      const runs = await chain.traceBlock({ number: mined.number }, (i) => (replays[i] = replayTracers(types, budget, names)).tracer);
      return runs.map(({ hash: txHash, run }, i) => ({ ...replays[i]!.result(run), transactionHash: encodeData(txHash) }));
    },
  ),
  defineMethod(
    'trace_call',
    [param('transaction', callRequest), param('traceTypes', traceTypes), optionalParam('block', blockRef)],
    ({ chain, contracts }, request, types, ref) => replayCall(chain, request, types, ref ?? { tag: 'latest' }, TraceNames.of(contracts)),
  ),
  defineMethod(
    'trace_callMany',
    [
      param(
        'calls',
        arrayOf((value, path) => {
          if (!Array.isArray(value) || value.length !== 2) throw invalidParams(`invalid argument ${path}: expected [call object, trace types]`);
          return [callRequest(value[0], `${path}[0]`), traceTypes(value[1], `${path}[1]`)] as const;
        }, 1000),
      ),
      optionalParam('block', blockRef),
    ],
    async ({ chain, contracts }, calls, ref) => {
      const budget = new TraceBudget();
      const names = TraceNames.of(contracts);
      const replays = calls.map(([, types]) => replayTracers(types, budget, names));
      const runs = await chain.traceCalls(
        calls.map(([request]) => request),
        ref ?? { tag: 'latest' },
        (i) => replays[i]!.tracer,
      );
      return runs.map((run, i) => replays[i]!.result(run));
    },
  ),
  defineMethod('trace_rawTransaction', [param('transaction', data), param('traceTypes', traceTypes)], async ({ chain, contracts }, raw, types) => {
    const tx = decodeRawTransaction(raw, chain.common);
    const request: CallRequest = {
      from: tx.getSenderAddress(),
      to: tx.to,
      gas: tx.gasLimit,
      value: tx.value,
      data: tx.data,
      ...('maxFeePerGas' in tx
        ? { maxFeePerGas: tx.maxFeePerGas as bigint, maxPriorityFeePerGas: (tx as { maxPriorityFeePerGas: bigint }).maxPriorityFeePerGas }
        : { gasPrice: (tx as { gasPrice: bigint }).gasPrice }),
    };
    return replayCall(chain, request, types, { tag: 'pending' }, TraceNames.of(contracts));
  }),
];
