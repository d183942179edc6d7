/**
 * Keccak-256 on the shared WebAssembly Keccak-f permutation (keccakF1600.ts; about 15x
 * faster than JavaScript): block hashing is the cost of mining many empty blocks.
 * Falls back to noble's permutation where WebAssembly is unavailable; same output.
 */
import { keccakF1600, littleEndianHost } from './keccakF1600.js';
import { keccak_256 } from '@noble/hashes/sha3.js';

const RATE_BYTES = 136;
const RATE_WORDS = RATE_BYTES / 4;
const { state, permute } = keccakF1600;
const stateBytes = new Uint8Array(state.buffer, state.byteOffset, 200);

export function keccak256(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(32);
  keccak256Into(data, 0, data.length, out, 0);
  return out;
}

/**
 * Keccak-256 of `length` bytes of `data` from `from`, written into `out` at `offset`:
 * no allocation, for hashing runs of empty blocks.
 */
export function keccak256Into(data: Uint8Array, from: number, length: number, out: Uint8Array, offset: number): void {
  if (!littleEndianHost) {
    out.set(keccak_256(data.subarray(from, from + length)), offset);
    return;
  }
  state.fill(0);
  let at = from;
  const end = from + length;
  // Whole 4-byte words where the input is aligned (a header buffer, a flat hash buffer): a
  // quarter of the byte loop's work; the state's u32 words are little-endian like the bytes.
  const words = (data.byteOffset + from) % 4 === 0 ? new Uint32Array(data.buffer, data.byteOffset + from, length >>> 2) : undefined;
  while (end - at >= RATE_BYTES) {
    if (words) {
      const w = (at - from) >>> 2;
      for (let i = 0; i < RATE_WORDS; i++) state[i]! ^= words[w + i]!;
    } else {
      for (let i = 0; i < RATE_BYTES; i++) stateBytes[i]! ^= data[at + i]!;
    }
    permute();
    at += RATE_BYTES;
  }
  const rest = end - at;
  let i = 0;
  if (words) for (const w = (at - from) >>> 2; i + 4 <= rest; i += 4) state[i >>> 2]! ^= words[w + (i >>> 2)]!;
  for (; i < rest; i++) stateBytes[i]! ^= data[at + i]!;
  // Keccak (pre-SHA-3) padding.
  stateBytes[rest]! ^= 0x01;
  stateBytes[RATE_BYTES - 1]! ^= 0x80;
  permute();
  for (let i = 0; i < 32; i++) out[offset + i] = stateBytes[i]!;
}
