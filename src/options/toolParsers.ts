/**
 * The start-up switches other tools' users reach for (Ganache, Hardhat, Anvil): their values
 * checked and turned into chain-sim's (docs/options.md). The options table's rows (options/) call these.
 */
import { type Address, createAddressFromString } from '@ethereumjs/util';
import { OptionError, integer } from './values.js';

/** Ganache's wallet.deterministic mnemonic. */
export const GANACHE_DETERMINISTIC_MNEMONIC = 'myth like bonus scare over problem client lizard pioneer submit female collect';

/** Ganache's --chain.time: a number is milliseconds since 1970, anything else a date string. */
export function ganacheTime(value: unknown): bigint {
  const text = String(value).trim();
  const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(ms)) throw new OptionError('chain.time', `expected a date or milliseconds since 1970, got "${text}"`);
  return BigInt(Math.floor(ms / 1000));
}

export function compatOf(value: 'ganache' | undefined): 'ganache' | undefined {
  if (value === undefined || value === 'ganache') return value;
  throw new OptionError('compat', `expected "ganache", got "${String(value)}"`);
}

/** `KEY` or `KEY,BALANCE` (the CLI's form), or { privateKey, balance } (Hardhat's and code's). */
/** An account given by key: `KEY` or `KEY,BALANCE` (the CLI's form), or { privateKey, balance } (Hardhat's and code's). */
export type AccountKeyInput = string | { readonly privateKey: string; readonly balance?: number | bigint | string };

/** A private key with its genesis balance (wei). */
export interface KeyedAccount {
  readonly privateKey: Uint8Array;
  readonly balance: bigint | undefined;
}

export function accountKeysOf(value: readonly AccountKeyInput[]): readonly KeyedAccount[] {
  if (!Array.isArray(value)) throw new OptionError('account', 'expected a list of private keys');
  return value.map((entry: unknown, i) => {
    let key: unknown;
    let balance: unknown;
    if (typeof entry === 'string') [key, balance] = entry.split(/,(.*)/s);
    else if (typeof entry === 'object' && entry !== null) ({ privateKey: key, balance } = entry as { privateKey?: unknown; balance?: unknown });
    if (typeof key !== 'string' || !/^(0x)?[0-9a-fA-F]{64}$/.test(key.trim())) {
      throw new OptionError('account', `entry ${i}: expected a 32-byte hex private key (KEY or KEY,BALANCE_IN_WEI)`);
    }
    const privateKey = Uint8Array.from(Buffer.from(key.trim().replace(/^0x/, ''), 'hex'));
    if (balance === undefined || balance === '') return { privateKey, balance: undefined };
    if (typeof balance !== 'string' && typeof balance !== 'number' && typeof balance !== 'bigint') {
      throw new OptionError('account', `entry ${i}: expected the balance in wei as a number or a string`);
    }
    return { privateKey, balance: integer('account', balance, 0n, 0n, 2n ** 256n - 1n) };
  });
}

/** Addresses, or account indexes as Ganache's --unlock 0 gives them. */
export function unlockOf(value: ReadonlyArray<string | number>): ReadonlyArray<Address | number> {
  if (!Array.isArray(value)) throw new OptionError('unlock', 'expected a list of addresses');
  return value.map((entry: unknown) => {
    if (typeof entry === 'number' && Number.isSafeInteger(entry) && entry >= 0) return entry;
    const text = typeof entry === 'string' ? entry.trim() : '';
    if (/^\d{1,6}$/.test(text)) return Number(text);
    if (!/^0x[0-9a-fA-F]{40}$/.test(text))
      throw new OptionError('unlock', `expected a 20-byte 0x-prefixed address or an account index, got "${String(entry)}"`);
    return createAddressFromString(text);
  });
}

/** --json: each log line as one JSON object (a multi-line message stays one object). */
export function jsonLines(json: boolean, log: (line: string) => void): (line: string) => void {
  return json ? (line) => log(JSON.stringify({ time: new Date().toISOString(), message: line })) : log;
}

/** Hardhat's mining.interval: ms, or [min, max] ms (the CLI's "MIN,MAX"). Node timers hold at most 2^31-1 ms. */
export function intervalOf(value: number | readonly [number, number] | string): readonly [number, number] {
  const parts = typeof value === 'string' ? value.split(',').map((part) => Number(part.trim())) : Array.isArray(value) ? [...value] : [value];
  const bounds = parts.length === 1 ? [parts[0], parts[0]] : parts;
  const max = 2 ** 31 - 1;
  if (bounds.length !== 2 || bounds.some((b) => typeof b !== 'number' || !Number.isInteger(b) || b < 1 || b > max) || bounds[0]! > bounds[1]!) {
    throw new OptionError('mining-interval', `expected milliseconds N or MIN,MAX (whole numbers from 1 to ${max}, MIN <= MAX), got "${String(value)}"`);
  }
  return [bounds[0]!, bounds[1]!];
}

/** Both of Ganache's modes hold (see ChainSimOptions.instamine): checked, nothing to set. */
export function checkInstamine(value: string | undefined): object {
  if (value !== undefined && value !== 'eager' && value !== 'strict') throw new OptionError('instamine', `expected eager or strict, got "${String(value)}"`);
  return {};
}
