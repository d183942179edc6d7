/**
 * Code that runs off its end halts as if it read STOP there, and go-ethereum's tracers see
 * that STOP: its interpreter reads opcode 0 past the end and reports it like any other step
 * (pc = code length, cost 0). @ethereumjs/evm's loop just ends. With a step listener
 * attached (a tracer), this emits that last step, so struct logs match go-ethereum's.
 */
import type { Interpreter, RunResult } from './interpreterPrototype.js';

/** Opcodes that end a frame themselves: STOP, RETURN, REVERT, INVALID, SELFDESTRUCT. */
const HALTS = new Set([0x00, 0xf3, 0xfd, 0xfe, 0xff]);

interface RunStateGas {
  gasLeft: bigint;
  memoryWordCount: bigint;
}

export async function emitImplicitStop(interpreter: Interpreter, code: Uint8Array, result: RunResult): Promise<RunResult> {
  const state = interpreter._runState;
  if (result.exceptionError !== undefined || code.length === 0 || state.programCounter < code.length || HALTS.has(state.opCode)) return result;
  if (interpreter._evm.events.listenerCount('step') === 0) return result;
  const { gasLeft, memoryWordCount } = state as unknown as RunStateGas;
  state.opCode = 0x00;
  await (interpreter as unknown as { _runStepHook(fee: bigint, gas: bigint, words: bigint): Promise<void> })._runStepHook(0n, gasLeft, memoryWordCount);
  return result;
}
