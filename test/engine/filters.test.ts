import { expect } from 'chai';
import { BoundedQueue } from '../../src/engine/util/boundedQueue.js';
import { FilterIdSource } from '../../src/engine/logs/filterIds.js';
import { FilterManager } from '../../src/engine/logs/filters.js';
import { resolveRange } from '../../src/engine/logs/logQuery.js';
import { type SimNode, startNode } from '../../src/startup/node.js';

const ANY = { criteria: { addresses: [], topics: [] }, scope: { from: { tag: 'latest' }, to: { tag: 'latest' } } } as const;

describe('BoundedQueue', () => {
  it('keeps the newest `capacity` entries in order and counts what it dropped', () => {
    const queue = new BoundedQueue<number>(3);
    for (let i = 0; i < 10; i++) queue.push(i);
    expect(queue.size).to.equal(3);
    expect(queue.dropped).to.equal(7);
    expect(queue.drain()).to.deep.equal([7, 8, 9]);
    expect(queue.drain()).to.deep.equal([]);
    expect(queue.dropped).to.equal(0);
  });

  it('stays bounded in memory under a long stream (compaction)', () => {
    const queue = new BoundedQueue<number>(100);
    for (let i = 0; i < 100_000; i++) queue.push(i);
    expect(queue.size).to.equal(100);
    expect((queue as unknown as { items: number[] }).items.length).to.be.at.most(200);
    expect(queue.drain()).to.deep.equal(Array.from({ length: 100 }, (_, i) => 99_900 + i));
  });

  it('rejects a non-positive capacity', () => {
    expect(() => new BoundedQueue(0)).to.throw(RangeError);
  });
});

describe('FilterIdSource', () => {
  it('issues distinct 128-bit ids with no visible sequence', () => {
    const source = new FilterIdSource();
    const ids = Array.from({ length: 2000 }, () => source.next());
    expect(new Set(ids).size).to.equal(ids.length);
    expect(ids.every((id) => id >= 0n && id < 1n << 128n)).to.equal(true);
    const steps = new Set(ids.slice(1).map((id, i) => id - ids[i]!));
    expect(steps.size).to.equal(ids.length - 1);
    // Two nodes do not share ids.
    expect(new FilterIdSource().next()).to.not.equal(ids[0]);
  });
});

describe('FilterManager', () => {
  let node: SimNode;
  let now: number;
  beforeEach(async () => {
    now = 1_700_000_000_000;
    node = await startNode({ quiet: true, filterTimeout: 60, wallClock: () => now });
  });
  afterEach(() => node.filters.close());

  const sweeper = (m: FilterManager) => (m as unknown as { sweeper: NodeJS.Timeout | undefined }).sweeper;

  it('expires filters lazily after the timeout; a poll restarts it', () => {
    const { filters } = node;
    const id = filters.newBlockFilter();
    now += 59_999;
    expect(filters.changes(id).kind).to.equal('hashes');
    now += 59_999;
    expect(filters.kindOf(id)).to.equal('blocks');
    now += 1;
    expect(filters.kindOf(id)).to.equal(undefined);
    expect(() => filters.changes(id)).to.throw('filter not found');
    expect(filters.uninstall(id)).to.equal(false);
  });

  it('runs an unref()d sweep timer only while filters exist, and frees expired ones on it', async () => {
    const filters = new FilterManager(node.chain, { timeoutMs: 60_000, maxLogs: 10, wallClock: () => now, sweepIntervalMs: 5 });
    try {
      expect(sweeper(filters)).to.equal(undefined);
      filters.newPendingTransactionFilter();
      filters.newBlockFilter();
      const timer = sweeper(filters)!;
      expect(timer.hasRef()).to.equal(false);
      now += 60_000;
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect((filters as unknown as { filters: Map<bigint, unknown> }).filters.size).to.equal(0);
      expect(sweeper(filters)).to.equal(undefined);
    } finally {
      filters.close();
    }
  });

  it('uninstalling the last filter stops the timer; close() detaches from the chain', async () => {
    const filters = new FilterManager(node.chain, { timeoutMs: 60_000, maxLogs: 10, wallClock: () => now });
    const id = filters.newBlockFilter();
    expect(sweeper(filters)).to.not.equal(undefined);
    expect(filters.uninstall(id)).to.equal(true);
    expect(sweeper(filters)).to.equal(undefined);
    const listeners = () => node.chain.listenerCount('block') + node.chain.listenerCount('reorg') + node.chain.listenerCount('pendingTransaction');
    const before = listeners();
    filters.newLogFilter(ANY);
    filters.close();
    expect(listeners()).to.equal(before - 3);
    expect(sweeper(filters)).to.equal(undefined);
    expect(() => filters.newBlockFilter()).to.throw('closed');
  });

  it('caps what an unpolled filter holds, dropping the oldest', async () => {
    const filters = new FilterManager(node.chain, { timeoutMs: 60_000, maxLogs: 10, wallClock: () => now, maxBuffered: 3 });
    try {
      const id = filters.newBlockFilter();
      await node.chain.mineMany(5n, 1n);
      const last3 = [3n, 4n, 5n].map((n) => node.chain.blocks.byNumber(n)!.hashHex);
      expect(filters.changes(id)).to.deep.equal({ kind: 'hashes', hashes: last3 });
      expect(filters.changes(id)).to.deep.equal({ kind: 'hashes', hashes: [] });
    } finally {
      filters.close();
    }
  });

  it('rejects a log filter whose numeric range is empty', () => {
    const scope = { from: { number: 5n }, to: { number: 4n } };
    expect(() => node.filters.newLogFilter({ ...ANY, scope })).to.throw('invalid block range params');
  });

  it('resolves ranges as go-ethereum: tags to the head, earliest to 0, checked against the head', async () => {
    await node.chain.mine(3n);
    const blocks = node.chain.blocks;
    expect(resolveRange(blocks, { tag: 'earliest' }, { tag: 'latest' })).to.deep.equal({ first: 0n, last: 3n });
    expect(resolveRange(blocks, { number: 1n }, { tag: 'pending' })).to.deep.equal({ first: 1n, last: 3n });
    expect(() => resolveRange(blocks, { number: 3n }, { number: 2n })).to.throw('invalid block range params');
    expect(() => resolveRange(blocks, { number: 4n }, { tag: 'latest' })).to.throw('invalid block range params');
    expect(() => resolveRange(blocks, { number: 0n }, { number: 4n })).to.throw('block range extends beyond current head block');
  });
});
