import { expect } from 'chai';
import { createBusyPoll } from '../../src/server/busyPoll.js';

/** CPU milliseconds this process spends while `ms` of wall time pass. */
async function cpuDuring(ms: number): Promise<number> {
  const before = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

describe('busy polling after an answer', () => {
  it('keeps the event loop turning for its window, then lets the process sleep', async () => {
    const poll = createBusyPoll(60, 2);
    poll();
    expect(await cpuDuring(60)).to.be.above(15);
    expect(await cpuDuring(60)).to.be.below(20);
  });

  it('extends the window on every answer instead of stacking pollers', async () => {
    const poll = createBusyPoll(40, 2);
    poll();
    await new Promise((resolve) => setTimeout(resolve, 20));
    poll();
    // Still busy 30 ms later (the second answer moved the end), idle after that.
    expect(await cpuDuring(30)).to.be.above(8);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await cpuDuring(50)).to.be.below(15);
  });

  it('does nothing when turned off or on a single core', async () => {
    for (const poll of [createBusyPoll(0, 2), createBusyPoll(60, 1)]) {
      poll();
      expect(await cpuDuring(60)).to.be.below(20);
    }
  });
});
