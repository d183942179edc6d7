// Worker-thread entry of the built-in CPU miner: searches nonces for the job it
// was last given, in small batches so a new job (or a stop) is picked up quickly.
import { parentPort } from 'node:worker_threads';
import { mineSeal } from './miner.js';

/** What the main thread sends: a job to work on, or null to idle. */
export type MinerJob = {
  readonly cache: Uint32Array;
  readonly epoch: number;
  readonly powHash: Uint8Array;
  readonly difficulty: bigint;
  readonly startNonce: bigint;
} | null;

/** What the worker sends back. */
export type MinerReport =
  | { readonly kind: 'progress'; readonly attempts: number }
  | { readonly kind: 'solution'; readonly powHash: Uint8Array; readonly nonce: Uint8Array; readonly mixDigest: Uint8Array };

/** A few tens of milliseconds of hashing between looks at the message queue. */
const BATCH = 8;

let job: MinerJob = null;
let nonce = 0n;
let running = false;

function post(report: MinerReport): void {
  parentPort!.postMessage(report);
}

function loop(): void {
  if (!job) {
    running = false;
    return;
  }
  const seal = mineSeal(job.cache, job.epoch, job.powHash, job.difficulty, { startNonce: nonce, maxAttempts: BATCH });
  nonce += BigInt(BATCH);
  post({ kind: 'progress', attempts: BATCH });
  if (seal) {
    post({ kind: 'solution', powHash: job.powHash, nonce: seal.nonce, mixDigest: seal.mixDigest });
    job = null; // wait for the next job rather than seal the same block twice
  }
  setImmediate(loop);
}

parentPort!.on('message', (next: MinerJob) => {
  job = next;
  if (next) nonce = next.startNonce;
  if (!running && job) {
    running = true;
    setImmediate(loop);
  }
});
