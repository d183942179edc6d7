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
});
