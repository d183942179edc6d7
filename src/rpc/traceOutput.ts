/**
 * The tracer a TraceConfig names, attached to one transaction's run, and its answer in
 * go-ethereum's JSON, field for field (omitempty fields left out as go-ethereum leaves them).
 */
import {
  type CallFrame,
  CallTracer,
  type ExecutionTracer,
  type StructLog,
  type StructLogStore,
  StructLogTracer,
  type TraceBudget,
  type TracedRun,
  traceTooLarge,
  PrestateTracer,
  type PrestateAccount,
  MuxTracer,
  NoopTracer,
  flattenCalls,
  selectorCounts,
} from '../engine/index.js';
import { encodeData, encodeQuantity } from './encode.js';
import { type Json, JsonArrayView, type JsonObject } from './json.js';
import type { TraceNames } from './namedTraceOutput.js';
import type { StructLogConfig, TracerConfig } from './traceConfig.js';

export interface ActiveTrace {
  readonly tracer: ExecutionTracer;
  /** The answer once the run is over (throws `trace too large` past the budget). */
  result(run: TracedRun): Json;
}

/**
 * A tracer for `config`, counting against `budget` (shared by the transactions of one answer);
 * with `names` (the project's contracts), call frames of known code are named (namedTraceOutput.ts).
 */
export function startTrace(config: TracerConfig, budget: TraceBudget, names?: TraceNames): ActiveTrace {
  switch (config.tracer) {
    case 'structLogs': {
      const measure = config.limit > 0 ? (log: StructLog) => JSON.stringify(formatStructLog(log)).length : undefined;
      const tracer = new StructLogTracer({ ...config, measure }, budget);
      return { tracer, result: (run) => checked(budget, () => structLogResult(tracer, run), 'struct logs') };
    }
    case 'callTracer': {
      const tracer = new CallTracer(config.withLog, budget, names !== undefined);
      return { tracer, result: (run) => checked(budget, () => callTracerResult(tracer, run, config.onlyTopCall, config.withLog, names)) };
    }
    case 'flatCallTracer': {
      const tracer = new CallTracer(false, budget, names !== undefined);
      return { tracer, result: (run) => checked(budget, () => flatCallResult(tracer, run, config.includePrecompiles, config.convertParityErrors, names)) };
    }
    case '4byteTracer': {
      const tracer = new CallTracer(false, budget);
      return {
        tracer,
        result: () =>
          checked(budget, () => {
            if (!tracer.root) return {};
            const counts = [...selectorCounts(tracer.root).values()].map(({ selector, size, count }) => [`${encodeData(selector)}-${size}`, count] as const);
            return Object.fromEntries(counts.sort(([a], [b]) => (a < b ? -1 : 1)));
          }),
      };
    }
    case 'prestateTracer': {
      const tracer = new PrestateTracer(config, budget);
      return { tracer, result: () => checked(budget, () => prestateResult(tracer, config.diffMode)) };
    }
    case 'noopTracer':
      return { tracer: new NoopTracer(), result: () => ({}) };
    case 'muxTracer': {
      const inner = config.tracers.map(([name, innerConfig]) => [name, startTrace(innerConfig, budget, names)] as const);
      return {
        tracer: new MuxTracer(inner.map(([, active]) => active.tracer)),
        result: (run) => Object.fromEntries(inner.map(([name, active]) => [name, active.result(run)])),
      };
    }
  }
}

function checked(budget: TraceBudget, answer: () => Json, what = 'traces'): Json {
  if (budget.exceeded) throw traceTooLarge(what);
  return answer();
}

// ---- struct logs ------------------------------------------------------------------------------

