// Checking a seal (nonce + mixDigest) against a header's difficulty.
import { hashimotoLight } from './hashimoto.js';
import { cacheSize, datasetSize } from './params.js';

const TWO_256 = 1n << 256n;

/**
 * The target a result must not exceed: 2^256 / difficulty as 32 big-endian
 * bytes. Difficulty 1 would give 2^256, which does not fit; it is clamped to
 * 2^256 - 1, which accepts every result exactly as 2^256 would.
 */
export function boundaryOf(difficulty: bigint): Uint8Array {
  if (difficulty <= 0n) throw new RangeError(`difficulty must be positive: ${difficulty}`);
  const boundary = bigintMin(TWO_256 / difficulty, TWO_256 - 1n);
  return hexToBytes32(boundary.toString(16));
}

/**
 * True when `nonce` and `mixDigest` are a valid Ethash seal for `sealHash` at
 * `difficulty`. Malformed user input (wrong lengths, difficulty ≤ 0) is simply
 * invalid; a cache that does not belong to `epoch` is a programming error and throws.
 */
export function verifySeal(cache: Uint32Array, epoch: number, sealHash: Uint8Array, nonce: Uint8Array, mixDigest: Uint8Array, difficulty: bigint): boolean {
  if (cache.length * 4 !== cacheSize(epoch)) {
    throw new RangeError(`cache of ${cache.length * 4} bytes does not belong to epoch ${epoch}`);
  }
  if (difficulty <= 0n || nonce.length !== 8 || mixDigest.length !== 32 || sealHash.length !== 32) return false;
  const out = hashimotoLight(cache, datasetSize(epoch), sealHash, nonce);
  return equalBytes(out.mixDigest, mixDigest) && meetsBoundary(out.result, boundaryOf(difficulty));
}

/** result ≤ boundary, both 32-byte big-endian numbers. */
export function meetsBoundary(result: Uint8Array, boundary: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) {
    if (result[i] !== boundary[i]) return result[i]! < boundary[i]!;
  }
  return true;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function bigintMin(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function hexToBytes32(hex: string): Uint8Array {
  const padded = hex.padStart(64, '0');
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(padded.slice(2 * i, 2 * i + 2), 16);
  return out;
}
