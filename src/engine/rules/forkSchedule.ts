/**
 * A fork schedule (from a go-ethereum genesis): which hardfork rules a block follows,
 * by its number and timestamp. A chain without one keeps a single hardfork and never
 * consults this module, so its hot path is unchanged.
 */
import type { Common } from '@ethereumjs/common';

/** One hardfork (ethereumjs name) and when it activates: at a block number or at a timestamp. */
export interface ForkActivation {
  readonly name: string;
  readonly block?: bigint;
  readonly timestamp?: bigint;
  /** Placed by chain-sim, not named by the genesis config (go-ethereum's fork id leaves it out). */
  readonly implied?: boolean;
}

/** EIP-7840 blob parameters of one fork (counts of blobs, not gas). */
export interface BlobParams {
  readonly target: number;
  readonly max: number;
  readonly baseFeeUpdateFraction: number;
}

export interface ForkSchedule {
  /** Every scheduled fork in the order the rules stack up, starting with chainstart at block 0. */
  readonly forks: readonly ForkActivation[];
  /** Blob parameters by fork name, for the forks that set them. */
  readonly blobSchedule: ReadonlyMap<string, BlobParams>;
  /** The genesis config's depositContractAddress (EIP-6110), which eth_config reports; absent = zero address. */
  readonly depositContract?: Uint8Array;
}

/**
 * The fork a block at (number, timestamp) follows: the last of the leading run of forks
 * that are all active. A later fork never activates before an earlier one (a timestamp
 * fork waits for a merge that is scheduled by block), so no combination is contradictory.
 */
export function forkAt(schedule: ForkSchedule, number: bigint, timestamp: bigint): string {
  let active = schedule.forks[0]!.name;
  for (const fork of schedule.forks) {
    const on = (fork.block !== undefined && number >= fork.block) || (fork.timestamp !== undefined && timestamp >= fork.timestamp);
    if (!on) break;
    active = fork.name;
  }
  return active;
}

/** The block number a fork activates at, if it is scheduled by number. */
export function forkBlock(schedule: ForkSchedule, name: string): bigint | undefined {
  return schedule.forks.find((f) => f.name === name)?.block;
}

/**
 * Put `common` (and the EVM listening to it) on the fork of a block at (number, timestamp).
 * Common.setHardfork does nothing when the fork is already the active one, so calling
 * this before every operation costs a short loop except at a boundary.
 */
export function alignFork(common: Common, schedule: ForkSchedule, number: bigint, timestamp: bigint): void {
  common.setHardfork(forkAt(schedule, number, timestamp));
}
