// Ethash parameters and the per-epoch values derived from them (seed hash,
// cache and dataset sizes), as defined in the Ethash spec (Yellow Paper, App. J).
import { keccak_256 } from '@noble/hashes/sha3.js';

export const EPOCH_LENGTH = 30000n;

export const HASH_BYTES = 64; // one cache / dataset item
export const MIX_BYTES = 128; // one dataset page read by hashimoto
export const HASH_WORDS = HASH_BYTES / 4;
export const MIX_WORDS = MIX_BYTES / 4;
export const DATASET_PARENTS = 256;
export const CACHE_ROUNDS = 3;
export const ACCESSES = 64;

const CACHE_BYTES_INIT = 2 ** 24;
const CACHE_BYTES_GROWTH = 2 ** 17;
const DATASET_BYTES_INIT = 2 ** 30;
const DATASET_BYTES_GROWTH = 2 ** 23;

/** Far beyond any real chain; keeps every size exact in a double. */
export const MAX_EPOCH = 2 ** 20 - 1;

export function assertEpoch(epoch: number): void {
  if (!Number.isInteger(epoch) || epoch < 0 || epoch > MAX_EPOCH) {
    throw new RangeError(`invalid ethash epoch: ${epoch}`);
  }
}

export function epochOf(blockNumber: bigint): number {
  if (blockNumber < 0n) throw new RangeError(`negative block number: ${blockNumber}`);
  const epoch = Number(blockNumber / EPOCH_LENGTH);
  assertEpoch(epoch);
  return epoch;
}

/** keccak256 applied `epoch` times to 32 zero bytes. */
export function seedHash(epoch: number): Uint8Array {
  assertEpoch(epoch);
  let seed = new Uint8Array(32);
  for (let i = 0; i < epoch; i++) seed = keccak_256(seed);
  return seed;
}

// Sizes are the largest values below the linear growth line whose item count is
// prime, which avoids cyclic access patterns. This search reproduces geth's
// precomputed tables (checked against them in the tests).
export function cacheSize(epoch: number): number {
  assertEpoch(epoch);
  return primeSizeBelow(CACHE_BYTES_INIT + CACHE_BYTES_GROWTH * epoch, HASH_BYTES);
}

export function datasetSize(epoch: number): number {
  assertEpoch(epoch);
  return primeSizeBelow(DATASET_BYTES_INIT + DATASET_BYTES_GROWTH * epoch, MIX_BYTES);
}

function primeSizeBelow(limit: number, unit: number): number {
  let size = limit - unit;
  while (!isPrime(size / unit)) size -= 2 * unit;
  return size;
}

function isPrime(n: number): boolean {
  if (n < 2) return false;
  if (n % 2 === 0) return n === 2;
  for (let d = 3; d * d <= n; d += 2) if (n % d === 0) return false;
  return true;
}
