// A plain CPU miner over hashimotoLight: for tests, examples and low
// difficulties only (each attempt derives 128 dataset items, a few ms).
import { hashimotoLight } from './hashimoto.js';
import { cacheSize, datasetSize } from './params.js';
import { boundaryOf, meetsBoundary } from './seal.js';

export interface MineOptions {
  /** First nonce tried (default 0); wraps around at 2^64. */
  startNonce?: bigint;
  /** Give up after this many nonces (default 1,000,000). */
  maxAttempts?: number;
}

export interface Seal {
  nonce: Uint8Array;
  mixDigest: Uint8Array;
}

const NONCE_SPACE = 1n << 64n;

/** Searches nonces sequentially; undefined when none of `maxAttempts` works. */
export function mineSeal(cache: Uint32Array, epoch: number, sealHash: Uint8Array, difficulty: bigint, opts: MineOptions = {}): Seal | undefined {
  if (cache.length * 4 !== cacheSize(epoch)) {
    throw new RangeError(`cache of ${cache.length * 4} bytes does not belong to epoch ${epoch}`);
  }
  const boundary = boundaryOf(difficulty);
  const fullSize = datasetSize(epoch);
  const maxAttempts = opts.maxAttempts ?? 1_000_000;
  let nonce = (((opts.startNonce ?? 0n) % NONCE_SPACE) + NONCE_SPACE) % NONCE_SPACE;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const nonceBytes = nonceToBytes(nonce);
    const { mixDigest, result } = hashimotoLight(cache, fullSize, sealHash, nonceBytes);
    if (meetsBoundary(result, boundary)) return { nonce: nonceBytes, mixDigest };
    nonce = (nonce + 1n) % NONCE_SPACE;
  }
  return undefined;
}

/** 8 big-endian bytes, the header's nonce encoding. */
export function nonceToBytes(nonce: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, nonce);
  return out;
}
