// Hashimoto with dataset items derived on demand from the cache (spec:
// hashimoto_light); this is what a verifier runs per sealed block.
import { keccak_256, keccak_512 } from '@noble/hashes/sha3.js';
import { calcDatasetItem } from './dataset.js';
import { ACCESSES, HASH_WORDS, MIX_BYTES, MIX_WORDS } from './params.js';
import { bytesToWords, fnv, wordsToBytes } from './words.js';

export interface HashimotoOutput {
  /** 32 bytes, the header's mixHash field when the seal is valid. */
  mixDigest: Uint8Array;
  /** 32 bytes, compared as a big-endian number against the difficulty boundary. */
  result: Uint8Array;
}

/**
 * @param fullSize dataset size in bytes for the epoch (datasetSize(epoch))
 * @param sealHash keccak256 of the header without mixHash and nonce (sealHashOf)
 * @param nonce the header's 8-byte nonce, as stored in the header (big-endian)
 */
export function hashimotoLight(cache: Uint32Array, fullSize: number, sealHash: Uint8Array, nonce: Uint8Array): HashimotoOutput {
  if (cache.length === 0 || cache.length % HASH_WORDS !== 0) throw new RangeError('cache must hold whole 64-byte items');
  if (!Number.isInteger(fullSize) || fullSize <= 0 || fullSize % MIX_BYTES !== 0) {
    throw new RangeError(`dataset size must be a positive multiple of ${MIX_BYTES}: ${fullSize}`);
  }
  if (sealHash.length !== 32) throw new RangeError('sealHash must be 32 bytes');
  if (nonce.length !== 8) throw new RangeError('nonce must be 8 bytes');

  // Seed = keccak512(sealHash ++ nonce as a little-endian u64).
  const seedInput = new Uint8Array(40);
  seedInput.set(sealHash);
  for (let i = 0; i < 8; i++) seedInput[32 + i] = nonce[7 - i]!;
  const seedBytes = keccak_512(seedInput);
  const seed = bytesToWords(seedBytes);

  const mix = new Uint32Array(MIX_WORDS);
  for (let i = 0; i < MIX_WORDS; i++) mix[i] = seed[i % HASH_WORDS]!;
  const page = new Uint32Array(MIX_WORDS);
  const pages = fullSize / MIX_BYTES;
  const itemsPerPage = MIX_WORDS / HASH_WORDS;
  for (let i = 0; i < ACCESSES; i++) {
    const p = (fnv(i ^ seed[0]!, mix[i % MIX_WORDS]!) % pages) * itemsPerPage;
    for (let j = 0; j < itemsPerPage; j++) calcDatasetItem(cache, p + j, page, j * HASH_WORDS);
    for (let k = 0; k < MIX_WORDS; k++) mix[k] = fnv(mix[k]!, page[k]!);
  }

  // Compress the 128-byte mix to 32 bytes.
  const cmix = new Uint32Array(MIX_WORDS / 4);
  for (let i = 0; i < cmix.length; i++) {
    cmix[i] = fnv(fnv(fnv(mix[4 * i]!, mix[4 * i + 1]!), mix[4 * i + 2]!), mix[4 * i + 3]!);
  }
  const mixDigest = wordsToBytes(cmix);
  const resultInput = new Uint8Array(seedBytes.length + mixDigest.length);
  resultInput.set(seedBytes);
  resultInput.set(mixDigest, seedBytes.length);
  return { mixDigest, result: keccak_256(resultInput) };
}
