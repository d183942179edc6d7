import { expect } from 'chai';
import { SerialQueue } from '../../src/engine/util/serial.js';
import { newNode, signed } from '../helpers/chain.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Keep the CPU busy for `ms` without yielding. */
const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('the chain queue', () => {
  it('a long line of short synchronous tasks lets the event loop turn: a timer set after them fires before the last one', async () => {
    const queue = new SerialQueue();
    let done = 0;
    const tasks = Array.from({ length: 400 }, () => queue.run(() => void (busy(0.1), done++)));
    const seenAt = await new Promise<number>((resolve) => setTimeout(() => resolve(done), 0));
    await Promise.all(tasks);
    // 40 ms of work, cut into slices of a few ms: the timer ran in between.
    expect(seenAt).to.be.greaterThan(0);
    expect(seenAt).to.be.lessThan(400);
  });

  it('runs tasks one at a time in arrival order; a failure rejects its caller only', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        log.push(`${name} start`);
        await tick();
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([queue.run(task('a')), queue.run(task('b', true)), queue.run(task('c'))]);
    expect(log).to.deep.equal(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
    expect(results.map((r) => r.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('runNext puts a task right behind the running one, ahead of the tasks already waiting', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const later: Array<Promise<unknown>> = [];
    const first = queue.run(async () => {
      later.push(
        queue.run(async () => log.push('waiting 1')),
        queue.run(async () => log.push('waiting 2')),
      );
      later.push(
        queue.runNext(async () => log.push('next 1')),
        queue.runNext(async () => log.push('next 2')),
      );
      log.push('first');
    });
    await first;
    await Promise.all(later);
    expect(log).to.deep.equal(['first', 'next 1', 'next 2', 'waiting 1', 'waiting 2']);
  });
});

describe('automine after the answer', () => {
  // Without Hardhat's node behaviour (which waits for the block to tell a failed send): as Anvil answers.
  it('a send answers before its block is built; the next request sees the block (hardhatNode: false)', async () => {
    const { provider, rpc } = newNode({ hardhatNode: false });
    const { chain } = await provider.ready();
    const hash = await rpc<string>('eth_sendRawTransaction', [await signed(0, { to: `0x${'11'.repeat(20)}`, nonce: 0, value: 1 })]);
    expect(chain.settling, 'the block is still being built when the hash is answered').to.not.equal(undefined);
    const receipt = await rpc<{ blockNumber: string } | null>('eth_getTransactionReceipt', [hash]);
    expect(receipt?.blockNumber).to.equal('0x1');
    expect(chain.settling).to.equal(undefined);
  });

  it('a revert puts the state back behind its answer; the next request reads the snapshot state', async () => {
    const { rpc } = newNode();
    const to = `0x${'22'.repeat(20)}`;
    const id = await rpc<string>('evm_snapshot');
    await rpc('eth_sendRawTransaction', [await signed(0, { to, nonce: 0, value: 5 })]);
    expect(await rpc('eth_getBalance', [to, 'latest'])).to.equal('0x5');
    expect(await rpc('evm_revert', [id])).to.equal(true);
    expect(await rpc('eth_getBalance', [to, 'latest'])).to.equal('0x0');
    expect(await rpc('eth_blockNumber')).to.equal('0x0');
  });
});
