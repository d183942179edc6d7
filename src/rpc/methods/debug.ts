/**
 * debug_traceTransaction and debug_traceCall with go-ethereum's two built-in tracers that
 * test tools ask for: the struct logger (the default) and callTracer. Output is
 * go-ethereum's JSON, field for field.
 */
import { CallTracer, type CallFrame, type StructLog, StructLogTracer, type TracedRun, traceTooLarge } from '../../engine/tracing.js';
import { blockRef, callRequest, hash } from '../codec.js';
import { encodeData, encodeQuantity } from '../encode.js';
import { invalidParams, serverError } from '../errors.js';
import type { Json, JsonObject } from '../json.js';
import { defineMethod, optionalParam, param } from '../method.js';
import { clip } from '../../engine/clip.js';

type TraceConfig =
  | { readonly tracer: 'structLogs'; readonly disableStack: boolean; readonly disableStorage: boolean; readonly enableMemory: boolean; readonly limit: number }
  | { readonly tracer: 'callTracer'; readonly onlyTopCall: boolean; readonly withLog: boolean };

const CONFIG_KEYS = new Set(['tracer', 'tracerConfig', 'disableStack', 'disableStorage', 'enableMemory', 'enableReturnData', 'timeout', 'reexec', 'debug', 'limit']);

/** go-ethereum's TraceConfig; `timeout`, `reexec` and `debug` are accepted and have nothing to do here. */
const traceConfig = (value: unknown, path: string): TraceConfig => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidParams(`invalid argument ${path}: expected a trace config object`);
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!CONFIG_KEYS.has(key)) throw invalidParams(`invalid argument ${path}: unknown field "${clip(key)}" (state and block overrides are not supported)`);
  }
  const flag = (key: string, within: Record<string, unknown> = fields, where = path): boolean => {
    const flagValue = within[key];
    if (flagValue === undefined || flagValue === null) return false;
    if (typeof flagValue !== 'boolean') throw invalidParams(`invalid argument ${where}.${key}: expected a boolean`);
    return flagValue;
  };
  if (flag('enableReturnData')) throw invalidParams(`invalid argument ${path}.enableReturnData: return data in struct logs is not supported`);
  const tracer = fields.tracer ?? '';
  if (tracer === '') {
    const limit = fields.limit ?? 0;
    if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0) throw invalidParams(`invalid argument ${path}.limit: expected a non-negative integer`);
    return { tracer: 'structLogs', disableStack: flag('disableStack'), disableStorage: flag('disableStorage'), enableMemory: flag('enableMemory'), limit };
  }
  if (tracer !== 'callTracer') {
    throw invalidParams(`invalid argument ${path}.tracer: ${JSON.stringify(tracer).slice(0, 40)} is not supported (the default struct logger and "callTracer" are)`);
  }
  const options = fields.tracerConfig ?? {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw invalidParams(`invalid argument ${path}.tracerConfig: expected an object`);
  const within = options as Record<string, unknown>;
  const where = `${path}.tracerConfig`;
  return { tracer: 'callTracer', onlyTopCall: flag('onlyTopCall', within, where), withLog: flag('withLog', within, where) };
};

function tracerFor(config: TraceConfig): StructLogTracer | CallTracer {
  return config.tracer === 'callTracer' ? new CallTracer(config.withLog) : new StructLogTracer(config);
}

/** The tracer's result in go-ethereum's layout, after the run it watched. */
function traceResult(tracer: StructLogTracer | CallTracer, config: TraceConfig, { result, logsBefore }: TracedRun): Json {
  if (tracer instanceof CallTracer) {
    tracer.numberLogs(logsBefore);
    if (!tracer.root) return null;
    // The transaction's own frame reports the gas of the whole transaction, as its receipt does.
    const root = { ...tracer.root, gasUsed: result.totalGasSpent };
    // onlyTopCall: go-ethereum records no callee, so each log comes after none of them.
    return formatFrame(config.tracer === 'callTracer' && config.onlyTopCall ? { ...root, calls: [], logs: root.logs.map((log) => ({ ...log, position: 0 })) } : root);
  }
  if (tracer.tooLarge) throw traceTooLarge(); // crossed on the last opcode
  const failure = result.execResult.exceptionError;
  const keepOutput = !failure || failure.error === 'revert';
  return {
    gas: Number(result.totalGasSpent),
    failed: failure !== undefined,
    returnValue: encodeData(keepOutput ? result.execResult.returnValue : new Uint8Array()),
    structLogs: tracer.logs.map(formatStructLog),
  };
}

function formatStructLog(log: StructLog): JsonObject {
  const out: JsonObject = { pc: log.pc, op: log.op, gas: Number(log.gas), gasCost: Number(log.gasCost), depth: log.depth };
  if (log.error !== undefined) out.error = log.error;
  if (log.stack) out.stack = log.stack.map((item) => encodeQuantity(item));
  if (log.memory && log.memory.length > 0) {
    const words: string[] = [];
    for (let i = 0; i + 32 <= log.memory.length; i += 32) words.push(Buffer.from(log.memory.subarray(i, i + 32)).toString('hex'));
    out.memory = words;
  }
  if (log.storage) out.storage = Object.fromEntries(log.storage);
  if (log.refund > 0n) out.refund = Number(log.refund);
  return out;
}

/** go-ethereum's call frame; empty fields are left out, as its omitempty tags leave them. */
function formatFrame(frame: CallFrame): JsonObject {
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

const DEFAULT_CONFIG: TraceConfig = { tracer: 'structLogs', disableStack: false, disableStorage: false, enableMemory: false, limit: 0 };

export const debugMethods = [
  defineMethod('chain_traceTransaction', [param('transactionHash', hash), optionalParam('config', traceConfig)], async ({ chain }, txHash, config = DEFAULT_CONFIG) => {
    const tracer = tracerFor(config);
    const run = await chain.traceTransaction(txHash, tracer);
    if (!run) throw serverError('transaction not found');
    return traceResult(tracer, config, run);
  }),
  defineMethod(
    'chain_traceCall',
    [param('transaction', callRequest), optionalParam('block', blockRef), optionalParam('config', traceConfig)],
    async ({ chain }, request, ref, config = DEFAULT_CONFIG) => {
      const tracer = tracerFor(config);
      return traceResult(tracer, config, await chain.traceCall(request, ref ?? { tag: 'latest' }, tracer));
    },
  ),
];
