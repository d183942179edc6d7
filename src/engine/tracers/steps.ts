/**
 * The program counters each call frame ran, in order, for Solidity stack traces (mapped to
 * source lines through solc's source maps outside the engine). Frames are listed in the order
 * their messages began (the call tracer's frames in pre-order, SELFDESTRUCT entries aside);
 * each frame notes at which of its steps each of its calls began, and what each EXTCODESIZE
 * answered (a call to an account without code is refused on that answer).
 */
import type { ExecutionTracer, TraceEnv } from './tracing.js';
import { listen } from './tracing.js';

const EXTCODESIZE = 0x3b;

export interface FrameSteps {
  /** The program counter of each step the frame ran. */
  readonly pcs: number[];
  /** For each call the frame made (in order): the index in `pcs` of the step that made it. */
  readonly callsAt: number[];
  /** Step index of each EXTCODESIZE the frame ran, to the size it answered. */
  readonly codeSizes: Map<number, bigint>;
}

export class StepRecorder implements ExecutionTracer {
  /** Every frame, in the order its message began. */
  readonly frames: FrameSteps[] = [];
  private readonly open: FrameSteps[] = [];
  /** The frame whose last step was an EXTCODESIZE, waiting for the next step's stack to read its answer. */
  private pendingSize: { frame: FrameSteps; step: number; depth: number } | undefined;

  attach(env: TraceEnv): () => void {
    return listen(env, {
      // One argument: called synchronously, no promise per step.
      step: (step) => {
        const frame = this.open[this.open.length - 1];
        if (!frame) return;
        const pending = this.pendingSize;
        if (pending && pending.depth === step.depth && pending.frame === frame) {
          pending.frame.codeSizes.set(pending.step, step.stack[step.stack.length - 1] ?? 0n);
          this.pendingSize = undefined;
        }
        frame.pcs.push(step.pc);
        if (step.opcode.code === EXTCODESIZE) this.pendingSize = { frame, step: frame.pcs.length - 1, depth: step.depth };
      },
      beforeMessage: () => {
        const parent = this.open[this.open.length - 1];
        parent?.callsAt.push(parent.pcs.length - 1);
        const frame: FrameSteps = { pcs: [], callsAt: [], codeSizes: new Map() };
        this.frames.push(frame);
        this.open.push(frame);
      },
      afterMessage: () => {
        this.open.pop();
      },
    });
  }
}

/** Both tracers on one run. */
export function bothTracers(first: ExecutionTracer, second: ExecutionTracer): ExecutionTracer {
  return {
    attach(env) {
      const detachFirst = first.attach(env);
      const detachSecond = second.attach(env);
      return () => {
        detachSecond();
        detachFirst();
      };
    },
  };
}
