import { expect } from 'chai';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { EthashCacheStore, cacheSize } from '../../../src/engine/pow/ethash.js';
import { cacheFilePath } from '../../../src/engine/pow/cacheFile.js';
import type { CacheBuilderFn } from '../../../src/engine/pow/cacheStore.js';
import { cacheBytes, epoch0Cache, hex, tempDir } from './helpers.js';

describe('pow/EthashCacheStore', function () {
  this.timeout(20_000);

  /** A builder that hands out the already-built epoch-0 cache and counts calls. */
  function fakeBuilder(cache: Uint32Array): { build: CacheBuilderFn; calls: () => number } {
    let calls = 0;
    return { build: async () => (calls++, cache.slice()), calls: () => calls };
  }

  it('builds epoch 0 cold in a worker and saves it (the one real epoch-0 build)', async () => {
    const { cache, dir } = await epoch0Cache();
    expect(cache.length * 4).to.equal(cacheSize(0));
    expect(statSync(cacheFilePath(dir, 0)).size).to.equal(56 + cacheSize(0));
  });

  it('reuses the cache file on the next start', async () => {
    const { cache, dir } = await epoch0Cache();
    const builder = fakeBuilder(cache);
    const loaded = await new EthashCacheStore({ dir, build: builder.build }).get(0);
    expect(builder.calls()).to.equal(0);
    expect(hex(cacheBytes(loaded)) === hex(cacheBytes(cache))).to.equal(true);
  });

  it('rebuilds (and rewrites) a corrupted or truncated cache file, with a warning', async () => {
    const { cache } = await epoch0Cache();
    const dir = tempDir('store');
    const path = cacheFilePath(dir, 0);
    for (const corrupt of [(b: Buffer) => ((b[b.length - 100]! ^= 0xff), b), (b: Buffer) => b.subarray(0, 1000)]) {
      await seed(dir, cache);
      writeFileSync(path, corrupt(readFileSync(path)));
      const builder = fakeBuilder(cache);
      const warnings: string[] = [];
      const store = new EthashCacheStore({ dir, build: builder.build, onWarning: (m) => warnings.push(m) });
      const rebuilt = await store.get(0);
      await store.flush();
      expect(builder.calls()).to.equal(1);
      expect(warnings.join('\n')).to.match(/ignoring ethash cache file/);
      expect(rebuilt.length).to.equal(cache.length);
      // The fresh file is valid again: a third store loads it without building.
      const again = fakeBuilder(cache);
      await new EthashCacheStore({ dir, build: again.build }).get(0);
      expect(again.calls()).to.equal(0);
    }
  });

  it('shares one load between prepare() and concurrent get() calls', async () => {
    const { cache } = await epoch0Cache();
    const builder = fakeBuilder(cache);
    const store = new EthashCacheStore({ dir: null, build: builder.build });
    store.prepare(0);
    const [a, b] = await Promise.all([store.get(0), store.get(0)]);
    expect(a).to.equal(b);
    expect(builder.calls()).to.equal(1);
  });

  it('with dir: null never touches the file system', async () => {
    const { cache } = await epoch0Cache();
    const dir = tempDir('store');
    const store = new EthashCacheStore({ dir: null, build: fakeBuilder(cache).build });
    await store.get(0);
    await store.flush();
    expect(store.dir).to.equal(null);
    expect(existsSync(cacheFilePath(dir, 0))).to.equal(false);
  });

  it('keeps at most maxInMemory epochs and forgets failed loads', async () => {
    const { cache } = await epoch0Cache();
    const builder = fakeBuilder(cache);
    const store = new EthashCacheStore({ dir: null, build: builder.build, maxInMemory: 1 });
    const first = await store.get(0);
    expect(await store.get(0)).to.equal(first);
    let fail = true;
    const flaky = new EthashCacheStore({
      dir: null,
      build: async (...args) => {
        if (fail) throw new Error('boom');
        return builder.build(...args);
      },
    });
    let error: unknown;
    await flaky.get(0).catch((err: unknown) => (error = err));
    expect((error as Error).message).to.equal('boom');
    fail = false;
    expect((await flaky.get(0)).length).to.equal(cache.length);
  });

  it('rejects bad epochs and use after close()', async () => {
    const store = new EthashCacheStore({ dir: null });
    expect(() => store.prepare(-1)).to.throw(RangeError);
    let error: unknown;
    await store.get(1.5).catch((err: unknown) => (error = err));
    expect(error).to.be.instanceOf(RangeError);
    store.close();
    error = undefined;
    await store.get(0).catch((err: unknown) => (error = err));
    expect((error as Error).message).to.match(/closed/);
  });

  it('close() cancels a build in progress', async () => {
    const store = new EthashCacheStore({ dir: null });
    const pending = store.get(5);
    store.close();
    let error: unknown;
    await pending.catch((err: unknown) => (error = err));
    expect((error as Error).message).to.match(/cancelled/);
  });
});

/** Puts a valid epoch-0 cache file into `dir` through a store. */
async function seed(dir: string, cache: Uint32Array): Promise<void> {
  const store = new EthashCacheStore({ dir, build: async () => cache.slice() });
  await store.get(0);
  await store.flush();
}
