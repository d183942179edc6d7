/**
 * When blocks are made without being asked for: automine (a block per transaction), interval
 * mining (a block every period), both ("mixed"), neither ("manual"), or proof of work (blocks
 * come from solutions to chain_getWork, pow/sealer.ts). The mode the node was configured with
 * is kept here, so that a reset puts back exactly that mode (automine flag and timer both).
 */

/** The configured mode: automine on or off, and an interval in ms (a fixed period, or a random one in [min, max]). */
export interface MiningMode {
  readonly automine: boolean;
  readonly interval?: readonly [number, number];
}

export type MiningKind = 'auto' | 'interval' | 'mixed' | 'manual' | 'pow';

export class MiningPolicy {
  /** A block per admitted transaction (evm_setAutomine). */
  automine: boolean;
  private timer: NodeJS.Timeout | undefined;
  private periodMs: number | undefined;
  /** Counts changes of the interval: a block the timer asked for is mined only if none came since (`mineOne`'s `wanted`). */
  private generation = 0;

  /**
   * @param configured the mode at start-up and after every reset
   * @param pow proof-of-work mode: blocks come from sealed work
   * @param mineOne queues one block (interval mining; called from a timer, never from a task),
   *   to be mined only if `wanted()` still holds when its task runs: the block waited in the
   *   queue, and interval mining may have been changed or stopped meanwhile (the change's
   *   answer said no block comes from the old interval any more)
   * @param failed reports a failed interval block (a bug: there is no caller to answer)
   */
  constructor(
    private readonly configured: MiningMode,
    private readonly pow: boolean,
    private readonly mineOne: (wanted: () => boolean) => Promise<void>,
    private readonly failed: (error: unknown) => void,
  ) {
    this.automine = configured.automine;
  }

  /** The interval mining period in milliseconds, while interval mining is on (anvil_getIntervalMining). */
  get intervalMs(): number | undefined {
    return this.periodMs;
  }

  /** True while blocks are produced without being asked for (automine or interval mining). */
  get producesBlocks(): boolean {
    return this.automine || this.timer !== undefined;
  }

  /** The mode now, by name. */
  get kind(): MiningKind {
    if (this.pow) return 'pow';
    if (this.automine) return this.timer ? 'mixed' : 'auto';
    return this.timer ? 'interval' : 'manual';
  }

  /** Back to the configured mode: at start-up (once the chain is loaded) and after a reset. */
  restoreConfigured(): void {
    this.automine = this.configured.automine;
    const [min, max] = this.configured.interval ?? [0, 0];
    this.setInterval(min, max);
  }

  /** A block every `ms`, or every random whole number of ms in [ms, maxMs] (Hardhat's mining.interval range); 0: none. */
  setInterval(ms: number, maxMs = ms): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.periodMs = ms > 0 ? ms : undefined;
    const generation = ++this.generation;
    if (ms <= 0) return;
    const wanted = (): boolean => this.generation === generation;
    const arm = () => {
      const wait = maxMs > ms ? ms + Math.floor(Math.random() * (maxMs - ms + 1)) : ms;
      this.timer = setTimeout(() => {
        arm();
        this.mineOne(wanted).catch(this.failed);
      }, wait);
      this.timer.unref();
    };
    arm();
  }

  /** Anvil's one mining mode: an interval turns automine off; 0 leaves no mining at all. */
  intervalOnly(ms: number): void {
    this.automine = false;
    this.setInterval(ms);
  }

  /** Stop the timer so the process can exit. */
  close(): void {
    this.setInterval(0);
  }
}
