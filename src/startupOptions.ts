/**
 * The start-up switches other tools' users reach for (Ganache, Hardhat, Anvil): their values
 * checked and turned into chain-sim's (docs/options.md). resolveOptions calls these.
 */
import { type Address, createAddressFromString } from '@ethereumjs/util';
import type { ChainSimOptions, KeyedAccount } from './options.js';
import { MAX_GAS_LIMIT, OptionError, flag, integer } from './optionValues.js';

/** Ganache's wallet.deterministic mnemonic. */
export const GANACHE_DETERMINISTIC_MNEMONIC = 'myth like bonus scare over problem client lizard pioneer submit female collect';

/** Ganache's --chain.time: a number is milliseconds since 1970, anything else a date string. */
export function ganacheTime(value: unknown): unknown {
  const text = String(value).trim();
  const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(ms)) throw new OptionError('chain.time', `expected a date or milliseconds since 1970, got "${text}"`);
  return BigInt(Math.floor(ms / 1000));
}

export function compatOf(value: string | undefined): 'ganache' | undefined {
  if (value === undefined || value === 'ganache') return value;
  throw new OptionError('compat', `expected "ganache", got "${String(value)}"`);
}

/** `KEY` or `KEY,BALANCE` (the CLI's form), or { privateKey, balance } (Hardhat's and code's). */
export function accountKeysOf(value: ChainSimOptions['accountKeys']): readonly KeyedAccount[] {
  if (value === undefined) return [];
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
export function unlockOf(value: ReadonlyArray<string | number> | undefined): ReadonlyArray<Address | number> {
  if (value === undefined) return [];
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

export function gasLimitOf(input: ChainSimOptions): bigint {
  if (!flag('disable-block-gas-limit', input.disableBlockGasLimit)) return integer('gas-limit', input.gasLimit, 30_000_000n, 5000n, MAX_GAS_LIMIT);
  if (input.gasLimit !== undefined) throw new OptionError('disable-block-gas-limit', 'cannot be combined with --gas-limit');
  return MAX_GAS_LIMIT;
}

export function codeSizeLimitOf(input: ChainSimOptions): number | 'unlimited' | undefined {
  if (flag('disable-code-size-limit', input.disableCodeSizeLimit)) {
    if (input.codeSizeLimit !== undefined) throw new OptionError('disable-code-size-limit', 'cannot be combined with --code-size-limit');
    return 'unlimited';
  }
  return input.codeSizeLimit === undefined ? undefined : Number(integer('code-size-limit', input.codeSizeLimit, 0n, 1n, 2n ** 31n));
}

/** Hardhat's mining.interval: ms, or [min, max] ms (the CLI's "MIN,MAX"). Node timers hold at most 2^31-1 ms. */
export function miningIntervalOf(input: ChainSimOptions): readonly [number, number] | undefined {
  const value = input.miningInterval;
  if (value === undefined) {
    if (input.mixedMining && !(input.blockTime! > 0)) throw new OptionError('mixed-mining', 'needs --block-time or --mining-interval');
    return undefined;
  }
  if (input.blockTime !== undefined && input.blockTime !== 0) throw new OptionError('mining-interval', 'cannot be combined with --block-time');
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

/**
 * --number: where the chain starts. The chains that bring their own first block (a fork, a genesis
 * file, an imported chain, a saved state) and proof of work (its difficulty follows from block 0)
 * decide it themselves, so a number beside them is refused rather than ignored.
 */
export function genesisNumberOf(input: ChainSimOptions): bigint {
  const number = integer('number', input.number, 0n, 0n, 2n ** 63n - 1n);
  if (number === 0n) return number;
  const conflicts: Array<[keyof ChainSimOptions, string]> = [
    ['fork', 'fork'],
    ['genesis', 'genesis'],
    ['import', 'import'],
    ['stateFile', 'state'],
  ];
  for (const [key, flag] of conflicts) if (input[key] !== undefined) throw new OptionError('number', `cannot be combined with --${flag}`);
  if (input.mining === 'pow') throw new OptionError('number', 'cannot be combined with --mining pow');
  return number;
}
