// Keccak-512 over 64-byte items held as 16 little-endian u32 words, the shape
// of every hash inside the Ethash cache and dataset. Runs on the shared
// preallocated sponge state (../util/keccakF1600.ts), so the hot loops allocate nothing.
import { keccakF1600 } from '../util/keccakF1600.js';

const { state, permute } = keccakF1600;

const HASH_WORDS = 16;
const RATE_512_WORDS = 18; // (1600 - 2 * 512) / 32

/** Replaces the 16 words at `buf[off..off + 16)` with their Keccak-512 hash. */
export function keccak512InPlace(buf: Uint32Array, off: number): void {
  for (let i = 0; i < HASH_WORDS; i++) state[i] = buf[off + i]!;
  // Keccak (pre-SHA-3) padding: 0x01 right after the message, 0x80 in the last byte of the rate.
  state[HASH_WORDS] = 0x01;
  state[RATE_512_WORDS - 1] = 0x80000000;
  state.fill(0, RATE_512_WORDS);
  permute();
  for (let i = 0; i < HASH_WORDS; i++) buf[off + i] = state[i]!;
}
