import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { createBusyPoll } from '../../src/server/busyPoll.js';

const MODULE = fileURLToPath(new URL('../../src/server/busyPoll.js', import.meta.url));

/**
 * Runs `steps` in a fresh Node process and answers the CPU milliseconds it spent in each
 * measured window: the suite's own process may have other work under way (servers, timers of
 * earlier tests), which would count against the poller.
 */
function cpuWindows(steps: string): Promise<number[]> {
  const script = `
    import { createBusyPoll } from ${JSON.stringify(MODULE)};
    const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    const windows = [];
    const cpuDuring = async (ms) => {
      const before = process.cpuUsage();
      await sleep(ms);
      const used = process.cpuUsage(before);
      windows.push((used.user + used.system) / 1000);
    };
    ${steps}
    console.log(JSON.stringify(windows));`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as number[])));
  });
}

describe('busy polling after an answer', () => {
  it('keeps the event loop turning for its window, then lets the process sleep', async () => {
    const [busy, idle] = await cpuWindows('const poll = createBusyPoll(60, 2); poll(); await cpuDuring(60); await cpuDuring(60);');
    expect(busy).to.be.above(15);
    expect(idle).to.be.below(20);
  });

  it('extends the window on every answer instead of stacking pollers', () => {
    // A clock the test moves and a queue of next turns it runs: the poller's logic, not the machine's speed.
    let time = 0;
    const turns: Array<() => void> = [];
    const poll = createBusyPoll(40, 2, { now: () => time, nextTurn: (callback) => void turns.push(callback) });
    const runTurn = () => turns.shift()!();
    poll();
    expect(turns).to.have.length(1);
    time = 20;
    poll(); // a second answer while polling: the end moves to 60, no second poller
    expect(turns).to.have.length(1);
    time = 50; // past the first answer's window, inside the second's
    runTurn();
    expect(turns, 'still polling 30 ms after the second answer').to.have.length(1);
    time = 60;
    runTurn();
    expect(turns, 'stopped at the end of the window').to.have.length(0);
    poll(); // the next answer starts it again
    expect(turns).to.have.length(1);
  });

  it('does nothing when turned off or on a single core', async () => {
    const windows = await cpuWindows('for (const poll of [createBusyPoll(0, 2), createBusyPoll(60, 1)]) { poll(); await cpuDuring(60); }');
    for (const used of windows) expect(used).to.be.below(20);
  });
});
