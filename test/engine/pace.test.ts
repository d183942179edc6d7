import { expect } from 'chai';
import { SLICE_MS, breathe, pace, sliceUsedUp } from '../../src/engine/util/pace.js';

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
