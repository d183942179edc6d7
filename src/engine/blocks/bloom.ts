/**
 * The 2048-bit logs bloom of block headers and receipts (yellow paper, M3:2048).
 * An item's probe (its three bits) is computed once, so testing many blocks'
 * blooms costs a few byte reads each instead of a Keccak hash.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';

export const BLOOM_BYTES = 256;

/** One bit of the bloom: the byte it sits in and its mask. */
export interface BloomBit {
  readonly byte: number;
  readonly mask: number;
}

/** The three bits an address or topic sets. */
export type BloomProbe = readonly [BloomBit, BloomBit, BloomBit];

export function bloomProbe(item: Uint8Array): BloomProbe {
  const h = keccak_256(item);
  const bit = (i: number): BloomBit => {
    const index = ((h[i]! << 8) | h[i + 1]!) & 2047;
    // Bit 0 is the lowest bit of the last byte (the bloom is a big-endian 2048-bit number).
    return { byte: BLOOM_BYTES - 1 - (index >> 3), mask: 1 << (index & 7) };
  };
  return [bit(0), bit(2), bit(4)];
}

/** True when the bloom may contain the item (false positives possible, no false negatives). */
export function bloomMayContain(bloom: Uint8Array, probe: BloomProbe): boolean {
  return probe.every(({ byte, mask }) => (bloom[byte]! & mask) !== 0);
}

/** Set an item's bits (for building blooms in tests and tools). */
export function bloomAdd(bloom: Uint8Array, item: Uint8Array): void {
  for (const { byte, mask } of bloomProbe(item)) bloom[byte]! |= mask;
}
