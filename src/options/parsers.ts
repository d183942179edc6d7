/** The parsers the options table's rows use: each checks one value and names its flag when it is wrong. */
import { type Address, createAddressFromString } from '@ethereumjs/util';
import { clip } from '../engine/util/clip.js';
import { OptionError, flag, integer } from './values.js';

/** A whole number in [min, max]: decimal or 0x hex text, a safe integer or a bigint. */
export const whole =
  <In extends number | bigint | string>(option: string, min: bigint, max: bigint) =>
  (value: In): bigint =>
    integer(option, value, 0n, min, max);

/** A whole number in [min, max] that fits a JavaScript number. */
export const count =
  (option: string, min: bigint, max: bigint) =>
  (value: number): number =>
    Number(integer(option, value, 0n, min, max));

/** An option without a default: undefined stays undefined. */
export const maybe =
  <In, Out>(parse: (value: In) => Out) =>
  (value: In | undefined): Out | undefined =>
    value === undefined ? undefined : parse(value);

/** true or false. */
export const bool =
  (option: string) =>
  (value: boolean): boolean =>
    flag(option, value);

/** true, false, or 'auto' (decided case by case). */
export const boolOrAuto =
  (option: string) =>
  (value: boolean | 'auto'): boolean | 'auto' => {
    if (value === 'auto' || typeof value === 'boolean') return value;
    throw new OptionError(option, `expected true, false or "auto", got "${clip(String(value))}"`);
  };

/** Taken as given. */
export const asGiven = <T>(value: T): T => value;

export const choice =
  <const C extends string>(option: string, choices: readonly C[]) =>
  (value: C): C => {
    if (!choices.includes(value)) throw new OptionError(option, `expected ${choices.join(' or ')}, got "${clip(String(value))}"`);
    return value;
  };

const WEI_PER_ETHER = 10n ** 18n;

/** "10000", "0.5", 1e3 → wei. */
export const ether =
  (option: string) =>
  (value: number | string): bigint => {
    const text = String(value).trim();
    const match = /^(\d+)(?:\.(\d{1,18}))?$/.exec(text);
    if (!match) throw new OptionError(option, `expected an amount of ether like 10000 or 0.5, got "${clip(text)}"`);
    return BigInt(match[1]!) * WEI_PER_ETHER + BigInt((match[2] ?? '').padEnd(18, '0'));
  };

/** Seconds for a timer (fractions allowed); Node timers hold at most 2^31-1 ms. */
export const timerSeconds =
  (option: string) =>
  (value: number): number => {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value * 1000 > 2 ** 31 - 1) {
      throw new OptionError(option, `expected seconds between 0 and ${Math.floor((2 ** 31 - 1) / 1000)}, got "${String(value)}"`);
    }
    return value;
  };

/** Milliseconds of polling after an answer: 0 to 100. */
export function busyPollOf(value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100) {
    throw new OptionError('busy-poll', `expected milliseconds between 0 and 100, got "${String(value)}"`);
  }
  return value;
}

export function addressOf(option: string) {
  return (value: string): Address => {
    if (!/^0x[0-9a-fA-F]{40}$/.test(value)) throw new OptionError(option, `expected a 20-byte 0x-prefixed address, got "${clip(value)}"`);
    return createAddressFromString(value);
  };
}

/** A list option as the CLI gives it (`a,b`) or as code does (an array); every entry must match `entry`. */
export const list =
  (option: string, entry: RegExp, what: string) =>
  (value: string | readonly string[]): readonly string[] => {
    if (typeof value !== 'string' && !Array.isArray(value)) throw new OptionError(option, `expected a comma-separated list`);
    const items = (typeof value === 'string' ? value.split(',') : [...value]).map((item) => String(item).trim()).filter((item) => item.length > 0);
    if (items.length === 0) throw new OptionError(option, `expected at least one ${what} (or *)`);
    for (const item of items) {
      if (item !== '*' && !entry.test(item)) throw new OptionError(option, `"${clip(item)}" is not ${what}`);
    }
    return items;
  };

/** A host name, an IPv4 address or an IPv6 address (bracketed or not). */
export const HOST_ENTRY = /^([a-z0-9_.-]+|\[?[0-9a-f:.]+\]?)$/i;
/** scheme://host[:port] or scheme://host:* ; `null` for opaque origins (file:// pages), only if listed. */
export const ORIGIN_ENTRY = /^([a-z][a-z0-9+.-]*:\/\/([a-z0-9_.-]+|\[[0-9a-f:.]+\])(:(\d+|\*))?|null)$/i;

export function fixturesOf(value: string[]): readonly string[] {
  if (!Array.isArray(value) || value.some((f) => typeof f !== 'string' || f.length === 0)) {
    throw new OptionError('fixture', 'expected file paths');
  }
  return value;
}

/** Which compiler output the node reads: the given paths, or (none given) the working directory's project unless turned off. */
export interface ArtifactsSetting {
  readonly paths: readonly string[];
  /** Look for a Hardhat or Foundry project in the working directory. */
  readonly detect: boolean;
}

/** --artifacts PATH (repeatable), or `none` (false in code) for no artifacts at all, not even the working directory's. */
export function artifactsOf(value: string | readonly string[] | false | undefined): ArtifactsSetting {
  if (value === undefined) return { paths: [], detect: true };
  if (value === false) return { paths: [], detect: false };
  const list: readonly unknown[] = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [undefined];
  if (list.some((path) => typeof path !== 'string' || path.trim() === '')) throw new OptionError('artifacts', 'expected folder or file paths, or none');
  if (list.includes('none')) {
    if (list.length > 1) throw new OptionError('artifacts', 'none cannot be combined with paths');
    return { paths: [], detect: false };
  }
  return { paths: list as readonly string[], detect: false };
}

export const filePath =
  (option: string) =>
  (value: string | undefined): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.trim() === '') throw new OptionError(option, 'expected a file path');
    return value;
  };

/** A whole number, or 'canonical' for the hardfork's formula (proof-of-work difficulty). */
export function difficultyOf(value: number | bigint | string): bigint | 'canonical' {
  if (value === 'canonical') return 'canonical';
  if (typeof value === 'string' && !/^(0x[0-9a-fA-F]+|\d+)$/.test(value.trim())) {
    throw new OptionError('difficulty', `expected a whole number or "canonical", got "${clip(value)}"`);
  }
  return integer('difficulty', value, 0n, 1n, 2n ** 256n - 1n);
}
