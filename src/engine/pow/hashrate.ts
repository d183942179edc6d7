// Hash rates reported by miners (eth_submitHashrate), as go-ethereum sums them:
// the latest rate of every miner id heard from within the last ten seconds.

export const HASHRATE_WINDOW_MS = 10_000;

export class HashrateMeter {
  private readonly rates = new Map<string, { rate: bigint; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  submit(id: string, rate: bigint): void {
    this.rates.set(id, { rate, at: this.now() });
  }

  /** Sum of the fresh rates; stale entries are forgotten on the way. */
  total(): bigint {
    const now = this.now();
    let sum = 0n;
    for (const [id, { rate, at }] of this.rates) {
      if (now - at > HASHRATE_WINDOW_MS) this.rates.delete(id);
      else sum += rate;
    }
    return sum;
  }
}
