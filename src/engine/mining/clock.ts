/**
 * Block timestamps: wall clock plus a settable offset, strictly increasing, or a fixed
 * step after the parent (Anvil's block timestamp interval). The wall clock is injectable
 * so tests control time without sleeping.
 */
import { rejected } from '../util/errors.js';

export type WallClock = () => number; // milliseconds, like Date.now

/** Headers hold a block's timestamp as a uint64. */
export const MAX_TIMESTAMP = 2n ** 64n - 1n;

/** Refuses a block at `timestamp` that no header could hold. */
export function assertMinable(timestamp: bigint): void {
  if (timestamp > MAX_TIMESTAMP) throw rejected(`block timestamp ${timestamp} would exceed 2^64-1`);
}

export class BlockClock {
  private offsetSeconds = 0n;
  private nextOverride: bigint | undefined;
  private interval: bigint | undefined;
  /** Hardhat's allowBlocksWithSameTimestamp: a block may have its parent's timestamp (--allow-same-timestamp). */
  allowSameTimestamp = false;

  constructor(private readonly wallClock: WallClock = Date.now) {}

  nowSeconds(): bigint {
    return BigInt(Math.floor(this.wallClock() / 1000)) + this.offsetSeconds;
  }

  /** The timestamp for the next block on top of a parent with `parentTimestamp`. */
  peekNext(parentTimestamp: bigint): bigint {
    if (this.nextOverride === undefined && this.interval !== undefined) return parentTimestamp + this.interval;
    const candidate = this.nextOverride ?? this.nowSeconds();
    return candidate > parentTimestamp || (this.allowSameTimestamp && candidate === parentTimestamp) ? candidate : parentTimestamp + 1n;
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

  /** Each later block `seconds` after its parent, whatever the wall clock says (a one-shot setNext still wins). */
  setBlockInterval(seconds: bigint): void {
    this.interval = seconds;
  }

  /** The fixed step between blocks, if one is set. */
  get blockInterval(): bigint | undefined {
    return this.interval;
  }

  /** Back to wall-clock timestamps; false if no interval was set. */
  clearBlockInterval(): boolean {
    const had = this.interval !== undefined;
    this.interval = undefined;
    return had;
  }

  /** Seconds ahead of the wall clock (negative: behind), as a saved state file records it. */
  get offset(): bigint {
    return this.offsetSeconds;
  }

  set offset(seconds: bigint) {
    this.offsetSeconds = seconds;
  }

  /** Make the wall clock read `timestamp` now (offset adjusted accordingly). */
  setTime(timestamp: bigint): void {
    this.offsetSeconds = timestamp - BigInt(Math.floor(this.wallClock() / 1000));
  }

  save(): ClockState {
    return { offsetSeconds: this.offsetSeconds, nextOverride: this.nextOverride, interval: this.interval, savedAtMs: this.wallClock() };
  }

  /**
   * Back to a saved state. With `rewind` the clock also reads again what it read when saved:
   * the wall-clock time since then is taken off the offset, as Hardhat's evm_revert does
   * (its rounding: whole seconds toward the snapshot), so a suite that reverts after every
   * test does not drift forward. Without it only the offset comes back.
   */
  restore(state: ClockState, rewind = false): void {
    const elapsedSeconds = rewind ? BigInt(Math.ceil((state.savedAtMs - this.wallClock()) / 1000)) : 0n;
    this.offsetSeconds = state.offsetSeconds + elapsedSeconds;
    this.nextOverride = state.nextOverride;
    this.interval = state.interval;
  }
}

export interface ClockState {
  readonly offsetSeconds: bigint;
  readonly nextOverride: bigint | undefined;
  readonly interval: bigint | undefined;
  /** The wall clock when saved (milliseconds). */
  readonly savedAtMs: number;
}