function structLogResult(tracer: StructLogTracer, { result }: TracedRun): Json {
  const failure = result.execResult.exceptionError;
  const keepOutput = !failure || failure.error === 'revert';
  return {
    gas: Number(result.totalGasSpent),
    failed: failure !== undefined,
    returnValue: encodeData(keepOutput ? result.execResult.returnValue : new Uint8Array()),
    // Formatted as the answer is written (json.ts): a long trace's records are never all JSON objects at once.
    structLogs: new JsonArrayView(
      tracer.logs.length,
      (i) => formatStructLog(tracer.logs.at(i)),
      (i) => structLogJson(tracer.logs, i),
    ),
  };
}

/**
 * Record `index` as the JSON text of `formatStructLog(logs.at(index))`, made from the store's
 * columns: no record, stack array or answer object per record (a trace of 262,230 records made
 * about six objects a record while its answer was written, and the collections over them
 * paused the node). Records with more than the columns (memory, storage, an error: rare) take
 * the general path.
 */
export function structLogJson(logs: StructLogStore, index: number): string {
  if (logs.hasExtras(index)) return JSON.stringify(formatStructLog(logs.at(index)));
  let text = `{"pc":${logs.pcAt(index)},"op":${JSON.stringify(logs.opAt(index))},"gas":${Number(logs.gasAt(index))},"gasCost":${Number(logs.gasCostAt(index))},"depth":${logs.depthAt(index)}`;
  const start = logs.stackStart(index);
  if (start >= 0) {
    const end = logs.stackEnd(index);
    text += ',"stack":[';
    for (let position = start; position < end; position++) text += `${position === start ? '"' : ',"'}${encodeQuantity(logs.stackWordAt(position))}"`;
    text += ']';
  }
  const refund = logs.refundAt(index);
  if (refund > 0n) text += `,"refund":${Number(refund)}`;
  return `${text}}`;
}

/** go-ethereum's record (since 1.17.2): memory words, storage keys and values 0x-prefixed. */
export function formatStructLog(log: StructLog): JsonObject {
  const out: JsonObject = { pc: log.pc, op: log.op, gas: Number(log.gas), gasCost: Number(log.gasCost), depth: log.depth };
  if (log.error !== undefined) out.error = log.error;
  if (log.stack) out.stack = log.stack.map((item) => encodeQuantity(item));
  if (log.returnData && log.returnData.length > 0) out.returnData = encodeData(log.returnData);
  if (log.memory && log.memory.length > 0) {
    const words: string[] = [];
    for (let i = 0; i < log.memory.length; i += 32) {
      const word = new Uint8Array(32);
      word.set(log.memory.subarray(i, i + 32));
      words.push(encodeData(word));
    }
    out.memory = words;
  }
  if (log.storage && log.storage.size > 0) out.storage = Object.fromEntries([...log.storage].map(([key, value]) => [`0x${key}`, `0x${value}`]));
  if (log.refund > 0n) out.refund = Number(log.refund);
  return out;
}

// ---- call tree --------------------------------------------------------------------------------

/** The transaction's own frame reports the gas of the whole transaction, as its receipt does. */
function topFrame(tracer: CallTracer, { result, logsBefore }: TracedRun): CallFrame | undefined {
  tracer.numberLogs(logsBefore);
  return tracer.root && { ...tracer.root, gasUsed: result.totalGasSpent };
}

function callTracerResult(tracer: CallTracer, run: TracedRun, onlyTopCall: boolean, withLog: boolean, names: TraceNames | undefined): Json {
  const root = topFrame(tracer, run);
  if (!root) return null;
  // onlyTopCall: go-ethereum records no callee, so each log comes after none of them.
  const shown = onlyTopCall ? { ...root, calls: [], logs: root.logs.map((log) => ({ ...log, position: 0 })) } : root;
  const out = formatFrame(shown);
  names?.callFrame(out, shown, withLog);
  return out;
}

