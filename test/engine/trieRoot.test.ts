import { expect } from 'chai';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex } from '@ethereumjs/util';
import { nibblesOf, orderedTrieRoot, trieRoot } from '../../src/engine/state/trieRoot.js';
import { randomSource } from '../helpers/random.js';

function randomBytes(random: (below: number) => number, length: number): Uint8Array {
  return Uint8Array.from({ length }, () => random(256));
}

/** The reference: @ethereumjs/mpt, one insert at a time. */
async function referenceRoot(entries: ReadonlyArray<readonly [Uint8Array, Uint8Array]>): Promise<string> {
  const trie = new MerklePatriciaTrie();
  for (const [key, value] of entries) await trie.put(key, value);
  return bytesToHex(trie.root());
}

describe('trie roots without a trie database (trieRoot.ts)', () => {
  it('gives the empty trie root for no entries', async () => {
    expect(bytesToHex(orderedTrieRoot([]))).to.equal(await referenceRoot([]));
  });

  it('agrees with @ethereumjs/mpt on ordered tries of 1 to 300 values (keys rlp(i), as in blocks)', async () => {
    const random = randomSource(7);
    for (const count of [1, 2, 3, 15, 16, 17, 127, 128, 129, 200, 255, 256, 257, 300]) {
      // Short values give inline (under 32 bytes) nodes, long ones hashed nodes.
      const values = Array.from({ length: count }, () => randomBytes(random, 1 + random(random(2) ? 8 : 120)));
      const expected = await referenceRoot(values.map((value, i) => [RLP.encode(i), value]));
      expect(bytesToHex(orderedTrieRoot(values)), `${count} values`).to.equal(expected);
    }
  });

  it('agrees with @ethereumjs/mpt on random keys: shared prefixes, extensions, keys that are prefixes of others', async () => {
    const random = randomSource(11);
    for (let round = 0; round < 200; round++) {
      const byKey = new Map<string, readonly [Uint8Array, Uint8Array]>();
      const count = 1 + random(40);
      const stem = randomBytes(random, random(4));
      for (let i = 0; i < count; i++) {
        // Keys from a common stem, of mixed lengths, so some are prefixes of others.
        const key = Uint8Array.from([...stem, ...randomBytes(random, random(3))]);
        byKey.set(bytesToHex(key), [key, randomBytes(random, 1 + random(random(2) ? 6 : 70))]);
      }
      const entries = [...byKey.values()];
      const ours = trieRoot(entries.map(([key, value]) => ({ path: nibblesOf(key), value })));
      expect(bytesToHex(ours), `round ${round}`).to.equal(await referenceRoot(entries));
    }
  });
});
