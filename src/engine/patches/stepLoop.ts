/**
 * @ethereumjs/evm awaits every opcode: its loop calls `await this.runStep()`, an async
 * function, even for ADD or PUSH1, so each step costs a promise and a turn of the
 * microtask queue. This loop runs a step synchronously when nothing in it can wait (a fixed
 * gas cost and a synchronous handler: 92% of the steps of a token transfer); steps with
 * dynamic gas or a state read, and invalid opcodes, go through the library's runStep as
 * before. An eth_call to a token took 10% less time. Every few ms of steps it lets the event
 * loop turn (util/pace.ts), as stepPacing.ts makes the library's loop do.
 *
 * The library's loop runs instead wherever it does more than this one: EOF code, a step
 * listener (tracers), its profiler or debug logging, and the EIPs whose per-step hooks
 * this loop leaves out (6800/7864 code-chunk witnesses, 7928 block access lists, 8037
 * state gas). test/engine/stepLoop.test.ts runs random programs both ways.
 */
import { EVMError } from '@ethereumjs/evm';
import { paceStep } from '../util/pace.js';
import { type GasDependence, gasDependenceOf, noteStep } from './gasDependence.js';
import { emitImplicitStop } from './implicitStop.js';
import { type Interpreter, type OpcodeEntry, type RunResult, replaceInterpreterMethod } from './interpreterPrototype.js';

const JUMP = 0x56;
const JUMPI = 0x57;
const JUMPSUB = 0x5e;
const EOF_FORMAT = 0xef;
const HOOKED_EIPS = [6800, 7864, 7928, 8037];

let runs = 0;

/** How many code runs this loop made (for tests). */
export function stepLoopRuns(): number {
  return runs;
}

export function installStepLoop(): Promise<void> {
  return replaceInterpreterMethod(
    'run',
    (libraryRun) =>
      function (this: Interpreter, code: Uint8Array, opts: { pc?: number } = {}): Promise<RunResult> {
        const dependence = gasDependenceOf(this._evm);
        // Tracers run the library's loop, and see the STOP past the end of code (implicitStop.ts).
        if (!handlesAlone(this, code)) {
          if (dependence) dependence.framesUnseen++;
          return libraryRun.call(this, code, opts).then((result) => emitImplicitStop(this, code, result));
        }
        runs++;
        if (dependence) dependence.framesSeen++;
        return runSteps(this, code, opts.pc, dependence);
      },
  );
}

function handlesAlone(interpreter: Interpreter, code: Uint8Array): boolean {
  const common = interpreter.common;
  if (code[0] === EOF_FORMAT && common.isActivatedEIP(3540)) return false;
  if (interpreter.profilerOpts?.enabled === true || interpreter._evm.DEBUG) return false;
  if (interpreter._evm.events.listenerCount('step') > 0) return false;
  return !HOOKED_EIPS.some((eip) => common.isActivatedEIP(eip));
}

/** The library's loop for legacy code, with the synchronous steps taken inline. */
async function runSteps(interpreter: Interpreter, code: Uint8Array, pc: number | undefined, dependence: GasDependence | undefined): Promise<RunResult> {
  const state = interpreter._runState;
  state.code = code;
  state.programCounter = pc ?? state.programCounter;
  if (state.programCounter !== 0 && (state.programCounter < 0 || state.programCounter >= code.length)) {
    throw new Error('Internal error: program counter not in range');
  }
  // As in the library: the code is analysed when the first jump is reached, and the
  // analysis's opcode table is used from then on.
  let analysed: OpcodeEntry[] | undefined;
  let exceptionError: EVMError | undefined;
  while (state.programCounter < state.code.length) {
    // A long run lets the event loop turn every few ms (pace.ts), between two steps.
    const turn = paceStep();
    if (turn !== undefined) await turn;
    let entry: OpcodeEntry | undefined;
    let opCode: number;
    if (analysed) {
      entry = analysed[state.programCounter]!;
      opCode = entry.opcodeInfo.code;
    } else {
      opCode = state.code[state.programCounter]!;
      if (opCode === JUMP || opCode === JUMPI || opCode === JUMPSUB) {
        const analysis = interpreter._getValidJumpDestinations(state.code);
        state.validJumps = analysis.jumps;
        state.cachedPushes = analysis.pushes;
        state.shouldDoJumpAnalysis = false;
        analysed = analysis.opcodesCached;
      }
    }
    state.opCode = opCode;
    // eth_estimateGas watching whether the gas left mattered (gasDependence.ts).
    if (dependence) noteStep(dependence, opCode, state.gasLeft);
    try {
      const waiting = step(interpreter, entry ?? interpreter.lookupOpInfo(opCode), entry);
      if (waiting !== undefined) await waiting;
    } catch (error) {
      if (!isEvmError(error)) throw error;
      if (error.error !== EVMError.errorMessages.STOP) exceptionError = error;
      break;
    }
  }
  return { runState: state, exceptionError };
}

/** The library's test: an exceptional halt (its opcodes throw these), not a bug. */
function isEvmError(error: unknown): error is EVMError {
  return typeof error === 'object' && error !== null && (error as { errorType?: unknown }).errorType === 'EVMError';
}

/** One step; a promise only when it has to wait. */
function step(interpreter: Interpreter, entry: OpcodeEntry, analysed: OpcodeEntry | undefined): unknown {
  const info = entry.opcodeInfo;
  if (info.dynamicGas || info.isInvalid) return interpreter.runStep(analysed);
  interpreter.useGas(info.feeBigInt, info);
  interpreter._runState.programCounter++;
  const done = entry.opHandler(interpreter._runState, interpreter.common);
  return info.isAsync ? done : undefined;
}
