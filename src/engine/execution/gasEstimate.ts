/**
 * The search of eth_estimateGas, as go-ethereum's estimator (eth/gasestimator) does it: a
 * binary search over real executions between the gas the call was charged and the highest
 * limit allowed, where a limit "works" when the execution did not fail (no revert, no out
 * of gas at any depth that reaches the top). Because every answer is a limit that was run
 * and worked, a transaction sent with it succeeds whenever the state and block it runs in
 * are the ones estimated against (callers estimate against the next block: see
 * docs/compatibility.md).
 *
 * Unlike go-ethereum, which stops once the range is within 1.5% (an overestimate), the
 * search goes to the exact boundary (docs/choices.md), and tries the gas charged first:
 * most calls need exactly that, so they take two runs (go-ethereum's optimistic limit first
 * would take four to six to reach the boundary). When the first run shows that the gas left
 * never mattered to it (patches/gasDependence.ts) and it earned no refund, a run with the
 * gas charged would go the same way: that is the answer, after one run.
 */
import type { ExecResult } from '@ethereumjs/evm';
import { type EngineError, IntrinsicGasError, rejected } from '../util/errors.js';
import { executionFailure } from './revert.js';

/** What the search needs to know of one run. */
export interface EstimateRun {
  readonly execResult: ExecResult;
  /** Gas charged: used, less the capped refund, at least the EIP-7623 floor (go-ethereum's UsedGas). */
  readonly totalGasSpent: bigint;
  /** Gas used before refunds, at least the floor (go-ethereum's MaxUsedGas): the most the run ever needed at once. */
  readonly peakGas: bigint;
  /** Whether a run with the lower limit given, which covers all the gas this one used, would succeed the same way (gasDependence.ts). */
  readonly sameWithLess?: (lower: bigint) => boolean;
}

/** Tests turn the one-run answer off to compare it with the second run it saves (test/integration/estimateGas.test.ts). */
export const ONE_RUN_ESTIMATES = { enabled: true, taken: 0 };

export interface EstimateSearch {
  /** The highest limit allowed (the request's gas, the sender's funds, the cap). */
  readonly highest: bigint;
  /** A value transfer with no data to an account without code: 21000 is tried before anything else. */
  readonly plainTransfer: boolean;
  /** One execution with the given gas limit; throws for failures that no limit would change. */
  readonly run: (gasLimit: bigint) => Promise<EstimateRun>;
}

/** A plain transfer's gas (intrinsic cost, no execution). */
const TX_GAS = 21_000n;
/** Gas a CALL with value hands to its callee for free: go-ethereum's optimistic limit adds it. */
const CALL_STIPEND = 2_300n;

/** The smallest gas limit with which the call succeeds; the call's revert, or `gas required exceeds allowance`, if none does. */
export async function searchGasLimit(search: EstimateSearch): Promise<bigint> {
  const works = async (gasLimit: bigint): Promise<boolean> => {
    const outcome = await runOrLowGas(search.run, gasLimit);
    return outcome !== undefined && outcome.execResult.exceptionError === undefined;
  };
  // go-ethereum runs a plain transfer at 21000 rather than answering it unrun: an access list or
  // an EIP-7702 authorization can cost more.
  if (search.plainTransfer && search.highest >= TX_GAS && (await works(TX_GAS))) return TX_GAS;

  let hi = search.highest;
  const first = await runOrLowGas(search.run, hi);
  if (first === undefined) throw exceedsAllowance(hi);
  const failure = first.execResult.exceptionError;
  if (failure) {
    if (failure.error === 'out of gas') throw exceedsAllowance(hi);
    throw executionFailure(failure.error, first.execResult.returnValue);
  }
  // Below the gas charged nothing succeeds (the run would need at least that much).
  let lo = first.totalGasSpent - 1n;
  // Most calls (no refund, no nested call keeping its 1/64, no gasleft() check) need exactly that.
  if (lo + 1n < hi) {
    // No refund counted (the peak is the gas charged), so the gas charged covers every step of the run.
    if (ONE_RUN_ESTIMATES.enabled && first.peakGas === first.totalGasSpent && first.sameWithLess?.(lo + 1n)) {
      ONE_RUN_ESTIMATES.taken++;
      return lo + 1n;
    }
    if (await works(lo + 1n)) return lo + 1n;
    lo += 1n;
  }
  // go-ethereum's optimistic limit: the peak need plus a call stipend, with the headroom that the
  // 63/64 rule keeps back from nested calls. Usually enough, and close above the boundary.
  const optimistic = ((first.peakGas + CALL_STIPEND) * 64n) / 63n;
  if (optimistic > lo && optimistic < hi) {
    if (await works(optimistic)) hi = optimistic;
    else lo = optimistic;
  }
  while (lo + 1n < hi) {
    // Skewed low, as go-ethereum's: needs far above the gas used are rare.
    let mid = (lo + hi) / 2n;
    if (mid > lo * 2n) mid = lo * 2n;
    if (await works(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** One run; undefined when the limit is below the intrinsic cost or the EIP-7623 floor (more gas would help). */
async function runOrLowGas(run: EstimateSearch['run'], gasLimit: bigint): Promise<EstimateRun | undefined> {
  try {
    return await run(gasLimit);
  } catch (error) {
    if (error instanceof IntrinsicGasError) return undefined;
    throw error;
  }
}

function exceedsAllowance(limit: bigint): EngineError {
  return rejected(`gas required exceeds allowance (${limit})`);
}
