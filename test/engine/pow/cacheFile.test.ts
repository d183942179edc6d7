import { expect } from 'chai';
import { readFileSync, readdirSync, writeFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { cacheFilePath, defaultCacheDir, readCacheFile, writeCacheFile } from '../../../src/engine/pow/cacheFile.js';
import { cacheBytes, hex, tempDir } from './helpers.js';

describe('pow/cacheFile', () => {
  const cache = Uint32Array.from({ length: 64 }, (_, i) => (i * 2654435761) >>> 0);
  const size = cache.length * 4;

  it('round-trips a cache and leaves no temp files', async () => {
    const dir = join(tempDir('cachefile'), 'nested', 'dir');
    await writeCacheFile(dir, 5, cache);
    const read = await readCacheFile(dir, 5, size);
    expect(read.ok && hex(cacheBytes(read.cache))).to.equal(hex(cacheBytes(cache)));
    expect(readdirSync(dir)).to.deep.equal(['cache-v1-epoch5.bin']);
  });

  it('reports a missing file', async () => {
    const read = await readCacheFile(tempDir('cachefile'), 0, size);
    expect(read).to.include({ ok: false, reason: 'missing' });
  });

  it('rejects files with the wrong size, header or contents', async () => {
    const dir = tempDir('cachefile');
    const path = cacheFilePath(dir, 1);
    const damage = async (what: string, mutate: (bytes: Uint8Array) => Uint8Array, expectedSize = size) => {
      await writeCacheFile(dir, 1, cache);
      writeFileSync(path, mutate(new Uint8Array(readFileSync(path))));
      const read = await readCacheFile(dir, 1, expectedSize);
      expect(read.ok, what).to.equal(false);
      if (!read.ok) expect(read.reason, what).to.equal('invalid');
    };
    const flip = (offset: number) => (b: Uint8Array) => ((b[offset < 0 ? b.length + offset : offset]! ^= 1), b);
    await damage('flipped data byte', flip(-1));
    await damage('flipped magic', flip(0));
    await damage('other version', flip(8));
    await damage('other epoch', flip(12));
    await damage('flipped checksum', flip(30));
    await damage('truncated', (b) => b.subarray(0, b.length - 4));
    await damage('appended', (b) => Uint8Array.from([...b, 0]));
    await damage('expected size differs', (b) => b, size + 64);
    truncateSync(path, 0);
    expect(await readCacheFile(dir, 1, size)).to.include({ ok: false, reason: 'invalid' });
  });

  it('fails to write into an unusable directory without leaving anything behind', async () => {
    const dir = tempDir('cachefile');
    const notADir = join(dir, 'file');
    writeFileSync(notADir, 'x');
    let failed = false;
    await writeCacheFile(notADir, 0, cache).catch(() => (failed = true));
    expect(failed).to.equal(true);
    expect(readdirSync(dir)).to.deep.equal(['file']);
  });

  it('defaults to $XDG_CACHE_HOME/chain-sim/ethash, else ~/.cache/chain-sim/ethash', () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/var/cache/me' })).to.equal('/var/cache/me/chain-sim/ethash');
    const home = defaultCacheDir({});
    expect(home).to.match(/[/\\]\.cache[/\\]chain-sim[/\\]ethash$/);
    expect(defaultCacheDir({ XDG_CACHE_HOME: 'relative/path' })).to.equal(home);
    expect(defaultCacheDir({ XDG_CACHE_HOME: '' })).to.equal(home);
  });
});
