// Ethash caches persisted across runs, so only the very first start pays for
// building one. Files are written to a temp name and renamed into place, and
// checked (size, header, SHA-256 of the data) on load: a torn, truncated or
// foreign file is reported as invalid and the caller rebuilds.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

const MAGIC = 'CSETHASH';
const FORMAT_VERSION = 1;
// magic (8) | version u32 | epoch u32 | data length u32 | reserved u32 | sha256(data) (32), little-endian.
const HEADER_BYTES = 56;
const CHECKSUM_OFFSET = 24;

export type CacheFileRead = { ok: true; cache: Uint32Array } | { ok: false; reason: 'missing' | 'invalid'; detail: string };

/** `$XDG_CACHE_HOME/chain-sim/ethash`, else `~/.cache/chain-sim/ethash`; null if there is no usable home. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const xdg = env.XDG_CACHE_HOME;
  // The XDG spec says relative values are invalid and must be ignored.
  if (xdg !== undefined && xdg !== '' && isAbsolute(xdg)) return join(xdg, 'chain-sim', 'ethash');
  let home: string;
  try {
    home = homedir();
  } catch {
    return null;
  }
  return home === '' ? null : join(home, '.cache', 'chain-sim', 'ethash');
}

export function cacheFilePath(dir: string, epoch: number): string {
  return join(dir, `cache-v${FORMAT_VERSION}-epoch${epoch}.bin`);
}

/**
 * Reads the cache for `epoch`, expected to be `sizeBytes` long. The words are
 * stored in host byte order, so callers use files only on little-endian hosts.
 */
export async function readCacheFile(dir: string, epoch: number, sizeBytes: number): Promise<CacheFileRead> {
  const path = cacheFilePath(dir, epoch);
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return { ok: false, reason: 'missing', detail: path };
    return { ok: false, reason: 'invalid', detail: `${path}: ${describe(err)}` };
  }
  const invalid = (what: string): CacheFileRead => ({ ok: false, reason: 'invalid', detail: `${path}: ${what}` });
  try {
    const { size } = await file.stat();
    if (size !== HEADER_BYTES + sizeBytes) return invalid(`size ${size}, expected ${HEADER_BYTES + sizeBytes}`);
    const header = new Uint8Array(HEADER_BYTES);
    await readFully(file, header, 0);
    const view = new DataView(header.buffer);
    if (Buffer.from(header.subarray(0, 8)).toString('latin1') !== MAGIC) return invalid('bad magic');
    if (view.getUint32(8, true) !== FORMAT_VERSION) return invalid('unknown format version');
    if (view.getUint32(12, true) !== epoch || view.getUint32(16, true) !== sizeBytes) return invalid('header mismatch');
    const cache = new Uint32Array(sizeBytes / 4);
    const data = new Uint8Array(cache.buffer);
    await readFully(file, data, HEADER_BYTES);
    if (!sha256(data).equals(header.subarray(CHECKSUM_OFFSET, CHECKSUM_OFFSET + 32))) return invalid('checksum mismatch');
    return { ok: true, cache };
  } catch (err) {
    return invalid(describe(err));
  } finally {
    await file.close().catch(() => undefined);
  }
}

/** Writes atomically: concurrent writers and crashes leave either no file or a complete one. */
export async function writeCacheFile(dir: string, epoch: number, cache: Uint32Array): Promise<void> {
  const data = new Uint8Array(cache.buffer, cache.byteOffset, cache.byteLength);
  const header = new Uint8Array(HEADER_BYTES);
  header.set(Buffer.from(MAGIC, 'latin1'));
  const view = new DataView(header.buffer);
  view.setUint32(8, FORMAT_VERSION, true);
  view.setUint32(12, epoch, true);
  view.setUint32(16, data.length, true);
  header.set(sha256(data), CHECKSUM_OFFSET);

  await mkdir(dir, { recursive: true });
  const path = cacheFilePath(dir, epoch);
  const temp = `${path}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  try {
    const file = await open(temp, 'wx', 0o644);
    try {
      await file.writeFile(header);
      await file.writeFile(data);
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}

async function readFully(file: FileHandle, into: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < into.length; ) {
    const { bytesRead } = await file.read(into, done, into.length - done, position + done);
    if (bytesRead === 0) throw new Error('unexpected end of file');
    done += bytesRead;
  }
}

function sha256(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

function isErrno(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
