import { expect } from 'chai';
import type { MiningOutcome } from '../../../src/engine/execution/blockBuilder.js';
import { HashrateMeter } from '../../../src/engine/pow/hashrate.js';
import { MAX_RECENT_WORK, type Work, WorkBook } from '../../../src/engine/pow/work.js';

function work(id: number, number: bigint): Work {
  const powHash = new Uint8Array(32);
  new DataView(powHash.buffer).setUint32(28, id);
  return {
    powHash,
    powHashHex: `0x${Buffer.from(powHash).toString('hex')}`,
    seedHash: new Uint8Array(32),
    boundary: new Uint8Array(32),
    epoch: 0,
    difficulty: 1n,
    number,
    baseRoot: new Uint8Array(32),
    key: String(id),
    draft: {} as MiningOutcome,
  };
}

describe('pow/work', () => {
  it('keeps recent work until it could no longer be sealed or be an uncle of the next block', () => {
    const book = new WorkBook();
    const [a, b] = [work(1, 1n), work(2, 5n)];
    book.add(a);
    book.add(b);
    expect(book.current).to.equal(b);
    expect(book.get(a.powHashHex.toUpperCase().replace('0X', '0x'))).to.equal(a);
    book.prune(6n);
    expect(book.get(a.powHashHex)).to.equal(a); // uncle of block 7 at most six generations back
    book.prune(7n);
    expect(book.get(a.powHashHex)).to.equal(undefined);
    expect(book.current).to.equal(b);
    book.prune(11n);
    expect(book.current).to.equal(undefined);
    expect(book.size).to.equal(0);
  });

  it('holds at most MAX_RECENT_WORK entries, forgetting the oldest', () => {
    const book = new WorkBook();
    for (let i = 0; i <= MAX_RECENT_WORK; i++) book.add(work(i, 1n));
    expect(book.size).to.equal(MAX_RECENT_WORK);
    expect(book.get(work(0, 1n).powHashHex)).to.equal(undefined);
    expect(book.get(work(MAX_RECENT_WORK, 1n).powHashHex)?.key).to.equal(String(MAX_RECENT_WORK));
  });

  it('sums the latest hashrate of each miner heard from in the last 10 s', () => {
    let now = 0;
    const meter = new HashrateMeter(() => now);
    meter.submit('a', 100n);
    meter.submit('b', 5n);
    meter.submit('a', 200n);
    expect(meter.total()).to.equal(205n);
    now = 10_000;
    meter.submit('b', 7n);
    expect(meter.total()).to.equal(207n);
    now = 10_001;
    expect(meter.total()).to.equal(7n);
  });
});
