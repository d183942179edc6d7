/**
 * Parity/OpenEthereum's trace_* methods, as Erigon and Anvil answer them (traceOutput.ts's
 * parityTraces): trace_transaction, trace_get, trace_block, trace_filter, and the replays
 * trace_replayTransaction, trace_replayBlockTransactions, trace_call, trace_callMany and
 * trace_rawTransaction with the `trace`, `stateDiff` and `vmTrace` types.
 */
import type { Chain } from '../../engine/chain.js';
import type { CallRequest } from '../../engine/execution/execution.js';
import { CallTracer, TraceBudget, type ExecutionTracer, type TracedRun, traceTooLarge } from '../../engine/tracers/tracing.js';
import { MuxTracer } from '../../engine/tracers/callTree.js';
import { PrestateTracer } from '../../engine/tracers/prestate.js';
import { VmTracer } from '../../engine/tracers/vmTrace.js';
import { decodeRawTransaction } from '../../engine/transactions/validation.js';
import { address, arrayOf, blockNumberOrTag, blockRef, callRequest, data, hash, index } from '../codec.js';
import { encodeData, encodeQuantity } from '../encode.js';
import { invalidParams, serverError } from '../errors.js';
import type { Json, JsonObject } from '../json.js';
import { defineMethod, optionalParam, param } from '../method.js';
import { parityTraces } from '../traceOutput.js';
import { formatVmTrace } from '../vmTraceOutput.js';
import type { Address } from '@ethereumjs/util';

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
function replayTracers(types: ReadonlySet<TraceType>, budget: TraceBudget) {
  const calls = new CallTracer(false, budget);
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
        trace: types.has('trace') ? parityTraces(calls, run, false) : [],
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

/** Every transaction of a block, its Parity traces with their block fields. */
async function blockTraces(chain: Chain, number: bigint, budget: TraceBudget): Promise<JsonObject[]> {
  if (number === 0n) return []; // Erigon: the genesis block has no traces
  const tracers: CallTracer[] = [];
  const runs = await chain.traceBlock({ number }, (i) => (tracers[i] = new CallTracer(false, budget)));
  if (budget.exceeded) throw traceTooLarge('traces');
  return runs.flatMap(({ run }, i) => parityTraces(tracers[i]!, run, true));
}

async function transactionTraces(chain: Chain, txHash: string): Promise<JsonObject[] | null> {
  const budget = new TraceBudget();
  const tracer = new CallTracer(false, budget);
  const run = await chain.traceTransaction(txHash, tracer);
  if (!run) return null;
  if (budget.exceeded) throw traceTooLarge('traces');
  return parityTraces(tracer, run, true);
}

/** trace_filter's blocks per request: each is replayed, so a range costs what tracing each costs. */
const MAX_FILTER_BLOCKS = 10_000;

interface TraceFilter {
  readonly fromBlock?: ReturnType<typeof blockNumberOrTag>;
  readonly toBlock?: ReturnType<typeof blockNumberOrTag>;
  readonly fromAddress?: Address[];
  readonly toAddress?: Address[];
  readonly after?: number;
  readonly count?: number;
}

const FILTER_FIELDS = new Set(['fromBlock', 'toBlock', 'fromAddress', 'toAddress', 'after', 'count']);

const traceFilter = (value: unknown, path: string): TraceFilter => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidParams(`invalid argument ${path}: expected a filter object`);
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields)) if (!FILTER_FIELDS.has(key)) throw invalidParams(`invalid argument ${path}: unknown field "${key}"`);
  const opt = <T>(key: string, decode: (v: unknown, p: string) => T): T | undefined =>
    fields[key] === undefined || fields[key] === null ? undefined : decode(fields[key], `${path}.${key}`);
  return {
    fromBlock: opt('fromBlock', blockNumberOrTag),
    toBlock: opt('toBlock', blockNumberOrTag),
    fromAddress: opt('fromAddress', arrayOf(address)),
    toAddress: opt('toAddress', arrayOf(address)),
    after: opt('after', (v, p) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : index(v, p))),
    count: opt('count', (v, p) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : index(v, p))),
  };
};

function matches(trace: JsonObject, filter: TraceFilter): boolean {
  const action = trace.action as JsonObject;
  const result = trace.result as JsonObject | undefined;
  const from = action.from as string;
  const to = (action.to ?? result?.address) as string | undefined;
  const within = (list: Address[] | undefined, value: string | undefined) =>
    !list || list.length === 0 || (value !== undefined && list.some((a) => a.toString() === value));
  return within(filter.fromAddress, from) && within(filter.toAddress, to);
}

