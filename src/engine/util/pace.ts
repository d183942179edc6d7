/**
 * Long work yields the event loop. The engine runs in memory: a trace, a log scan or a run of
 * queued calls awaits only promises that are already settled, so without more it runs to its
 * end in microtasks while no socket is read and no timer fires, and every other client waits
 * for it (a struct-logger trace of a 25M-gas loop stopped the node for 7.5 s). Long loops
 * call `pace()` at their yield points (the interpreter's steps, each replayed transaction,
 * each block of a scan, each queued task); once the current slice of work is older than
 * SLICE_MS it answers a promise that resolves on the next turn of the event loop (after its
 * I/O phase: pending requests are read), otherwise nothing, at the cost of one clock read.
 *
 * A slice starts at the first `pace()` of a turn of the event loop and ends when the loop
 * turns (a `setImmediate` armed with the slice), whoever made it turn: work that awaits real
 * I/O starts a fresh slice afterwards, and work that never yields is cut every SLICE_MS.
 */

/** How long work runs before it lets the event loop turn (a few ms: the overhead is one setImmediate per slice). */
export const SLICE_MS = 4;

// The timer and the clock as they were when the engine loaded: a test suite that fakes timers
// afterwards (sinon, Jest) must not leave the engine waiting for a turn that never comes.
const nextTurn = setImmediate;
const now: () => number = performance.now.bind(performance);

let sliceStart = 0;
let sliceOpen = false;

function closeSlice(): void {
  sliceOpen = false;
}

/** True when the current slice of work has run for SLICE_MS: the caller should yield (`breathe`). */
export function sliceUsedUp(): boolean {
  const time = now();
  if (!sliceOpen) {
    sliceOpen = true;
    sliceStart = time;
    nextTurn(closeSlice);
    return false;
  }
  return time - sliceStart >= SLICE_MS;
}

/** Resolves on the next turn of the event loop, after its I/O. */
export function breathe(): Promise<void> {
  return new Promise((resolve) => nextTurn(resolve));
}

/** A yield point: a promise to await when the slice is used up, otherwise undefined (nothing to await). */
export function pace(): Promise<void> | undefined {
  return sliceUsedUp() ? breathe() : undefined;
}

/** Inline steps between two clock reads in the interpreter's loops (such a step takes well under a microsecond). */
export const STEPS_PER_CHECK = 512;
/**
 * What a step of the library's loop counts for (stepPacing.ts): it awaits promises, and with a
 * tracer listening it builds an event and records it, 5-60 µs a step on a loaded machine, so
 * 512 of them ran 3-30 ms between two clock reads.
 */
export const LIBRARY_STEP_WEIGHT = 32;
let stepsLeft = STEPS_PER_CHECK;

/**
 * One interpreter step of `weight` (an inline step: 1): like `pace()`, with the clock read once
 * every STEPS_PER_CHECK of weight. The first step after the event loop turned reads it at once
 * and so starts the slice there: a slice started only at the next count's end ran up to twice
 * its steps between two turns (a traced run: 1,024 steps, 34-43 ms without another client read).
 */
export function paceStep(weight = 1): Promise<void> | undefined {
  stepsLeft -= weight;
  if (sliceOpen && stepsLeft > 0) return undefined;
  stepsLeft = STEPS_PER_CHECK;
  return pace();
}
