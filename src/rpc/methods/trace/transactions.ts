/**
 * Parity/OpenEthereum's traces of mined transactions, as Erigon and Anvil answer them
 * (traceOutput.ts's parityTraces): trace_transaction, trace_get, trace_block and trace_filter.
 */
import type { Address } from '@ethereumjs/util';
import { type Chain, CallTracer, TraceBudget, traceTooLarge } from '../../../engine/index.js';
import { address, arrayOf, blockNumberOrTag, hash, index } from '../../codec.js';
import { invalidParams, serverError } from '../../errors.js';
import type { Json, JsonObject } from '../../json.js';
import { defineMethod, param } from '../../method.js';
import { type ForkForwarding, blockArgument, transactionArgument } from '../../forkForwarding.js';
import { TraceNames } from '../../namedTraceOutput.js';
import { parityTraces } from '../../traceOutput.js';

/** Every transaction of a block, its Parity traces with their block fields. */
async function blockTraces(chain: Chain, number: bigint, budget: TraceBudget, names: TraceNames | undefined): Promise<JsonObject[]> {
  if (number === 0n) return []; // Erigon: the genesis block has no traces
  const tracers: CallTracer[] = [];
  const runs = await chain.traceBlock({ number }, (i) => (tracers[i] = new CallTracer(false, budget, names !== undefined)));
  if (budget.exceeded) throw traceTooLarge('traces');
  return runs.flatMap(({ run }, i) => parityTraces(tracers[i]!, run, true, names));
}

async function transactionTraces(chain: Chain, txHash: string, names: TraceNames | undefined): Promise<JsonObject[] | null> {
  const budget = new TraceBudget();
  const tracer = new CallTracer(false, budget, names !== undefined);
  const run = await chain.traceTransaction(txHash, tracer);
  if (!run) return null;
  if (budget.exceeded) throw traceTooLarge('traces');
  return parityTraces(tracer, run, true, names);
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

/**
 * trace_filter on a fork: the blocks up to the pinned one are the upstream's to trace, the rest
 * this node's; `after` and `count` apply to the two parts joined, oldest first.
 */
const TRACE_FILTER_ON_FORK: ForkForwarding<readonly [TraceFilter]> = {
  upstream: 'trace_filter',
  target: ({ chain }, [filter], [sent]) => {
    const number = (ref: TraceFilter['fromBlock'], fallback: bigint): bigint | undefined => {
      if (!ref) return fallback;
      if ('number' in ref) return ref.number;
      if ('tag' in ref && ref.tag === 'earliest') return 0n;
      return 'tag' in ref && ref.tag === 'pending' ? undefined : chain.head.number;
    };
    const from = number(filter.fromBlock, 0n);
    const to = number(filter.toBlock, chain.head.number);
    if (from === undefined || to === undefined || from > to) return undefined;
    const { fromBlock: _from, toBlock: _to, after: _after, count: _count, ...rest } = sent as Record<string, unknown>;
    const hex = (n: bigint) => `0x${n.toString(16)}`;
    return {
      range: { from, to },
      params: (first, last) => [{ ...rest, fromBlock: hex(first), toBlock: hex(last) }],
      join: (older, newer) => {
        const all = [...(older as Json[]), ...((newer as Json[] | undefined) ?? [])];
        const after = filter.after ?? 0;
        return all.slice(after, filter.count === undefined ? undefined : after + filter.count);
      },
    };
  },
};

export const transactionTraceMethods = [
  defineMethod(
    { name: 'trace_transaction', forwardOnFork: transactionArgument('trace_transaction', 0) },
    [param('transactionHash', hash)],
    ({ chain, contracts }, txHash) => transactionTraces(chain, txHash, TraceNames.of(contracts)),
  ),
  defineMethod(
    { name: 'trace_get', forwardOnFork: transactionArgument('trace_get', 0) },
    [param('transactionHash', hash), param('indices', arrayOf(index))],
    async ({ chain, contracts }, txHash, indices) => {
      // Erigon (after Parity): one index only, counted from the first call below the top one.
      if (indices.length !== 1) return null;
      const traces = await transactionTraces(chain, txHash, TraceNames.of(contracts));
      return traces?.[indices[0]! + 1] ?? null;
    },
  ),
  defineMethod(
    { name: 'trace_block', forwardOnFork: blockArgument('trace_block', 0) },
    [param('block', blockNumberOrTag)],
    async ({ chain, contracts }, ref) => {
      if ('tag' in ref && ref.tag === 'pending') throw serverError('tracing the pending block is not supported');
      const mined = chain.find(ref);
      return mined ? blockTraces(chain, mined.number, new TraceBudget(), TraceNames.of(contracts)) : null;
    },
  ),
  defineMethod({ name: 'trace_filter', forwardOnFork: TRACE_FILTER_ON_FORK }, [param('filter', traceFilter)], async ({ chain, contracts }, filter) => {
    const names = TraceNames.of(contracts);
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
    for (let n = from; n <= to; n++) found.push(...(await blockTraces(chain, n, budget, names)).filter((trace) => matches(trace, filter)));
    const after = filter.after ?? 0;
    return found.slice(after, filter.count === undefined ? undefined : after + filter.count);
  }),
];
