/**
 * Files that appear complete or not at all (state files, `chain-sim export`): the content
 * goes to a temporary file in the same directory, is flushed to disk, and the temporary
 * file is renamed over the target, so a crash mid-write leaves the old file or the new one.
 * Temporary files a killed process left behind are removed by removeStaleTempFiles.
 */
import { type FileHandle, open, readdir, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Same directory, so the rename never crosses file systems; the pid keeps two processes apart. */
function tempPathOf(path: string, pid: number): string {
  return join(dirname(path), `.${basename(path)}.${pid}.tmp`);
}

/**
 * Write `path` through `fill` atomically: temporary file, fsync, rename, fsync of the
 * directory. On failure the temporary file is removed and the error rethrown.
 */
export async function writeFileAtomically(path: string, fill: (handle: FileHandle) => Promise<void>, mode = 0o666): Promise<void> {
  const temp = tempPathOf(path, process.pid);
  try {
    const handle = await open(temp, 'w', mode);
    try {
      await fill(handle);
      await handle.sync(); // the bytes are on disk before the name points at them
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
  await syncDirectory(dirname(path));
}

/** Make the rename itself durable; not every platform lets a directory be opened, so best effort. */
async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Windows, some network file systems: the rename is still atomic, only less durable.
  }
}

/** Remove temporary files that a killed process left half-written next to `path` (best effort). */
export async function removeStaleTempFiles(path: string): Promise<void> {
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = await readdir(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = Number(name.slice(prefix.length, -'.tmp'.length));
    if (!Number.isSafeInteger(pid) || pid === process.pid || isRunning(pid)) continue;
    await unlink(join(dirname(path), name)).catch(() => {});
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}
