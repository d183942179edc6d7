/**
 * go-ethereum's TraceConfig as debug_trace* read it: the struct logger's options, or a
 * built-in tracer by name with its tracerConfig. JavaScript tracers (code, or any other name)
 * are refused: chain-sim runs no client-supplied code. Unknown fields are refused too, rather
 * than silently dropped.
 */
import { clip } from '../engine/util/clip.js';
import { invalidParams } from './errors.js';

export interface StructLogConfig {
  readonly tracer: 'structLogs';
  readonly disableStack: boolean;
  readonly disableStorage: boolean;
  readonly enableMemory: boolean;
  readonly enableReturnData: boolean;
  readonly limit: number;
}

export type TracerConfig =
  | StructLogConfig
  | { readonly tracer: 'callTracer'; readonly onlyTopCall: boolean; readonly withLog: boolean }
  | { readonly tracer: 'flatCallTracer'; readonly convertParityErrors: boolean; readonly includePrecompiles: boolean }
  | {
      readonly tracer: 'prestateTracer';
      readonly diffMode: boolean;
      readonly disableCode: boolean;
      readonly disableStorage: boolean;
      readonly includeEmpty: boolean;
    }
  | { readonly tracer: '4byteTracer' }
  | { readonly tracer: 'noopTracer' }
  | { readonly tracer: 'muxTracer'; readonly tracers: ReadonlyArray<readonly [string, TracerConfig]> };

export const DEFAULT_TRACE_CONFIG: TracerConfig = {
  tracer: 'structLogs',
  disableStack: false,
  disableStorage: false,
  enableMemory: false,
  enableReturnData: false,
  limit: 0,
};

export const BUILT_IN_TRACERS = ['callTracer', 'flatCallTracer', 'prestateTracer', '4byteTracer', 'noopTracer', 'muxTracer'] as const;

/** Each built-in tracer's tracerConfig flags (muxTracer's config is a map of tracers instead). */
const TRACER_FLAGS: Record<string, readonly string[]> = {
  callTracer: ['onlyTopCall', 'withLog'],
  flatCallTracer: ['convertParityErrors', 'includePrecompiles'],
  prestateTracer: ['diffMode', 'disableCode', 'disableStorage', 'includeEmpty'],
  '4byteTracer': [],
  noopTracer: [],
};

const CONFIG_KEYS = new Set([
  'tracer',
  'tracerConfig',
  'disableStack',
  'disableStorage',
  'enableMemory',
  'enableReturnData',
  'timeout',
  'reexec',
  'debug',
  'limit',
]);

type Fields = Record<string, unknown>;

function object(value: unknown, where: string, what: string): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidParams(`invalid argument ${where}: expected ${what}`);
  return value as Fields;
}

function flag(fields: Fields, key: string, where: string): boolean {
  const value = fields[key];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw invalidParams(`invalid argument ${where}.${key}: expected a boolean`);
  return value;
}

/** `timeout`, `reexec` and `debug` are accepted and have nothing to do here. */
export const traceConfig = (value: unknown, path: string): TracerConfig => {
  const fields = object(value, path, 'a trace config object');
  for (const key of Object.keys(fields)) {
    if (!CONFIG_KEYS.has(key))
      throw invalidParams(`invalid argument ${path}: unknown field "${clip(key)}" (stateOverrides and blockOverrides belong to debug_traceCall)`);
  }
  const tracer = fields.tracer ?? '';
  if (tracer === '') {
    const limit = fields.limit ?? 0;
    if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0)
      throw invalidParams(`invalid argument ${path}.limit: expected a non-negative integer`);
    return {
      tracer: 'structLogs',
      disableStack: flag(fields, 'disableStack', path),
      disableStorage: flag(fields, 'disableStorage', path),
      enableMemory: flag(fields, 'enableMemory', path),
      enableReturnData: flag(fields, 'enableReturnData', path),
      limit,
    };
  }
  if (typeof tracer !== 'string') throw invalidParams(`invalid argument ${path}.tracer: expected a string`);
  return namedTracer(tracer, fields.tracerConfig, path, `${path}.tracer`);
};

function namedTracer(name: string, options: unknown, path: string, where: string): TracerConfig {
  if (!(BUILT_IN_TRACERS as readonly string[]).includes(name)) {
    throw invalidParams(
      `invalid argument ${where}: ${JSON.stringify(name).slice(0, 40)} is not supported: chain-sim runs no JavaScript tracers; built-in tracers are ${BUILT_IN_TRACERS.join(', ')} (no tracer: the struct logger)`,
    );
  }
  const configWhere = `${path}.tracerConfig`;
  const fields = options === undefined || options === null ? {} : object(options, configWhere, 'an object');
  if (name === 'muxTracer') {
    const tracers = Object.entries(fields).map(([inner, innerConfig]) => {
      if (inner === 'muxTracer') throw invalidParams(`invalid argument ${configWhere}: muxTracer cannot contain itself`);
      return [inner, namedTracer(inner, innerConfig, `${configWhere}.${inner}`, `${configWhere}`)] as const;
    });
    return { tracer: 'muxTracer', tracers };
  }
  const allowed = TRACER_FLAGS[name]!;
  for (const key of Object.keys(fields)) {
    if (!allowed.includes(key))
      throw invalidParams(
        `invalid argument ${configWhere}: unknown field "${clip(key)}" for ${name}${allowed.length > 0 ? ` (it takes ${allowed.join(', ')})` : ' (it takes none)'}`,
      );
  }
  const flags = Object.fromEntries(allowed.map((key) => [key, flag(fields, key, configWhere)]));
  if (name === 'prestateTracer' && flags.diffMode && flags.includeEmpty)
    throw invalidParams(`invalid argument ${configWhere}: cannot use diffMode with includeEmpty`);
  return { tracer: name, ...flags } as TracerConfig;
}
