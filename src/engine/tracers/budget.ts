/**
 * The bound of what one answer's tracers may hold (tracing.ts re-exports it), and the error
 * past it.
 */
import { type EngineError, rejected } from '../util/errors.js';

/** The bound of one answer's traces (TraceBudget). */
export const MAX_TRACE_BYTES = 128 * 1024 * 1024;

/** `what`: the struct logs, or the records of another tracer (call frames, accounts). */
export function traceTooLarge(what = 'struct logs'): EngineError {
  return rejected(
    `trace too large: ${what} over ${MAX_TRACE_BYTES / 2 ** 20} MiB; ask for less (limit, disableStack, disableStorage, no enableMemory, one transaction instead of a block) or use callTracer`,
  );
}

/**
 * What the tracers of one answer may hold in memory, roughly counted, shared by the
 * tracers of a block trace so that a whole block stays within one trace's bound. A
 * 30M-gas loop runs millions of opcodes, each record with its stack (and memory): without
 * a bound, tracing it would take the node's whole heap. Past it the trace is refused, not
 * cut short.
 */
export class TraceBudget {
  private used = 0;
  get usedBytes(): number {
    return this.used;
  }
  exceeded = false;
  constructor(readonly maxBytes = MAX_TRACE_BYTES) {}

  /** Counts `bytes` more; false (and exceeded from then on) once past the bound. */
  take(bytes: number): boolean {
    this.used += bytes;
    if (this.used > this.maxBytes) this.exceeded = true;
    return !this.exceeded;
  }
}
