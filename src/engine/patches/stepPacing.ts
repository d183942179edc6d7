/**
 * The library's interpreter loop (which runs whenever a tracer listens to steps, and for the
 * steps stepLoop.ts hands it) awaits every step, but only promises that are already settled:
 * a traced run of millions of steps never let the event loop turn, and every other client
 * waited for it. Each step goes through `pace` first (util/pace.ts): every few ms of work the
 * step waits for one turn of the event loop before it runs. Its steps cost far more than the
 * inline ones of stepLoop.ts, and count for more between two clock reads (LIBRARY_STEP_WEIGHT).
 */
import { LIBRARY_STEP_WEIGHT, paceStep } from '../util/pace.js';
import { replaceInterpreterMethod } from './interpreterPrototype.js';

export function installStepPacing(): Promise<void> {
  return replaceInterpreterMethod(
    'runStep',
    (libraryStep) =>
      function (this, entry) {
        const turn = paceStep(LIBRARY_STEP_WEIGHT);
        return turn === undefined ? libraryStep.call(this, entry) : turn.then(() => libraryStep.call(this, entry));
      },
  );
}
