/**
 * Keccak-256 on the WebAssembly Keccak-f permutation of the Ethash module (about 15x
 * faster than JavaScript): block hashing is the cost of mining many empty blocks.
 * Falls back to noble's permutation where WebAssembly is unavailable; same output.
 */
import { keccakF1600 } from './pow/keccak.js';
import { littleEndianHost } from './pow/words.js';
import { keccak_256 } from '@noble/hashes/sha3.js';

const RATE_BYTES = 136;
const { state, permute } = keccakF1600;
const stateBytes = new Uint8Array(state.buffer, state.byteOffset, 200);

export function keccak256(data: Uint8Array): Uint8Array {
  if (!littleEndianHost) return keccak_256(data);
  state.fill(0);
  let offset = 0;
  while (data.length - offset >= RATE_BYTES) {
    for (let i = 0; i < RATE_BYTES; i++) stateBytes[i]! ^= data[offset + i]!;
    permute();
    offset += RATE_BYTES;
  }
  const rest = data.length - offset;
  for (let i = 0; i < rest; i++) stateBytes[i]! ^= data[offset + i]!;
  // Keccak (pre-SHA-3) padding.
  stateBytes[rest]! ^= 0x01;
  stateBytes[RATE_BYTES - 1]! ^= 0x80;
  permute();
  return stateBytes.slice(0, 32);
}
