/** The value rules of Ganache's options (ganache/options.ts): conversions, refusals, the collected result. */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { type ChainSimOptions, OptionError } from '../options.js';

export type Plain = Record<string, unknown>;

/** Collects the mapped options; the same option set twice (legacy and nested) must agree. */
export class Mapped {
  readonly options: Record<string, unknown> = {};
  readonly from = new Map<string, string>();
  readonly unlockIndexes: number[] = [];

  set(key: keyof ChainSimOptions, value: unknown, source: string): void {
    if (value === undefined) return;
    const earlier = this.from.get(key);
    if (earlier !== undefined && !same(this.options[key], value)) {
      throw new OptionError(source, `conflicts with ${earlier}, which sets the same thing to a different value`);
    }
    this.options[key] = value;
    this.from.set(key, source);
  }

  has(key: keyof ChainSimOptions): boolean {
    return this.from.has(key);
  }
}

export function same(a: unknown, b: unknown): boolean {
  return (
    JSON.stringify(a, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ===
    JSON.stringify(b, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
  );
}

/** An option chain-sim cannot honour: refused unless it has Ganache's default value. */
export function refuse(source: string, why: string): never {
  throw new OptionError(source, `not supported by chain-sim: ${why}`);
}

export function onlyDefault(source: string, value: unknown, defaults: readonly unknown[], why: string): void {
  if (value !== undefined && !defaults.includes(value)) refuse(source, why);
}

export function bool(source: string, value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new OptionError(source, `expected true or false, got ${JSON.stringify(value)}`);
  return value;
}

/** Ganache takes numbers, bigints and (hex or decimal) strings for quantities. */
export function quantity(source: string, value: unknown): bigint | undefined {
  if (value === undefined) return undefined;
  try {
    if (typeof value === 'bigint') return value;
    if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
    if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|\d+)$/.test(value.trim())) return BigInt(value.trim());
  } catch {
    // fall through
  }
  throw new OptionError(source, `expected a whole number (number, bigint or hex string), got ${JSON.stringify(String(value))}`);
}

/** chain.time: a Date, milliseconds since 1970, or a date string → seconds. */
export function genesisTime(source: string, value: unknown): bigint | undefined {
  if (value === undefined || value === null) return undefined;
  const ms =
    value instanceof Date
      ? value.getTime()
      : typeof value === 'number'
        ? value
        : typeof value === 'string'
          ? /^\d+$/.test(value)
            ? Number(value)
            : Date.parse(value)
          : Number.NaN;
  if (!Number.isFinite(ms) || ms < 0)
    throw new OptionError(source, `expected a Date, milliseconds since 1970 or a date string, got ${JSON.stringify(String(value))}`);
  return BigInt(Math.floor(ms / 1000));
}

/** Ganache's hardfork names; "merge" is ethereumjs's "paris". */
export function hardfork(value: unknown): unknown {
  return value === 'merge' ? 'paris' : value;
}

/** wallet.accounts: [{ secretKey, balance }] with the balance in wei. */
export function walletAccounts(source: string, value: unknown): ChainSimOptions['accountKeys'] {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new OptionError(source, 'expected an array of { secretKey, balance }');
  return value.map((entry: unknown, i) => {
    if (typeof entry !== 'object' || entry === null) throw new OptionError(source, `entry ${i}: expected { secretKey, balance }`);
    const { secretKey, balance } = entry as Plain;
    if (typeof secretKey !== 'string') throw new OptionError(source, `entry ${i}: expected secretKey as a 0x-prefixed hex string`);
    return { privateKey: secretKey, balance: quantity(`${source}[${i}].balance`, balance) };
  });
}

export function unlocked(mapped: Mapped, source: string, value: unknown): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) throw new OptionError(source, 'expected an array of addresses or account indexes');
  const addresses: string[] = [];
  for (const entry of value) {
    if (typeof entry === 'number' || (typeof entry === 'string' && /^\d+$/.test(entry))) mapped.unlockIndexes.push(Number(entry));
    else if (typeof entry === 'string') addresses.push(entry);
    else throw new OptionError(source, `expected addresses or account indexes, got ${JSON.stringify(entry)}`);
  }
  mapped.set('unlock', addresses, source);
}

/** database.dbPath: Ganache's is a directory; chain-sim keeps its state file inside it (a path that is not a directory is the file). */
export function stateFileIn(dbPath: unknown, source: string): string | undefined {
  if (dbPath === undefined) return undefined;
  if (typeof dbPath !== 'string' || dbPath.trim() === '') throw new OptionError(source, 'expected a path');
  try {
    if (statSync(dbPath).isDirectory()) return join(dbPath, 'chain-sim-state.json');
  } catch {
    // Not there yet: the path names the state file.
  }
  return dbPath;
}
