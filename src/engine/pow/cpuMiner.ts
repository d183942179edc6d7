// The built-in CPU miner (--miner-threads N): worker threads search nonces for
// the sealer's current work and submit what they find, like an external miner
// would, so blocks appear without any client.
import { randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { toHex } from '../util/hex.js';
import type { Chain } from '../chain.js';
import type { EthashCacheStore } from './cacheStore.js';
import type { MinerJob, MinerReport } from './cpuMinerWorker.js';
import type { PowSealer } from './sealer.js';

/** How often the work is checked besides on new blocks and transactions (state setters change it too). */
const POLL_MS = 1000;
/** The hashrate reported under this id in chain_hashrate, refreshed every poll. */
const LOCAL_ID = 'built-in cpu miner';

export class CpuMiner {
  private readonly workers: Worker[] = [];
  private readonly shared = new Map<number, Uint32Array>();
  private current: string | undefined;
  private refreshing: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private attempts = 0;
  private lastReport: number;
  private readonly refresh = () => void this.scheduleRefresh();

  constructor(
    private readonly chain: Chain,
    private readonly sealer: PowSealer,
    private readonly store: EthashCacheStore,
    private readonly threads: number,
    private readonly now: () => number = Date.now,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.lastReport = now();
  }

  start(): void {
    for (let i = 0; i < this.threads; i++) {
      const worker = new Worker(new URL('./cpuMinerWorker.js', import.meta.url));
      worker.on('message', (report: MinerReport) => this.onReport(report));
      worker.on('error', this.onError);
      worker.unref(); // a miner alone does not keep the process alive
      this.workers.push(worker);
    }
    this.chain.on('block', this.refresh);
    this.chain.on('pendingTransaction', this.refresh);
    this.timer = setInterval(() => {
      this.reportHashrate();
      this.refresh();
    }, POLL_MS);
    this.timer.unref();
    this.refresh();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.chain.off('block', this.refresh);
    this.chain.off('pendingTransaction', this.refresh);
    for (const worker of this.workers.splice(0)) void worker.terminate();
  }

  /** One refresh at a time; a request during one runs once more after it. */
  private scheduleRefresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = this.assign()
      .catch(this.onError)
      .finally(() => {
        this.refreshing = undefined;
        if (this.again) {
          this.again = false;
          void this.scheduleRefresh();
        }
      });
    return this.refreshing;
  }

  /** Give the workers the current work (disjoint random nonce ranges), or idle them when mining is stopped. */
  private async assign(): Promise<void> {
    if (this.workers.length === 0) return;
    if (!this.sealer.mining) {
      if (this.current !== undefined) this.broadcast(() => null);
      this.current = undefined;
      return;
    }
    const work = await this.sealer.getWork();
    if (work.powHashHex === this.current) return;
    const cache = await this.sharedCache(work.epoch);
    this.current = work.powHashHex;
    const base = BigInt(toHex(randomBytes(8)));
    this.broadcast((i) => ({ cache, epoch: work.epoch, powHash: work.powHash, difficulty: work.difficulty, startNonce: base + (BigInt(i) << 48n) }));
  }

  private broadcast(jobFor: (index: number) => MinerJob): void {
    this.workers.forEach((worker, i) => worker.postMessage(jobFor(i)));
  }

  /** The epoch's cache in shared memory, so every worker reads the same copy. */
  private async sharedCache(epoch: number): Promise<Uint32Array> {
    let shared = this.shared.get(epoch);
    if (!shared) {
      const cache = await this.store.get(epoch);
      shared = new Uint32Array(new SharedArrayBuffer(cache.byteLength));
      shared.set(cache);
      this.shared.clear(); // one epoch at a time
      this.shared.set(epoch, shared);
    }
    return shared;
  }

  private onReport(report: MinerReport): void {
    if (report.kind === 'progress') {
      this.attempts += report.attempts;
      return;
    }
    this.current = undefined;
    this.sealer
      .submitWork(report.nonce, report.powHash, report.mixDigest)
      .then(() => this.scheduleRefresh())
      .catch(this.onError);
  }

  private reportHashrate(): void {
    const now = this.now();
    const seconds = (now - this.lastReport) / 1000;
    if (seconds <= 0) return;
    this.sealer.hashrate.submit(LOCAL_ID, BigInt(Math.round(this.attempts / seconds)));
    this.attempts = 0;
    this.lastReport = now;
  }
}
