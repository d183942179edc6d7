import { expect } from 'chai';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex } from '@ethereumjs/util';
import { type RlpItem, decodeRlpList, encodeRlp } from '../../src/engine/state/nodeRlp.js';
import { randomSource } from '../helpers/random.js';

type Random = (below: number) => number;

/** Byte strings of every header class (single byte, short, long) and nested lists, some of them long. */
function randomItem(random: Random, depth: number): RlpItem {
  if (depth > 0 && random(3) === 0) return Array.from({ length: random(20) }, () => randomItem(random, depth - 1));
  const lengths = [0, 1, 1, 2, 31, 32, 55, 56, 57, 255, 256, 300];
  const length = lengths[random(lengths.length)]!;
  return Uint8Array.from({ length }, () => random(256));
}

const hex = (item: RlpItem): unknown => (item instanceof Uint8Array ? bytesToHex(item) : item.map(hex));

describe('trie-node RLP (nodeRlp.ts)', () => {
  it('encodes exactly as @ethereumjs/rlp, for strings and lists of every header class', () => {
    const random = randomSource(11);
    for (let i = 0; i < 400; i++) {
      const item = randomItem(random, 3);
      expect(bytesToHex(encodeRlp(item))).to.equal(bytesToHex(RLP.encode(item as Parameters<typeof RLP.encode>[0])));
    }
    // Lengths that need three length bytes.
    const big = [new Uint8Array(70_000).fill(7), [new Uint8Array(300)]];
    expect(bytesToHex(encodeRlp(big))).to.equal(bytesToHex(RLP.encode(big)));
  });

  it('decodes lists as @ethereumjs/rlp does, items as views into the input', () => {
    const random = randomSource(12);
    for (let i = 0; i < 400; i++) {
      const list = Array.from({ length: random(18) }, () => randomItem(random, 2));
      const encoded = RLP.encode(list as Parameters<typeof RLP.encode>[0]);
      const decoded = decodeRlpList(encoded);
      expect(hex(decoded)).to.deep.equal(hex(RLP.decode(encoded) as RlpItem));
    }
    const big = RLP.encode([new Uint8Array(70_000).fill(7), [new Uint8Array(300)]]);
    expect(hex(decodeRlpList(big))).to.deep.equal(hex(RLP.decode(big) as RlpItem));
    const encoded = RLP.encode([new Uint8Array([1, 2, 3])]);
    expect((decodeRlpList(encoded)[0] as Uint8Array).buffer).to.equal(encoded.buffer);
  });

  it('refuses what is not exactly one well-formed list', () => {
    const refuse = (bytes: number[]) => expect(() => decodeRlpList(Uint8Array.from(bytes)), bytesToHex(Uint8Array.from(bytes))).to.throw(/invalid RLP/);
    refuse([]); // nothing
    refuse([0x83, 1, 2, 3]); // a string, not a list
    refuse([0xc2, 0x01]); // the list runs past the input
    refuse([0xc3, 0x83, 1, 2]); // an item runs past its list
    refuse([0xc0, 0x00]); // bytes after the list
    refuse([0xf8]); // a long list whose length is missing
  });
});
