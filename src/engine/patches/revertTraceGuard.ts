/**
 * Tracing a REVERT whose memory range no gas limit could pay for (an offset or length near
 * 2^256) crashed: before the step event @ethereumjs/evm reads the revert data for it, even
 * when the step fails for out of gas, and allocating that range throws a RangeError (an
 * internal error for debug_traceTransaction). For such a step the event is emitted with no
 * revert data, which it does not have: the step halts for out of gas, as go-ethereum traces it.
 */
import { type Interpreter, type RunState, replaceInterpreterMethod } from './interpreterPrototype.js';

const REVERT = 0xfd;
const NO_DATA = { read: (): Uint8Array => new Uint8Array(0) };

export function installRevertTraceGuard(): Promise<void> {
  return replaceInterpreterMethod(
    '_runStepHook',
    (emit) =>
      async function (this: Interpreter, dynamicFee: bigint, gasLeft: bigint, memoryWordCount: bigint): Promise<void> {
        const state = this._runState;
        if (state.opCode !== REVERT || !unaffordable(this, state, gasLeft, memoryWordCount)) return emit.call(this, dynamicFee, gasLeft, memoryWordCount);
        const memory = state.memory;
        state.memory = { ...NO_DATA, _store: memory._store };
        try {
          return await emit.call(this, dynamicFee, gasLeft, memoryWordCount);
        } finally {
          state.memory = memory;
        }
      },
  );
}

/**
 * Whether growing memory from `wordsBefore` (the step's; the gas handler has already moved
 * the run state's count) to REVERT's range costs more than the gas left: the step cannot run.
 */
function unaffordable(interpreter: Interpreter, state: RunState, gasLeft: bigint, wordsBefore: bigint): boolean {
  const [offset, length] = state.stack.peek(2) as [bigint, bigint];
  if (length === 0n) return false;
  const words = (offset + length + 31n) / 32n;
  if (words <= wordsBefore) return false;
  const cost = (count: bigint): bigint => count * interpreter.common.param('memoryGas') + (count * count) / interpreter.common.param('quadCoefficientDivGas');
  return cost(words) - cost(wordsBefore) > gasLeft;
}
