/**
 * Tracers that read go-ethereum's call tree (tracing.ts's CallTracer): flatCallTracer's list
 * of frames in Parity's order, 4byteTracer's selector counts, and noopTracer, which records
 * nothing. muxTracer runs several of them at once.
 */
import type { CallFrame, ExecutionTracer, TraceEnv } from './tracing.js';

export interface FlatFrame {
  readonly frame: CallFrame;
  /** Positions of the frame among its parents' kept calls, from the top (empty for the top frame). */
  readonly traceAddress: readonly number[];
  /** How many calls of the frame are listed under it. */
  readonly subtraces: number;
}

/**
 * The tree depth first, as go-ethereum's flatCallTracer lists it; calls to precompiles are
 * left out (with their places) unless `includePrecompiles`.
 */
export function flattenCalls(root: CallFrame, includePrecompiles: boolean): FlatFrame[] {
  const out: FlatFrame[] = [];
  const kept = (frame: CallFrame): CallFrame[] =>
    includePrecompiles ? frame.calls : frame.calls.filter((call) => !(call.precompile && (call.type === 'CALL' || call.type === 'STATICCALL')));
  const walk = (frame: CallFrame, traceAddress: number[]): void => {
    const calls = kept(frame);
    out.push({ frame, traceAddress, subtraces: calls.length });
    calls.forEach((call, i) => walk(call, [...traceAddress, i]));
  };
  walk(root, []);
  return out;
}

/** 4byteTracer: `selector-size of the rest` of each call's input with at least 4 bytes, to a contract (no precompile, no creation). */
export function selectorCounts(root: CallFrame): Map<string, { readonly selector: Uint8Array; readonly size: number; count: number }> {
  const counts = new Map<string, { selector: Uint8Array; size: number; count: number }>();
  const walk = (frame: CallFrame): void => {
    if (frame.type !== 'CREATE' && frame.type !== 'CREATE2' && !frame.precompile && frame.input.length >= 4) {
      const selector = frame.input.subarray(0, 4);
      const key = `${Buffer.from(selector).toString('hex')}-${frame.input.length - 4}`;
      const entry = counts.get(key);
      if (entry) entry.count++;
      else counts.set(key, { selector, size: frame.input.length - 4, count: 1 });
    }
    frame.calls.forEach(walk);
  };
  walk(root);
  return counts;
}

/** noopTracer: attaches to nothing. */
export class NoopTracer implements ExecutionTracer {
  attach(): () => void {
    return () => {};
  }
}

/** muxTracer: its tracers watch the same run. */
export class MuxTracer implements ExecutionTracer {
  constructor(readonly tracers: readonly ExecutionTracer[]) {}

  attach(env: TraceEnv): () => void {
    const detachers = this.tracers.map((tracer) => tracer.attach(env));
    return () => detachers.forEach((detach) => detach());
  }
}
