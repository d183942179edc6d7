/**
 * Whether a run would have gone the same way with less gas. Only a few opcodes make
 * execution depend on the gas left rather than only spend it: GAS reads it, the CALL and
 * CREATE families hand on a share of it (63/64) and their callees may run out, and SSTORE
 * fails with 2,300 gas or less left (EIP-2200's sentry). A run of code that reached none
 * of these spends the same gas at every step whatever its limit, so with a limit lowered
 * by Δ every step sees Δ less gas left: it still succeeds as long as the gas left never
 * goes below zero (the run used no more than the new limit) and every SSTORE still sees
 * more than the sentry.
 *
 * eth_estimateGas uses this to answer with the gas charged after one run instead of
 * running again at that limit to check (gasEstimate.ts). The step loop (stepLoop.ts)
 * records what it ran for the EVM being watched; a frame run by the library's loop
 * (tracers, EOF code, hooked EIPs) is recorded as unseen, and the caller runs again.
 */

/** What the step loop saw of one watched run, over all its frames. */
export interface GasDependence {
  /** Frames of code run by the step loop. */
  framesSeen: number;
  /** Frames run by the library's loop: their steps were not looked at. */
  framesUnseen: number;
  /** A GAS, CALL-family or CREATE-family opcode ran (or was reached). */
  readsGasLeft: boolean;
  /** The least gas left before any SSTORE of the run (undefined: none ran). */
  leastGasAtSstore: bigint | undefined;
}

const SSTORE = 0x55;
const GAS = 0x5a;
/** CREATE, CALL, CALLCODE, DELEGATECALL, CREATE2, and the EIP-3074/EOF call opcodes: all hand on gas. */
const HANDS_ON_GAS = new Set([0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb]);

/** What opcode numbers make a step matter: 1 reads the gas left, 2 is SSTORE. */
const SENSITIVE = new Uint8Array(256);
SENSITIVE[GAS] = 1;
for (const op of HANDS_ON_GAS) SENSITIVE[op] = 1;
SENSITIVE[SSTORE] = 2;

/** The EIP-2200 sentry: SSTORE fails with this much gas left or less. */
export const SSTORE_SENTRY = 2_300n;

const watched = new WeakMap<object, GasDependence>();

/** Record what runs on `evm` while `body` runs (one watch per EVM at a time; a nested one takes over). */
export async function watchingGasDependence<T>(evm: object, body: () => Promise<T>): Promise<{ result: T; dependence: GasDependence }> {
  const dependence: GasDependence = { framesSeen: 0, framesUnseen: 0, readsGasLeft: false, leastGasAtSstore: undefined };
  const outer = watched.get(evm);
  watched.set(evm, dependence);
  try {
    return { result: await body(), dependence };
  } finally {
    if (outer) watched.set(evm, outer);
    else watched.delete(evm);
  }
}

/** The record for a run on `evm`, if one is watched (the step loop asks once per frame). */
export function gasDependenceOf(evm: object): GasDependence | undefined {
  return watched.get(evm);
}

/** The step loop's note of one step about to run with `gasLeft`. */
export function noteStep(dependence: GasDependence, opCode: number, gasLeft: bigint): void {
  const kind = SENSITIVE[opCode];
  if (kind === 1) dependence.readsGasLeft = true;
  else if (kind === 2 && (dependence.leastGasAtSstore === undefined || gasLeft < dependence.leastGasAtSstore)) dependence.leastGasAtSstore = gasLeft;
}

/**
 * Whether the watched run, made with `gasLimit`, would succeed the same way with `lower`:
 * every frame seen, nothing that reads the gas left, every SSTORE still above the sentry.
 * The caller also makes sure `lower` covers all the gas the run used (no refund counted).
 */
export function sameWithLess(dependence: GasDependence, gasLimit: bigint, lower: bigint): boolean {
  if (dependence.framesSeen === 0 || dependence.framesUnseen > 0 || dependence.readsGasLeft) return false;
  const least = dependence.leastGasAtSstore;
  return least === undefined || least - (gasLimit - lower) > SSTORE_SENTRY;
}