/** go-ethereum's call frame; empty fields are left out, as its omitempty tags leave them. */
export function formatFrame(frame: CallFrame): JsonObject {
  const out: JsonObject = { from: frame.from.toString(), gas: encodeQuantity(frame.gas), gasUsed: encodeQuantity(frame.gasUsed) };
  if (frame.to) out.to = frame.to.toString();
  out.input = encodeData(frame.input);
  if (frame.output.length > 0) out.output = encodeData(frame.output);
  if (frame.error !== undefined) out.error = frame.error;
  if (frame.revertReason !== undefined) out.revertReason = frame.revertReason;
  if (frame.logs.length > 0) {
    out.logs = frame.logs.map((log) => ({
      address: log.address.toString(),
      topics: log.topics.map(encodeData),
      data: encodeData(log.data),
      index: encodeQuantity(log.index),
      position: encodeQuantity(log.position),
    }));
  }
  if (frame.calls.length > 0) out.calls = frame.calls.map(formatFrame);
  if (frame.value !== undefined) out.value = encodeQuantity(frame.value);
  out.type = frame.type;
  return out;
}

/** go-ethereum's flatCallTracer errors in Parity's words (convertParityErrors). */
const PARITY_ERRORS: Record<string, string> = {
  'contract creation code storage out of gas': 'Out of gas',
  'out of gas': 'Out of gas',
  'gas uint64 overflow': 'Out of gas',
  'max code size exceeded': 'Out of gas',
  'code size to deposit exceeds maximum code size': 'Out of gas',
  'invalid jump destination': 'Bad jump destination',
  'invalid JUMP': 'Bad jump destination',
  'execution reverted': 'Reverted',
  'return data out of bounds': 'Out of bounds',
  'stack limit reached 1024 (1023)': 'Out of stack',
  'stack overflow': 'Out of stack',
  'precompiled failed': 'Built-in failed',
  'invalid input length': 'Built-in failed',
  'invalid opcode': 'Bad instruction',
  'stack underflow': 'Stack underflow',
};

export function parityError(error: string): string {
  return PARITY_ERRORS[error] ?? (error.startsWith('out of gas:') ? 'Out of gas' : error.startsWith('invalid opcode:') ? 'Bad instruction' : error);
}

function flatCallResult(tracer: CallTracer, run: TracedRun, includePrecompiles: boolean, convertErrors: boolean, names: TraceNames | undefined): Json {
  const root = topFrame(tracer, run);
  return root ? flatFrames(root, run, includePrecompiles, convertErrors, true, false, names) : [];
}

/**
 * Parity's traces (trace_*), as Erigon and Anvil answer them: precompile calls included,
 * errors in Parity's words, and the top frame's gas and gasUsed without the intrinsic gas
 * (what the EVM ran with, not what the transaction paid). `located`: with the block and
 * transaction fields (trace_transaction, trace_block), or without (trace_replay*, trace_call).
 */
export function parityTraces(tracer: CallTracer, run: TracedRun, located: boolean, names?: TraceNames): JsonObject[] {
  tracer.numberLogs(run.logsBefore);
  return tracer.root ? flatFrames(tracer.root, run, true, true, located, true, names) : [];
}

/** `parity`: a frame that failed has `result: null` (Erigon, Anvil), where go-ethereum leaves it out. */
function flatFrames(
  root: CallFrame,
  run: TracedRun,
  includePrecompiles: boolean,
  convertErrors: boolean,
  located: boolean,
  parity = false,
  names?: TraceNames,
): JsonObject[] {
  const entries = flatEntries(root, run, includePrecompiles, convertErrors, located, parity);
  if (names) entries.forEach(({ frame, out }) => names.flatEntry(out, frame));
  return entries.map(({ out }) => out);
}

