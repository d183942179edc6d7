/**
 * The Keccak-256 sponge over the WebAssembly permutation (src/engine/util/keccak256.ts)
 * against noble's keccak_256: every length around the rate, at aligned and unaligned
 * offsets (its word-wise absorb only applies to aligned input), written at any offset.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { expect } from 'chai';
import { keccak256, keccak256Into } from '../../src/engine/util/keccak256.js';
import { randomSource } from '../helpers/random.js';

describe('engine/keccak256', () => {
  it('matches noble for lengths 0..700 at every alignment, into any offset', () => {
    const below = randomSource(256);
    const buffer = Uint8Array.from({ length: 1024 }, () => below(256));
    const out = new Uint8Array(64);
    for (let length = 0; length <= 700; length++) {
      for (const from of [0, 1, 2, 3, 4, 5, 8, 13]) {
        const input = buffer.subarray(from, from + length);
        const expected = Buffer.from(keccak_256(input)).toString('hex');
        keccak256Into(buffer, from, length, out, from % 32);
        expect(Buffer.from(out.subarray(from % 32, (from % 32) + 32)).toString('hex'), `length ${length} from ${from}`).to.equal(expected);
      }
      expect(Buffer.from(keccak256(buffer.subarray(0, length))).toString('hex')).to.equal(Buffer.from(keccak_256(buffer.subarray(0, length))).toString('hex'));
    }
  });

  it('reads a view at an odd offset of a larger buffer as its own bytes', () => {
    const backing = new Uint8Array(300).map((_, i) => i);
    const view = backing.subarray(3, 290);
    const out = new Uint8Array(32);
    keccak256Into(view, 1, 200, out, 0);
    expect(Buffer.from(out).toString('hex')).to.equal(Buffer.from(keccak_256(backing.subarray(4, 204))).toString('hex'));
  });
});
