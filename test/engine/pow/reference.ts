// Ethash written straight from the spec's pseudo-code (Yellow Paper App. J /
// the Ethash wiki), on plain arrays with @noble/hashes. Deliberately naive and
// slow: it shares no code with src/engine/pow and exists only to cross-check it.
import { keccak_256, keccak_512 } from '@noble/hashes/sha3.js';

const WORD_BYTES = 4;
const HASH_BYTES = 64;
const MIX_BYTES = 128;
const DATASET_PARENTS = 256;
const CACHE_ROUNDS = 3;
const ACCESSES = 64;

// fnv(v1, v2) = ((v1 * FNV_PRIME) ^ v2) % 2**32, computed exactly with bigints.
const fnv = (v1: number, v2: number): number => Number(((BigInt(v1 >>> 0) * 0x01000193n) ^ BigInt(v2 >>> 0)) % 2n ** 32n);

function decodeWords(bytes: Uint8Array): number[] {
  const words: number[] = [];
  for (let i = 0; i < bytes.length; i += WORD_BYTES) {
    words.push((bytes[i]! + bytes[i + 1]! * 2 ** 8 + bytes[i + 2]! * 2 ** 16 + bytes[i + 3]! * 2 ** 24) >>> 0);
  }
  return words;
}

function encodeWords(words: number[]): Uint8Array {
  const out: number[] = [];
  for (const w of words) out.push(w & 0xff, (w >>> 8) & 0xff, (w >>> 16) & 0xff, w >>> 24);
  return Uint8Array.from(out);
}

const sha3_512 = (words: number[]): number[] => decodeWords(keccak_512(encodeWords(words)));

/** mkcache: returns the cache as a list of 16-word items. */
export function refMkcache(cacheSize: number, seed: Uint8Array): number[][] {
  const n = Math.floor(cacheSize / HASH_BYTES);
  const o = [decodeWords(keccak_512(seed))];
  for (let i = 1; i < n; i++) o.push(sha3_512(o[o.length - 1]!));
  for (let round = 0; round < CACHE_ROUNDS; round++) {
    for (let i = 0; i < n; i++) {
      const v = o[i]![0]! % n;
      o[i] = sha3_512(o[(i - 1 + n) % n]!.map((a, k) => (a ^ o[v]![k]!) >>> 0));
    }
  }
  return o;
}

export function refCalcDatasetItem(cache: number[][], i: number): number[] {
  const n = cache.length;
  const r = HASH_BYTES / WORD_BYTES;
  let mix = [...cache[i % n]!];
  mix[0] = (mix[0]! ^ i) >>> 0;
  mix = sha3_512(mix);
  for (let j = 0; j < DATASET_PARENTS; j++) {
    const cacheIndex = fnv(i ^ j, mix[j % r]!);
    mix = mix.map((m, k) => fnv(m, cache[cacheIndex % n]![k]!));
  }
  return sha3_512(mix);
}

export function refHashimotoLight(fullSize: number, cache: number[][], header: Uint8Array, nonce: Uint8Array): { mixDigest: Uint8Array; result: Uint8Array } {
  const n = Math.floor(fullSize / HASH_BYTES);
  const w = Math.floor(MIX_BYTES / WORD_BYTES);
  const mixhashes = MIX_BYTES / HASH_BYTES;
  // s = sha3_512(header + nonce[::-1])
  const s = decodeWords(keccak_512(Uint8Array.from([...header, ...[...nonce].reverse()])));
  let mix: number[] = [];
  for (let k = 0; k < mixhashes; k++) mix.push(...s);
  for (let i = 0; i < ACCESSES; i++) {
    const p = (fnv(i ^ s[0]!, mix[i % w]!) % Math.floor(n / mixhashes)) * mixhashes;
    const newdata: number[] = [];
    for (let j = 0; j < mixhashes; j++) newdata.push(...refCalcDatasetItem(cache, p + j));
    mix = mix.map((m, k) => fnv(m, newdata[k]!));
  }
  const cmix: number[] = [];
  for (let i = 0; i < mix.length; i += 4) cmix.push(fnv(fnv(fnv(mix[i]!, mix[i + 1]!), mix[i + 2]!), mix[i + 3]!));
  const mixDigest = encodeWords(cmix);
  return { mixDigest, result: keccak_256(Uint8Array.from([...encodeWords(s), ...mixDigest])) };
}

export const refCacheBytes = (cache: number[][]): Uint8Array => encodeWords(cache.flat());
export const refItemBytes = (item: number[]): Uint8Array => encodeWords(item);
