/**
 * FilterManager.take(): a subscription's changes handed out a slice at a time, reservations of
 * empty blocks walked lazily, and lostChanges() when a backlog overflows (issue 25, items 3-4).
 */
import { expect } from 'chai';
import { BoundedQueue } from '../../src/engine/util/boundedQueue.js';
import { FilterManager } from '../../src/engine/logs/filters.js';
import { type SimNode, startNode } from '../../src/startup/node.js';

describe('FilterManager.take (subscriptions in slices)', () => {
  let node: SimNode;
  let filters: FilterManager;

  beforeEach(async () => {
    node = await startNode({ quiet: true });
  });
  afterEach(() => {
    filters?.close();
    node.close();
  });

  const mine = (blocks: number) => node.dispatcher.call('chain_mine', [`0x${blocks.toString(16)}`]);
  const hashOf = (number: number) => node.chain.find({ number: BigInt(number) })!.hashHex;

  /** Everything take() hands out, `max` at a time. */
  function takeAll(id: bigint, max: number): string[] {
    const all: string[] = [];
    while (filters.hasChanges(id)) {
      const taken = filters.take(id, max);
      if (taken.kind !== 'hashes') throw new Error('expected hashes');
      expect(taken.hashes.length).to.be.within(1, max);
      all.push(...taken.hashes);
    }
    return all;
  }

  it('hands out every block of a reservation in order, a slice at a time, with the blocks themselves', async () => {
    filters = new FilterManager(node.chain, { timeoutMs: 60_000, maxLogs: 10_000 });
    const id = filters.newBlockFilter({ expires: false });
    await mine(1000);
    const first = filters.take(id, 100);
    expect(first.kind === 'hashes' && 'reserved' in first ? first.reserved.map((block) => Number(block.number)) : []).to.deep.equal(
      Array.from({ length: 100 }, (_, i) => i + 1),
    );
    const rest = takeAll(id, 128);
    expect(rest).to.have.length(900);
    expect(rest[0]).to.equal(hashOf(101));
    expect(rest[899]).to.equal(hashOf(1000));
    expect(filters.lostChanges(id)).to.equal(false);
  });

  it('a partly handed-out reservation expanded by later ones continues where it stopped: nothing twice, nothing skipped', async () => {
    filters = new FilterManager(node.chain, { timeoutMs: 60_000, maxLogs: 10_000 });
    const id = filters.newBlockFilter({ expires: false });
    await mine(1000);
    const first = filters.take(id, 300);
    // Nine more reservations: more than the filter holds unexpanded, so the first is expanded into the queue.
    for (let i = 0; i < 9; i++) await mine(10);
    const all = [...(first.kind === 'hashes' ? first.hashes : []), ...takeAll(id, 256)];
    expect(all).to.deep.equal(Array.from({ length: 1090 }, (_, i) => hashOf(i + 1)));
    expect(filters.lostChanges(id)).to.equal(false);
  });

  it('reports lost changes once a reservation is expanded into a queue too small for it, not while it is held', async () => {
    filters = new FilterManager(node.chain, { timeoutMs: 60_000, maxLogs: 10_000, maxBuffered: 50 });
    const id = filters.newBlockFilter({ expires: false });
    await mine(60);
    // Held unexpanded: a reader that keeps up can still be handed all 60.
    expect(filters.lostChanges(id)).to.equal(false);
    // More mining expands it into a queue of 50: the oldest 10 are skipped.
    for (let i = 0; i < 8; i++) await mine(1);
    expect(filters.lostChanges(id)).to.equal(true);
  });

  it('BoundedQueue.take hands out the oldest entries and keeps counting drops', () => {
    const queue = new BoundedQueue<number>(3);
    for (let i = 0; i < 5; i++) queue.push(i);
    expect(queue.take(2)).to.deep.equal([2, 3]);
    expect(queue.dropped).to.equal(2);
    queue.push(5);
    expect(queue.take(10)).to.deep.equal([4, 5]);
    expect(queue.size).to.equal(0);
  });
});
