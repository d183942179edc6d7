// Shared test helpers. The epoch-0 cache (16 MiB) is built once per test run,
// through the real store (worker thread + cache file), and reused everywhere.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EthashCacheStore } from '../../../src/engine/pow/ethash.js';

export const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
export const fromHex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s.replace(/^0x/, ''), 'hex'));
export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
export const cacheBytes = (cache: Uint32Array): Uint8Array => new Uint8Array(cache.buffer, cache.byteOffset, cache.byteLength);

const tempDirs: string[] = [];
process.once('exit', () => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp directory, removed when the test process exits. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `chain-sim-${prefix}-`));
  tempDirs.push(dir);
  return dir;
}

export interface Epoch0Fixture {
  cache: Uint32Array;
  /** Directory holding the epoch-0 cache file the fixture's store wrote. */
  dir: string;
}

let epoch0: Promise<Epoch0Fixture> | undefined;

export function epoch0Cache(): Promise<Epoch0Fixture> {
  epoch0 ??= (async () => {
    const dir = tempDir('ethash');
    const store = new EthashCacheStore({ dir });
    const cache = await store.get(0);
    await store.flush();
    return { cache, dir };
  })();
  return epoch0;
}
