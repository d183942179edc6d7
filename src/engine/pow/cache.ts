// The Ethash verification cache (spec: mkcache): a keccak-512 chain over the
// seed followed by CACHE_ROUNDS passes of Sergio Demian Lerner's RandMemoHash,
// all done in place in one Uint32Array of little-endian words.
import { keccak_512 } from '@noble/hashes/sha3.js';
import { keccak512InPlace } from './keccak.js';
import { CACHE_ROUNDS, HASH_BYTES, HASH_WORDS } from './params.js';
import { bytesToWords } from './words.js';

/**
 * Builds a cache in resumable steps so it can run either in one go (worker
 * thread) or in slices between event-loop turns (fallback). Each step is one
 * 64-byte item of one pass; there are items × (1 + CACHE_ROUNDS) steps.
 */
export class CacheBuilder {
  readonly cache: Uint32Array<ArrayBuffer>;
  readonly totalSteps: number;
  private readonly items: number;
  private readonly seed: Uint8Array;
  private position = 0;

  constructor(sizeBytes: number, seed: Uint8Array) {
    if (!Number.isInteger(sizeBytes) || sizeBytes <= 0 || sizeBytes % HASH_BYTES !== 0) {
      throw new RangeError(`cache size must be a positive multiple of ${HASH_BYTES}: ${sizeBytes}`);
    }
    if (seed.length !== 32) throw new RangeError('seed must be 32 bytes');
    this.items = sizeBytes / HASH_BYTES;
    this.cache = new Uint32Array(sizeBytes / 4);
    this.seed = seed.slice();
    this.totalSteps = this.items * (1 + CACHE_ROUNDS);
  }

  get done(): boolean {
    return this.position === this.totalSteps;
  }

  /** Runs up to `maxSteps` steps; returns true once the cache is complete. */
  step(maxSteps: number): boolean {
    const { cache, items } = this;
    const end = Math.min(this.totalSteps, this.position + maxSteps);
    for (let pos = this.position; pos < end; pos++) {
      if (pos === 0) {
        cache.set(bytesToWords(keccak_512(this.seed)));
      } else if (pos < items) {
        // Sequential fill: item[i] = keccak512(item[i - 1]).
        const off = pos * HASH_WORDS;
        cache.copyWithin(off, off - HASH_WORDS, off);
        keccak512InPlace(cache, off);
      } else {
        // RandMemoHash: item[i] = keccak512(item[i - 1] ^ item[item[i][0] % n]).
        const i = pos % items;
        const off = i * HASH_WORDS;
        const prev = ((i + items - 1) % items) * HASH_WORDS;
        const other = (cache[off]! % items) * HASH_WORDS;
        // Word by word, each read of `other` precedes the write, so other === i is fine.
        for (let k = 0; k < HASH_WORDS; k++) cache[off + k] = cache[prev + k]! ^ cache[other + k]!;
        keccak512InPlace(cache, off);
      }
    }
    this.position = end;
    return this.done;
  }
}

/** Builds a whole cache synchronously (~0.5 s for epoch 0 with WebAssembly Keccak). */
export function buildCache(sizeBytes: number, seed: Uint8Array): Uint32Array<ArrayBuffer> {
  const builder = new CacheBuilder(sizeBytes, seed);
  builder.step(builder.totalSteps);
  return builder.cache;
}

/** Steps per event-loop turn for the in-thread fallback: a few milliseconds of work. */
const SLICE_STEPS = 8192;

/** Builds a cache on the calling thread in slices, yielding to the event loop between them. */
export async function buildCacheSliced(sizeBytes: number, seed: Uint8Array, isCancelled: () => boolean = () => false): Promise<Uint32Array> {
  const builder = new CacheBuilder(sizeBytes, seed);
  while (!builder.step(SLICE_STEPS)) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (isCancelled()) throw new Error('ethash cache build cancelled');
  }
  return builder.cache;
}
