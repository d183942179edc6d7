import { expect } from 'chai';
import { CacheBuilder, buildCache, buildCacheSliced } from '../../../src/engine/pow/cache.js';
import { buildCacheInWorker } from '../../../src/engine/pow/cacheThread.js';
import { seedHash } from '../../../src/engine/pow/ethash.js';
import { cacheBytes, epoch0Cache, fromHex, hex, sha256Hex } from './helpers.js';
import { refCacheBytes, refMkcache } from './reference.js';
import { gethSmall, powTests } from './vectors.js';
import { keccak_256 } from '@noble/hashes/sha3.js';

describe('pow/cache', () => {
  it("matches go-ethereum's 1 KiB cache vectors", () => {
    for (const v of gethSmall.caches) {
      const bytes = cacheBytes(buildCache(gethSmall.cacheBytes, seedHash(v.epoch)));
      expect(hex(bytes.subarray(0, 64)), `epoch ${v.epoch} first item`).to.equal(v.firstItem);
      expect(hex(bytes.subarray(-64)), `epoch ${v.epoch} last item`).to.equal(v.lastItem);
      expect(sha256Hex(bytes), `epoch ${v.epoch}`).to.equal(v.sha256);
    }
  });

  it('matches the spec reference implementation for assorted sizes and seeds', () => {
    // Sizes include 1 item and sizes where item[i][0] % n often hits i itself.
    for (const items of [1, 2, 3, 7, 64, 257]) {
      const seed = keccak_256(Uint8Array.of(items));
      const ours = cacheBytes(buildCache(items * 64, seed));
      expect(hex(ours), `${items} items`).to.equal(hex(refCacheBytes(refMkcache(items * 64, seed))));
    }
  });

  it('builds the same cache in slices, stepwise, and in a worker thread', async () => {
    const seed = seedHash(3);
    const whole = hex(cacheBytes(buildCache(64 * 1000, seed)));
    expect(hex(cacheBytes(await buildCacheSliced(64 * 1000, seed)))).to.equal(whole);
    expect(hex(cacheBytes(await buildCacheInWorker({ sizeBytes: 64 * 1000, seed })))).to.equal(whole);
    const builder = new CacheBuilder(64 * 1000, seed);
    let calls = 0;
    while (!builder.step(333)) calls++;
    expect(calls).to.equal(Math.ceil(builder.totalSteps / 333) - 1);
    expect(hex(cacheBytes(builder.cache))).to.equal(whole);
  });

  it('stops a sliced build when cancelled, and a worker build on abort', async () => {
    let cancelled = false;
    const sliced = buildCacheSliced(64 * 100_000, seedHash(0), () => cancelled);
    cancelled = true;
    await expectRejection(sliced, /cancelled/);
    const abort = new AbortController();
    const inWorker = buildCacheInWorker({ sizeBytes: 64 * 100_000, seed: seedHash(0) }, abort.signal);
    abort.abort();
    await expectRejection(inWorker, /cancelled/);
  });

  it('rejects invalid sizes and seeds', () => {
    expect(() => new CacheBuilder(0, seedHash(0))).to.throw(RangeError);
    expect(() => new CacheBuilder(100, seedHash(0))).to.throw(RangeError);
    expect(() => new CacheBuilder(64, new Uint8Array(31))).to.throw(RangeError);
  });

  it('builds the real epoch-0 cache (ethereum/tests cache_hash)', async function () {
    this.timeout(20_000);
    const { cache } = await epoch0Cache();
    expect(cache.length * 4).to.equal(powTests[0]!.cacheSize);
    expect(hex(keccak_256(cacheBytes(cache)))).to.equal(powTests[0]!.cacheHash);
    expect(fromHex(powTests[0]!.seed)).to.deep.equal(seedHash(0));
  });
});

async function expectRejection(promise: Promise<unknown>, message: RegExp): Promise<void> {
  try {
    await promise;
  } catch (err) {
    expect((err as Error).message).to.match(message);
    return;
  }
  expect.fail('expected a rejection');
}
