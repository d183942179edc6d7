import { expect } from 'chai';
import { LIBRARY_STEP_WEIGHT, SLICE_MS, STEPS_PER_CHECK, breathe, pace, paceStep, sliceUsedUp } from '../../src/engine/util/pace.js';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('engine/pace: long work yields the event loop', () => {
  it('answers nothing to await within a slice, a turn of the event loop once SLICE_MS of work went by, then starts a new slice', async () => {
    await breathe(); // start on a fresh turn
    let otherWorkRan = false;
    setImmediate(() => {
      otherWorkRan = true;
    });
    expect(pace()).to.equal(undefined);
    busy(SLICE_MS + 1);
    expect(otherWorkRan).to.equal(false);
    const turn = pace();
    expect(turn).to.be.instanceOf(Promise);
    await turn;
    expect(otherWorkRan).to.equal(true);
    expect(sliceUsedUp()).to.equal(false);
  });

  it('keeps the timer it loaded with: a suite that fakes setImmediate afterwards (sinon, Jest) does not leave work waiting forever', async () => {
    await breathe();
    const real = globalThis.setImmediate;
    // A fake that never calls back, as fake timers do until the test ticks them.
    globalThis.setImmediate = (() => ({})) as unknown as typeof setImmediate;
    try {
      pace();
      busy(SLICE_MS + 1);
      const turn = pace();
      expect(turn).to.be.instanceOf(Promise);
      await turn;
    } finally {
      globalThis.setImmediate = real;
    }
  });
});

describe('engine/pace: interpreter steps (issue 35)', () => {
  it('starts a slice at the first step after the event loop turned: a turn is asked within STEPS_PER_CHECK steps of SLICE_MS of work', async () => {
    for (let round = 0; round < 3; round++) {
      await breathe(); // the slice ends with the turn
      expect(paceStep()).to.equal(undefined); // the first step after it starts the next slice
      busy(SLICE_MS + 1);
      let steps = 0;
      let turn: Promise<void> | undefined;
      while (turn === undefined && steps <= STEPS_PER_CHECK) {
        steps++;
        turn = paceStep();
      }
      expect(turn, `a turn within ${STEPS_PER_CHECK} steps (round ${round})`).to.be.instanceOf(Promise);
      await turn;
    }
  });

  it('counts steps of the library loop for LIBRARY_STEP_WEIGHT inline steps each', async () => {
    await breathe();
    expect(paceStep(LIBRARY_STEP_WEIGHT)).to.equal(undefined);
    busy(SLICE_MS + 1);
    let steps = 0;
    let turn: Promise<void> | undefined;
    while (turn === undefined && steps <= STEPS_PER_CHECK) {
      steps++;
      turn = paceStep(LIBRARY_STEP_WEIGHT);
    }
    expect(steps).to.be.at.most(STEPS_PER_CHECK / LIBRARY_STEP_WEIGHT);
    await turn;
  });
});
