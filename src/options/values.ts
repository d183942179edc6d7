/** The checks every option value goes through: whole numbers in a range, booleans, and the error naming the option. */
import { clip } from '../engine/util/clip.js';

/** The largest block gas limit (ethereumjs keeps it in an int64). */
export const MAX_GAS_LIMIT = 2n ** 63n - 1n;

export class OptionError extends Error {
  constructor(
    /** The flag (or other tool's option) the value was given as. */
    readonly option: string,
    readonly problem: string,
  ) {
    super(`invalid value for ${option}: ${problem}`);
    this.name = 'OptionError';
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
