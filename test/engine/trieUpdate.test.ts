import { expect } from 'chai';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { nibblesOf } from '../../src/engine/state/trieRoot.js';
import { type TrieChange, updateTrie } from '../../src/engine/state/trieUpdate.js';
import { randomSource } from '../helpers/random.js';

type Random = (below: number) => number;

/** Keys of one length from a small alphabet (long shared paths, extensions, deep branches). */
function randomKey(random: Random, length: number, alphabet: number): Uint8Array {
  return Uint8Array.from({ length }, () => random(alphabet) * 17);
}

/** Short values give nodes under 32 bytes, stored inside their parents; long ones hashed nodes. */
function randomValue(random: Random): Uint8Array {
  return Uint8Array.from({ length: 1 + random(random(2) ? 3 : 70) }, () => random(256));
}

/** A reader of the nodes in `source`'s database at `root`, through @ethereumjs/mpt. */
function readerAt(source: MerklePatriciaTrie, root: Uint8Array): MerklePatriciaTrie {
  const reader = source.shallowCopy(false);
  reader.root(root);
  return reader;
}

describe('batched trie updates (trieUpdate.ts)', () => {
  it('agrees with @ethereumjs/mpt, one change at a time, on random batches of inserts, updates and deletes', async () => {
    const random = randomSource(5);
    for (let round = 0; round < 300; round++) {
      const keyLength = random(2) ? 32 : 3;
      const alphabet = 2 + random(15);
      // The library's trie, changed key by key; ours shares its database and is changed in batches.
      const reference = new MerklePatriciaTrie();
      const expected = new Map<string, Uint8Array>();
      const initial = random(60);
      for (let i = 0; i < initial; i++) {
        const key = randomKey(random, keyLength, alphabet);
        const value = randomValue(random);
        await reference.put(key, value);
        expected.set(bytesToHex(key), value);
      }
      const db = reference.database();
      let ours = reference.root();
      for (let batch = 0; batch < 3; batch++) {
        const changes = new Map<string, TrieChange & { key: Uint8Array }>();
        const change = (key: Uint8Array, value: Uint8Array | undefined): void => void changes.set(bytesToHex(key), { key, path: nibblesOf(key), value });
        const present = [...expected.keys()].map((key) => hexToBytes(key as `0x${string}`));
        // Sometimes every key present is deleted (the trie empties) or rewritten.
        if (present.length > 0 && random(4) === 0) {
          const deleteAll = random(2) === 0;
          for (const key of present) change(key, deleteAll ? undefined : randomValue(random));
        }
        for (let i = 0, count = 1 + random(20); i < count; i++) {
          // Existing keys are updated or deleted, new ones inserted, absent ones deleted.
          const kind = random(4);
          const key = kind < 2 && present.length > 0 ? present[random(present.length)]! : randomKey(random, keyLength, alphabet);
          change(key, kind === 1 || kind === 3 ? undefined : randomValue(random));
        }
        for (const { key, value } of changes.values()) {
          if (value === undefined) {
            await reference.del(key);
            expected.delete(bytesToHex(key));
          } else {
            await reference.put(key, value);
            expected.set(bytesToHex(key), value);
          }
        }
        ours = await updateTrie(db, ours, [...changes.values()]);
        expect(bytesToHex(ours), `round ${round}, batch ${batch}`).to.equal(bytesToHex(reference.root()));
        // The nodes it stored hold the expected values, and the deleted keys are gone.
        const reader = readerAt(reference, ours);
        for (const [key, value] of expected) {
          expect(bytesToHex((await reader.get(hexToBytes(key as `0x${string}`)))!), `round ${round}: ${key}`).to.equal(bytesToHex(value));
        }
        for (const { key, value } of changes.values()) if (value === undefined) expect(await reader.get(key), `round ${round}: deleted`).to.equal(null);
      }
    }
  });

  it('gives the root it was given for no changes, and the empty root when every key is deleted', async () => {
    const reference = new MerklePatriciaTrie();
    const key = new Uint8Array(32).fill(7);
    await reference.put(key, Uint8Array.of(1));
    const db = reference.database();
    expect(await updateTrie(db, reference.root(), [])).to.equal(reference.root());
    const empty = await updateTrie(db, reference.root(), [{ path: nibblesOf(key), value: undefined }]);
    expect(bytesToHex(empty)).to.equal(bytesToHex(new MerklePatriciaTrie().root()));
  });

  it('refuses keys of different lengths and reports a missing node', async () => {
    const db = new MerklePatriciaTrie().database();
    const changes = [
      { path: nibblesOf(new Uint8Array(32)), value: Uint8Array.of(1) },
      { path: nibblesOf(new Uint8Array(3)), value: Uint8Array.of(1) },
    ];
    let error: unknown;
    try {
      await updateTrie(db, new MerklePatriciaTrie().root(), changes);
    } catch (caught) {
      error = caught;
    }
    expect(String(error)).to.match(/keys of different lengths/);
    error = undefined;
    try {
      await updateTrie(db, new Uint8Array(32).fill(9), changes.slice(0, 1));
    } catch (caught) {
      error = caught;
    }
    expect(String(error)).to.match(/missing trie node 0909/);
  });
});
