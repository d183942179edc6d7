// Where verifiers get an epoch's cache from: memory, else the cache file,
// else a background build (worker thread, or sliced on the main thread if no
// worker can run), which is then saved for the next start.
import { buildCacheSliced } from './cache.js';
import { readCacheFile, writeCacheFile, defaultCacheDir } from './cacheFile.js';
import { buildCacheInWorker } from './cacheThread.js';
import { assertEpoch, cacheSize, seedHash } from './params.js';
import { littleEndianHost } from '../util/keccakF1600.js';

export type CacheBuilderFn = (sizeBytes: number, seed: Uint8Array, signal: AbortSignal) => Promise<Uint32Array>;

export interface EthashCacheStoreOptions {
  /** Cache file directory; undefined = defaultCacheDir(), null = no file cache. */
  dir?: string | null;
  /** Epochs kept in memory (default 2: the current one and the next, prepared ahead). */
  maxInMemory?: number;
  /** How caches are built; default: worker thread, falling back to a sliced in-thread build. */
  build?: CacheBuilderFn;
  /** Told about recoverable problems (unusable cache file, failed write, worker failure). */
  onWarning?: (message: string) => void;
}

export class EthashCacheStore {
  readonly dir: string | null;
  private readonly caches = new Map<number, Promise<Uint32Array>>();
  private readonly pendingWrites = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private readonly maxInMemory: number;
  private readonly build: CacheBuilderFn;
  private readonly warn: (message: string) => void;

  constructor(opts: EthashCacheStoreOptions = {}) {
    // Files hold host-order words; only little-endian hosts (all mainstream ones) use them.
    const dir = opts.dir === undefined ? defaultCacheDir() : opts.dir;
    this.dir = littleEndianHost ? dir : null;
    this.maxInMemory = Math.max(1, opts.maxInMemory ?? 2);
    this.warn = opts.onWarning ?? (() => undefined);
    this.build = opts.build ?? ((size, seed, signal) => this.defaultBuild(size, seed, signal));
  }

  /**
   * Starts loading or building `epoch`'s cache without waiting for it (call it
   * when pow mode starts, and for the next epoch ahead of time). Throws only
   * for an invalid epoch; build problems surface from get().
   */
  prepare(epoch: number): void {
    assertEpoch(epoch);
    this.get(epoch).catch(() => undefined); // failures resurface to whoever calls get()
  }

  /** The epoch's cache: from memory, the cache file, or a build (shared with any load already under way). */
  get(epoch: number): Promise<Uint32Array> {
    try {
      assertEpoch(epoch);
    } catch (err) {
      return Promise.reject(err);
    }
    if (this.abort.signal.aborted) return Promise.reject(new Error('EthashCacheStore is closed'));
    let cache = this.caches.get(epoch);
    if (cache === undefined) {
      cache = this.load(epoch);
      // A failed load is forgotten so the next get() retries.
      cache.catch(() => {
        if (this.caches.get(epoch) === cache) this.caches.delete(epoch);
      });
    }
    // Re-inserting keeps the Map in least-recently-used order.
    this.caches.delete(epoch);
    this.caches.set(epoch, cache);
    for (const old of this.caches.keys()) {
      if (this.caches.size <= this.maxInMemory) break;
      this.caches.delete(old);
    }
    return cache;
  }

  /** Resolves once every cache file write started so far has finished (or failed). */
  async flush(): Promise<void> {
    await Promise.all(this.pendingWrites);
  }

  /** Stops in-flight builds (their get() promises reject) and drops the in-memory caches. */
  close(): void {
    this.abort.abort();
    this.caches.clear();
  }

  private async load(epoch: number): Promise<Uint32Array> {
    const sizeBytes = cacheSize(epoch);
    if (this.dir !== null) {
      const read = await readCacheFile(this.dir, epoch, sizeBytes);
      if (read.ok) return read.cache;
      if (read.reason === 'invalid') this.warn(`ignoring ethash cache file (${read.detail}); rebuilding`);
    }
    const cache = await this.build(sizeBytes, seedHash(epoch), this.abort.signal);
    if (cache.length * 4 !== sizeBytes) throw new Error(`ethash cache builder returned ${cache.length * 4} bytes`);
    if (this.dir !== null) this.save(this.dir, epoch, cache);
    return cache;
  }

  private save(dir: string, epoch: number, cache: Uint32Array): void {
    const write = writeCacheFile(dir, epoch, cache)
      .catch((err: unknown) => this.warn(`could not save ethash cache file: ${describe(err)}`))
      .finally(() => this.pendingWrites.delete(write));
    this.pendingWrites.add(write);
  }

  private async defaultBuild(sizeBytes: number, seed: Uint8Array, signal: AbortSignal): Promise<Uint32Array> {
    try {
      return await buildCacheInWorker({ sizeBytes, seed }, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      this.warn(`ethash cache worker failed (${describe(err)}); building on the main thread`);
    }
    return buildCacheSliced(sizeBytes, seed, () => signal.aborted);
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