async function replayCall(chain: Chain, request: CallRequest, types: ReadonlySet<TraceType>, ref: ReturnType<typeof blockRef>): Promise<JsonObject> {
  const replay = replayTracers(types, new TraceBudget());
  return replay.result(await chain.traceCall(request, ref, replay.tracer));
}

export const parityTraceMethods = [
  defineMethod('trace_transaction', [param('transactionHash', hash)], ({ chain }, txHash) => transactionTraces(chain, txHash)),
  defineMethod('trace_get', [param('transactionHash', hash), param('indices', arrayOf(index))], async ({ chain }, txHash, indices) => {
    // Erigon (after Parity): one index only, counted from the first call below the top one.
    if (indices.length !== 1) return null;
    const traces = await transactionTraces(chain, txHash);
    return traces?.[indices[0]! + 1] ?? null;
  }),
  defineMethod('trace_block', [param('block', blockNumberOrTag)], async ({ chain }, ref) => {
    if ('tag' in ref && ref.tag === 'pending') throw serverError('tracing the pending block is not supported');
    const mined = chain.find(ref);
    return mined ? blockTraces(chain, mined.number, new TraceBudget()) : null;
  }),
  defineMethod('trace_filter', [param('filter', traceFilter)], async ({ chain }, filter) => {
    const number = (ref: TraceFilter['fromBlock'], fallback: bigint): bigint => {
      if (!ref) return fallback;
      if ('tag' in ref && ref.tag === 'pending') throw invalidParams('invalid argument 0 (filter): the pending block cannot be traced');
      return chain.resolve(ref).number;
    };
    const from = number(filter.fromBlock, 0n);
    const to = number(filter.toBlock, chain.head.number);
    if (to < from) throw invalidParams(`invalid argument 0 (filter): toBlock (${to}) before fromBlock (${from})`);
    if (to - from + 1n > BigInt(MAX_FILTER_BLOCKS))
      throw serverError(`trace_filter: at most ${MAX_FILTER_BLOCKS} blocks per request, asked for ${to - from + 1n}`);
    const budget = new TraceBudget();
    const found: JsonObject[] = [];
    for (let n = from; n <= to; n++) found.push(...(await blockTraces(chain, n, budget)).filter((trace) => matches(trace, filter)));
    const after = filter.after ?? 0;
    return found.slice(after, filter.count === undefined ? undefined : after + filter.count);
  }),
  defineMethod('trace_replayTransaction', [param('transactionHash', hash), param('traceTypes', traceTypes)], async ({ chain }, txHash, types) => {
    const replay = replayTracers(types, new TraceBudget());
    const run = await chain.traceTransaction(txHash, replay.tracer);
    if (!run) throw serverError('transaction not found');
    return replay.result(run);
  }),
  defineMethod('trace_replayBlockTransactions', [param('block', blockNumberOrTag), param('traceTypes', traceTypes)], async ({ chain }, ref, types) => {
    if ('tag' in ref && ref.tag === 'pending') throw serverError('tracing the pending block is not supported');
    const mined = chain.find(ref);
    if (!mined) return null;
    if (mined.number === 0n) return [];
    const budget = new TraceBudget();
    const replays: Array<ReturnType<typeof replayTracers>> = [];
    const runs = await chain.traceBlock({ number: mined.number }, (i) => (replays[i] = replayTracers(types, budget)).tracer);
    return runs.map(({ hash: txHash, run }, i) => ({ ...replays[i]!.result(run), transactionHash: encodeData(txHash) }));
  }),
  defineMethod(
    'trace_call',
    [param('transaction', callRequest), param('traceTypes', traceTypes), optionalParam('block', blockRef)],
    ({ chain }, request, types, ref) => replayCall(chain, request, types, ref ?? { tag: 'latest' }),
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
    async ({ chain }, calls, ref) => {
      const budget = new TraceBudget();
      const replays = calls.map(([, types]) => replayTracers(types, budget));
      const runs = await chain.traceCalls(
        calls.map(([request]) => request),
        ref ?? { tag: 'latest' },
        (i) => replays[i]!.tracer,
      );
      return runs.map((run, i) => replays[i]!.result(run));
    },
  ),
  defineMethod('trace_rawTransaction', [param('transaction', data), param('traceTypes', traceTypes)], async ({ chain }, raw, types) => {
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
    return replayCall(chain, request, types, { tag: 'pending' });
  }),
];
