// Runs a cache build in a worker thread so the event loop keeps serving RPC
// while the epoch's cache is built (the build itself is synchronous CPU work).
import { Worker } from 'node:worker_threads';

export interface CacheJob {
  sizeBytes: number;
  seed: Uint8Array;
}

/** Rejects if the worker cannot start or dies (the caller may then build in-thread), or on abort. */
export function buildCacheInWorker(job: CacheJob, signal?: AbortSignal): Promise<Uint32Array> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('ethash cache build cancelled'));
    let worker: Worker;
    try {
      worker = new Worker(new URL('./cacheWorker.js', import.meta.url), { workerData: job });
    } catch (err) {
      return reject(err);
    }
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = () => {
      settle(() => reject(new Error('ethash cache build cancelled')));
      void worker.terminate();
    };
    signal?.addEventListener('abort', onAbort);
    worker.once('message', (cache: unknown) => {
      if (cache instanceof Uint32Array && cache.length * 4 === job.sizeBytes) settle(() => resolve(cache));
      else settle(() => reject(new Error('ethash cache worker sent an unexpected message')));
    });
    worker.once('error', (err) => settle(() => reject(err)));
    worker.once('exit', (code) => settle(() => reject(new Error(`ethash cache worker exited with code ${code}`))));
  });
}
