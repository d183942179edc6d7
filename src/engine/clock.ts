/**
 * Block timestamps: wall clock plus a settable offset, strictly increasing.
 * The wall clock is injectable so tests control time without sleeping.
 */
export type WallClock = () => number; // milliseconds, like Date.now

export class BlockClock {
  private offsetSeconds = 0n;
  private nextOverride: bigint | undefined;

  constructor(private readonly wallClock: WallClock = Date.now) {}

  nowSeconds(): bigint {
    return BigInt(Math.floor(this.wallClock() / 1000)) + this.offsetSeconds;
  }

  /** The timestamp for the next block on top of a parent with `parentTimestamp`. */
  peekNext(parentTimestamp: bigint): bigint {
    const candidate = this.nextOverride ?? this.nowSeconds();
    return candidate > parentTimestamp ? candidate : parentTimestamp + 1n;
  }

  /** Like peekNext, and consumes a one-shot override set by setNext. */
  takeNext(parentTimestamp: bigint): bigint {
    const timestamp = this.peekNext(parentTimestamp);
    this.nextOverride = undefined;
    return timestamp;
  }

  increase(seconds: bigint): bigint {
    this.offsetSeconds += seconds;
    return this.offsetSeconds;
  }

  setNext(timestamp: bigint): void {
    this.nextOverride = timestamp;
  }

  /** Make the wall clock read `timestamp` now (offset adjusted accordingly). */
  setTime(timestamp: bigint): void {
    this.offsetSeconds = timestamp - BigInt(Math.floor(this.wallClock() / 1000));
  }

  save(): ClockState {
    return { offsetSeconds: this.offsetSeconds, nextOverride: this.nextOverride };
  }

  restore(state: ClockState): void {
    this.offsetSeconds = state.offsetSeconds;
    this.nextOverride = state.nextOverride;
  }
}

export interface ClockState {
  readonly offsetSeconds: bigint;
  readonly nextOverride: bigint | undefined;
}
