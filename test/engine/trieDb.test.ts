import { expect } from 'chai';
import { TrieNodeDB } from '../../src/engine/state/trieDb.js';

const value = (n: number): Uint8Array => new Uint8Array([n]);

async function has(db: TrieNodeDB, key: string): Promise<boolean> {
  return (await db.get(key)) !== undefined;
}

describe('engine/trieDb', () => {
  it('rewinding to a mark deletes only the keys first written after it, and the mark stays usable', async () => {
    const db = new TrieNodeDB();
    await db.put('aa', value(1)); // before any mark: never logged
    const mark = db.mark();
    await db.put('bb', value(2));
    await db.put('aa', value(1)); // already there: not new
    db.rewind(mark);
    expect([await has(db, 'aa'), await has(db, 'bb')]).to.deep.equal([true, false]);
    await db.put('cc', value(3));
    db.rewind(mark);
    expect(await has(db, 'cc')).to.equal(false);
    expect(db.size).to.equal(1);
  });

  it('nested marks: rewinding the inner one keeps what the outer one had', async () => {
    const db = new TrieNodeDB();
    const outer = db.mark();
    await db.put('aa', value(1));
    const inner = db.mark();
    await db.put('bb', value(2));
    db.rewind(inner);
    expect([await has(db, 'aa'), await has(db, 'bb')]).to.deep.equal([true, false]);
    db.rewind(outer);
    expect(db.size).to.equal(0);
  });

  it('pinned keys survive every rewind; closeLog stops logging', async () => {
    const db = new TrieNodeDB();
    const mark = db.mark();
    await db.put('aa', value(1));
    db.pin();
    await db.put('bb', value(2));
    db.rewind(mark);
    expect([await has(db, 'aa'), await has(db, 'bb')]).to.deep.equal([true, false]);
    db.closeLog();
    await db.put('cc', value(3));
    db.rewind(0); // no log: nothing to free
    expect(await has(db, 'cc')).to.equal(true);
  });

  it('shallow copies (storage tries) share the nodes and the log, and store flat keys', async () => {
    const db = new TrieNodeDB();
    const copy = db.shallowCopy();
    expect(copy).to.be.instanceOf(TrieNodeDB);
    const mark = db.mark();
    let rope = '';
    for (let i = 0; i < 32; i++) rope += 'ab';
    await copy.put(rope, value(1));
    expect(await has(db, rope)).to.equal(true);
    db.rewind(mark);
    expect(await has(copy, rope)).to.equal(false);
  });

  it("a lease defers a rewind's deletions until the last lease ends; a deferred node written again stays", async () => {
    const db = new TrieNodeDB();
    const mark = db.mark();
    await db.put('aa', value(1));
    await db.put('bb', value(2));
    const first = db.lease();
    const second = db.lease();
    db.rewind(mark);
    // Readers still see every node; the rewind's nodes wait.
    expect([await has(db, 'aa'), await has(db, 'bb'), db.deferredSize]).to.deep.equal([true, true, 2]);
    await db.put('bb', value(2)); // needed again (content-addressed): not deleted, and logged as new
    first();
    first(); // a second call does nothing
    expect(db.deferredSize).to.equal(1);
    second();
    expect([await has(db, 'aa'), await has(db, 'bb'), db.deferredSize]).to.deep.equal([false, true, 0]);
    db.rewind(mark); // bb was first written (again) after the mark
    expect(db.size).to.equal(0);
  });

  it('without a lease a rewind deletes at once, as before', async () => {
    const db = new TrieNodeDB();
    const mark = db.mark();
    await db.put('aa', value(1));
    db.lease()();
    db.rewind(mark);
    expect([await has(db, 'aa'), db.deferredSize]).to.deep.equal([false, 0]);
  });
});
