/** The checks every option value goes through: whole numbers in a range, booleans, and the error naming the option. */
import { clip } from '../engine/util/clip.js';

/** The largest block gas limit (ethereumjs keeps it in an int64). */
export const MAX_GAS_LIMIT = 2n ** 63n - 1n;

/** OptionError's `code`: stable, for code that tells the kinds apart without reading the message. */
export type OptionErrorCode = 'CHAIN_SIM_INVALID_OPTION' | 'CHAIN_SIM_UNKNOWN_OPTION';

/** An option chain-sim refuses: thrown when the provider, the server or the CLI is created, before any chain is built. */
export class OptionError extends Error {
  /** CHAIN_SIM_INVALID_OPTION: a value refused; CHAIN_SIM_UNKNOWN_OPTION: a name not known (UnknownOptionError). */
  readonly code: OptionErrorCode = 'CHAIN_SIM_INVALID_OPTION';
  constructor(
    /** The flag (or other tool's option) the value was given as. */
    readonly option: string,
    readonly problem: string,
    message = `invalid value for ${option}: ${problem}`,
  ) {
    super(message);
    this.name = 'OptionError';
  }
}

/** A name that is no option (a typo, most often), with the nearest known name when there is one near enough. */
export class UnknownOptionError extends OptionError {
  override readonly code: OptionErrorCode = 'CHAIN_SIM_UNKNOWN_OPTION';
  constructor(
    option: string,
    /** The known name nearest to `option`; undefined when none is near. */
    readonly suggestion: string | undefined,
    /** What the name is not: "option", "Ganache option". */
    kind = 'option',
  ) {
    const hint = suggestion === undefined ? '' : `: did you mean '${suggestion}'?`;
    super(option, `not a known ${kind}${hint}`, `unknown ${kind} '${clip(option)}'${hint}`);
    this.name = 'UnknownOptionError';
  }
}

export function integer(option: string, value: number | bigint | string | undefined, fallback: bigint, min: bigint, max: bigint): bigint {
  if (value === undefined) return fallback;
  let parsed: bigint;
  try {
    if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new Error();
    if (typeof value === 'string' && !/^(0x[0-9a-fA-F]+|\d+)$/.test(value.trim())) throw new Error();
    parsed = BigInt(typeof value === 'string' ? value.trim() : value);
  } catch {
    throw new OptionError(option, `expected a whole number, got "${clip(String(value))}"`);
  }
  if (parsed < min || parsed > max) throw new OptionError(option, `must be between ${min} and ${max}, got ${parsed}`);
  return parsed;
}

export function flag(option: string, value: boolean | undefined): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new OptionError(option, `expected true or false, got "${String(value)}"`);
  return value;
}