function flatEntries(
  root: CallFrame,
  run: TracedRun,
  includePrecompiles: boolean,
  convertErrors: boolean,
  located: boolean,
  parity: boolean,
): { frame: CallFrame; out: JsonObject }[] {
  const { location } = run;
  return flattenCalls(root, includePrecompiles).map(({ frame, traceAddress, subtraces }) => ({ frame, out: flatEntry(frame, traceAddress, subtraces) }));

  function flatEntry(frame: CallFrame, traceAddress: readonly number[], subtraces: number): JsonObject {
    const created = frame.type === 'CREATE' || frame.type === 'CREATE2';
    const value = encodeQuantity(frame.value ?? 0n);
    if (frame.type === 'SELFDESTRUCT') {
      // Parity's "suicide": no result (null in Parity's own answers).
      const out: JsonObject = { action: { address: frame.from.toString(), balance: value, refundAddress: frame.to?.toString() } };
      if (located)
        Object.assign(out, { blockHash: location ? encodeData(location.blockHash) : null, blockNumber: location ? Number(location.blockNumber) : 0 });
      if (parity) out.result = null;
      Object.assign(out, { subtraces, traceAddress: [...traceAddress] });
      if (located) Object.assign(out, { transactionHash: location ? encodeData(location.txHash) : null, transactionPosition: location?.index ?? 0 });
      out.type = 'suicide';
      return out;
    }
    const action: JsonObject = created
      ? { from: frame.from.toString(), gas: encodeQuantity(frame.gas), init: encodeData(frame.input), value, creationMethod: frame.type.toLowerCase() }
      : {
          from: frame.from.toString(),
          callType: frame.type.toLowerCase(),
          gas: encodeQuantity(frame.gas),
          input: encodeData(frame.input),
          to: frame.to?.toString(),
          value,
        };
    const out: JsonObject = { action };
    if (located) {
      out.blockHash = location ? encodeData(location.blockHash) : null;
      out.blockNumber = location ? Number(location.blockNumber) : 0;
    }
    if (frame.error !== undefined) out.error = convertErrors ? parityError(frame.error) : frame.error;
    // A frame that failed other than by REVERT has no result.
    if (frame.error === undefined || frame.error === 'execution reverted') {
      out.result = created
        ? {
            ...(frame.error === undefined && frame.to ? { address: frame.to.toString() } : {}),
            code: encodeData(frame.output),
            gasUsed: encodeQuantity(frame.gasUsed),
          }
        : { gasUsed: encodeQuantity(frame.gasUsed), output: encodeData(frame.output) };
    } else if (parity) out.result = null;
    out.subtraces = subtraces;
    out.traceAddress = [...traceAddress];
    if (located) {
      out.transactionHash = location ? encodeData(location.txHash) : null;
      out.transactionPosition = location?.index ?? 0;
    }
    out.type = created ? 'create' : 'call';
    return out;
  }
}

// ---- prestate --------------------------------------------------------------------------------

function prestateResult(tracer: PrestateTracer, diffMode: boolean): Json {
  const pre = formatAccounts(tracer.pre);
  return diffMode ? { post: formatAccounts(tracer.post), pre } : pre;
}

/** Addresses in order, as go-ethereum's JSON writes a map. */
function formatAccounts(accounts: ReadonlyMap<string, PrestateAccount>): JsonObject {
  const sorted = [...accounts].sort(([a], [b]) => (a < b ? -1 : 1));
  return Object.fromEntries(sorted.map(([address, account]) => [address, formatAccount(account)]));
}

function formatAccount(account: PrestateAccount): JsonObject {
  const out: JsonObject = {};
  if (account.balance !== undefined) out.balance = encodeQuantity(account.balance);
  if (account.code !== undefined) out.code = encodeData(account.code);
  if (account.codeHash !== undefined) out.codeHash = encodeData(account.codeHash);
  if (account.nonce > 0n) out.nonce = Number(account.nonce);
  if (account.storage && account.storage.size > 0) {
    const slots = [...account.storage].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    out.storage = Object.fromEntries(slots.map(([slot, value]) => [word(slot), word(value)]));
  }
  return out;
}

function word(value: bigint): string {
  return `0x${value.toString(16).padStart(64, '0')}`;
}

export type { StructLogConfig };
