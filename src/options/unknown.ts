/**
 * Refuses option names that are not in the options table, so that a typo (`acounts`, `prot`,
 * `quite`) is an error naming the nearest option instead of a setting silently left at its
 * default. The CLI's parser refuses unknown flags itself; this is for options given in code
 * (createProvider, createServer) and as JSON (CHAIN_SIM_OPTIONS).
 */
import { clip } from '../engine/util/clip.js';
import type { OptionRow } from './row.js';
import { nearestName } from './suggest.js';
import { OPTION_TABLE } from './table.js';
import { OptionError, UnknownOptionError } from './values.js';

const ROWS = OPTION_TABLE as Readonly<Record<string, OptionRow>>;

/**
 * Every name a user may mean an option by, with the option it names: the option itself, its flag
 * (`chain-id`), its aliases and further spellings (`wallet.totalAccounts`, Hardhat's
 * `blockGasLimit`...). Aliases of one letter are left out: too short to be near by meaning.
 */
const KNOWN_NAMES: readonly (readonly [string, string])[] = Object.entries(ROWS).flatMap(([key, row]) => {
  const spellings = [row.flag, row.alias, ...(row.spellings ?? []).flatMap((s) => [s.flag, s.alias])].flat();
  return [key, ...spellings.filter((name): name is string => name !== undefined && name.length > 1)].map((name) => [name, key] as const);
});

/** Throws OptionError unless `input` is an object, and UnknownOptionError for its first key that is no option. */
export function refuseUnknownOptions(input: unknown): void {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new OptionError('options', `expected an object of options, got ${Array.isArray(input) ? 'an array' : clip(String(input))}`);
  }
  for (const key of Object.keys(input)) {
    if (!Object.hasOwn(ROWS, key)) throw new UnknownOptionError(key, nearestName(key, KNOWN_NAMES));
  }
}
