// Worker-thread entry: builds one cache off the main thread and transfers it back.
import { parentPort, workerData } from 'node:worker_threads';
import { buildCache } from './cache.js';
import type { CacheJob } from './cacheThread.js';

const job = workerData as CacheJob;
const cache = buildCache(job.sizeBytes, job.seed);
parentPort?.postMessage(cache, [cache.buffer]);
