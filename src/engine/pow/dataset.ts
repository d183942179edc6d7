// One 64-byte dataset item computed from the cache (spec: calc_dataset_item).
// Light verification never materialises the 1 GiB+ dataset; it derives only
// the 128 items hashimoto touches.
import { keccak512InPlace } from './keccak.js';
import { DATASET_PARENTS, HASH_WORDS } from './params.js';
import { fnv } from './words.js';

/** Writes dataset item `index` as 16 words into `out[outOff..outOff + 16)`. */
export function calcDatasetItem(cache: Uint32Array, index: number, out: Uint32Array, outOff: number): void {
  const items = cache.length / HASH_WORDS;
  const start = (index % items) * HASH_WORDS;
  const mix = out.subarray(outOff, outOff + HASH_WORDS);
  mix.set(cache.subarray(start, start + HASH_WORDS));
  mix[0]! ^= index;
  keccak512InPlace(mix, 0);
  // Fold in DATASET_PARENTS pseudo-randomly chosen cache items.
  for (let j = 0; j < DATASET_PARENTS; j++) {
    const parent = (fnv(index ^ j, mix[j % HASH_WORDS]!) % items) * HASH_WORDS;
    for (let k = 0; k < HASH_WORDS; k++) mix[k] = fnv(mix[k]!, cache[parent + k]!);
  }
  keccak512InPlace(mix, 0);
}
