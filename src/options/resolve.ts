/**
 * resolveOptions: a user's options through the table's rows (each row parses its own value,
 * its default when not given), then the rules between options: the ones that conflict, and
 * the results made from several (the hardfork from --mining, the gas limit from
 * --disable-block-gas-limit, the mnemonic from --deterministic, ...). Names that are no option
 * are refused first (unknown.ts). The CLI, createProvider
 * and createServer all resolve through here; startNode (startupSources.ts's mergeStartupSources) adds the files.
 */
import { createChainCommon, HARDFORK_NAMES, isPostMerge, newestLiveHardfork } from '../engine/rules/hardforks.js';
import { clip } from '../engine/util/clip.js';
import { type ForkDefaults, type ResolvedFork, resolveFork, resolveForkDefaults } from '../fork/options.js';
import { MAX_GAS_LIMIT, OptionError, flag } from './values.js';
import { GANACHE_DETERMINISTIC_MNEMONIC, jsonLines } from './toolParsers.js';
import { DEFAULT_MNEMONIC } from './chainRows.js';
import type { OptionRow } from './row.js';
import { type ChainSimOptions, OPTION_TABLE, type TableOutputs } from './table.js';
import { refuseUnknownOptions } from './unknown.js';

/** The last proof-of-work hardfork: the default in pow mode. */
export const POW_DEFAULT_HARDFORK = 'grayGlacier';

export interface ResolvedOptions extends TableOutputs {
  readonly hardfork: string;
  readonly logger: (line: string) => void;
  // ---- forking (fork/options.ts) ----
  /** The fork opened at start-up; undefined: a local chain. */
  readonly fork: ResolvedFork | undefined;
  /** Settings of forks opened later by hardhat_reset / anvil_reset. */
  readonly forkDefaults: ForkDefaults;
  /** Given explicitly (else a fork takes the upstream's): chain id, hardfork, block gas limit. */
  readonly given: { readonly chainId: boolean; readonly hardfork: boolean; readonly gasLimit: boolean };
}

/** Each row's value (the option given, else its default) through its parser, under its resolved name. */
function parseRows(input: ChainSimOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, row] of Object.entries(OPTION_TABLE as Readonly<Record<string, OptionRow<unknown>>>)) {
    const given = (input as Record<string, unknown>)[key];
    // Unset (undefined, or null where there is a default) takes the default; without one null is a
    // value (ethashCacheDir: null, no cache files) or the parser's error.
    const value = row.parse(given === undefined || (given === null && row.default !== undefined) ? row.default : given);
    if (row.as !== null) out[row.as ?? key] = value;
  }
  return out;
}

/** Throws OptionError (UnknownOptionError for a name that is no option) for the first option it refuses. */
export function resolveOptions(input: ChainSimOptions = {}): ResolvedOptions {
  refuseUnknownOptions(input);
  const mining = input.mining ?? 'instant';
  if (mining !== 'instant' && mining !== 'pow') throw new OptionError('mining', `expected instant or pow, got "${clip(String(mining))}"`);
  const hardfork = input.hardfork ?? (mining === 'pow' ? POW_DEFAULT_HARDFORK : newestLiveHardfork());
  if (!HARDFORK_NAMES.includes(hardfork)) {
    throw new OptionError('hardfork', `unknown hardfork "${clip(hardfork)}"; choose one of ${HARDFORK_NAMES.join(', ')}`);
  }
  if (mining === 'pow' && isPostMerge(createChainCommon(1n, hardfork))) {
    throw new OptionError('mining', `pow needs a pre-merge hardfork (${POW_DEFAULT_HARDFORK} or earlier), but ${hardfork} is after the merge`);
  }
  const fail = (option: string, problem: string) => new OptionError(option, problem);
  const forkDefaults = resolveForkDefaults(input, fail);
  const fork = resolveFork(input, forkDefaults, fail);
  if (fork) refuseBeside(input, 'fork', ['genesis', 'import', 'fixtures'], ' (not supported yet)');
  if (fork && mining === 'pow') throw new OptionError('fork', 'cannot be combined with --mining pow');
  // Proof-of-work settings mean nothing in instant mode; saying so beats ignoring them.
  for (const key of ['difficulty', 'minerThreads'] as const) {
    if (input[key] !== undefined && input[key] !== 0 && mining !== 'pow') throw new OptionError(flagOf(key), 'applies to --mining pow only');
  }
  const rows = parseRows(input) as unknown as TableOutputs;
  checkFiles(input);
  return {
    ...rows,
    fork,
    forkDefaults,
    given: { chainId: input.chainId !== undefined, hardfork: input.hardfork !== undefined, gasLimit: input.gasLimit !== undefined },
    hardfork,
    mnemonic: mnemonicOf(input),
    // Accounts given by key replace the derived ones unless a count is asked for too (Hardhat, Ganache).
    accounts: input.accounts === undefined && input.accountKeys !== undefined ? 0 : rows.accounts,
    gasLimit: unlessDisabled(input, 'disableBlockGasLimit', 'gasLimit', rows.gasLimit, MAX_GAS_LIMIT),
    codeSizeLimit: unlessDisabled(input, 'disableCodeSizeLimit', 'codeSizeLimit', rows.codeSizeLimit, 'unlimited'),
    miningInterval: checkInterval(input, rows.miningInterval),
    logger: jsonLines(input.json === true, input.logger ?? (input.quiet ? () => {} : (line: string) => console.log(line))),
  };
}

/** An option's flag, as errors name it. */
function flagOf(key: keyof ChainSimOptions): string {
  return (OPTION_TABLE as Readonly<Record<string, OptionRow<unknown>>>)[key]?.flag ?? key;
}

/** Refuses each of `others` given beside `option`, naming its flag. */
function refuseBeside(input: ChainSimOptions, option: string, others: readonly (keyof ChainSimOptions)[], why: string): void {
  for (const key of others) {
    if (input[key] !== undefined) throw new OptionError(option, `cannot be combined with --${flagOf(key)}${why}`);
  }
}

/**
 * What the chain starts from: a genesis file sets the chain id, the forks, the genesis gas
 * limit and base fee, so the flags that set them too are refused rather than silently
 * overridden (go-ethereum refuses conflicting flags as well); fixtures may add accounts on top
 * of its alloc. --number is refused beside the chains that bring their own first block and
 * beside proof of work (its difficulty follows from block 0).
 */
function checkFiles(input: ChainSimOptions): void {
  if (input.genesis !== undefined) {
    for (const key of ['hardfork', 'chainId', 'gasLimit', 'baseFee'] as const) {
      if (input[key] !== undefined) throw new OptionError('genesis', `cannot be combined with --${flagOf(key)}: the genesis file sets it`);
    }
    refuseBeside(input, 'genesis', ['stateFile'], ' (not supported yet)');
    if (input.mining === 'pow') throw new OptionError('genesis', 'cannot be combined with --mining pow (not supported yet)');
  }
  if (input.stateFile === undefined && input.stateInterval !== undefined && input.stateInterval !== 0) {
    throw new OptionError('state-interval', 'needs a state file (--state FILE)');
  }
  if (input.number !== undefined && BigInt(input.number) !== 0n) {
    refuseBeside(input, 'number', ['fork', 'genesis', 'import', 'stateFile'], '');
    if (input.mining === 'pow') throw new OptionError('number', 'cannot be combined with --mining pow');
  }
}

/** --disable-block-gas-limit, --disable-code-size-limit: their value, unless the limit is given as well. */
function unlessDisabled<T, D>(
  input: ChainSimOptions,
  disable: 'disableBlockGasLimit' | 'disableCodeSizeLimit',
  limit: keyof ChainSimOptions,
  value: T,
  disabled: D,
): T | D {
  if (!flag(flagOf(disable), input[disable])) return value;
  if (input[limit] !== undefined) throw new OptionError(flagOf(disable), `cannot be combined with --${flagOf(limit)}`);
  return disabled;
}

/** Hardhat's mining.interval replaces --block-time; --mixed-mining needs one of them. */
function checkInterval<T>(input: ChainSimOptions, interval: T | undefined): T | undefined {
  if (interval === undefined) {
    if (input.mixedMining && !(input.blockTime! > 0)) throw new OptionError('mixed-mining', 'needs --block-time or --mining-interval');
  } else if (input.blockTime !== undefined && input.blockTime !== 0) throw new OptionError('mining-interval', 'cannot be combined with --block-time');
  return interval;
}

function mnemonicOf(input: ChainSimOptions): string {
  if (!flag('deterministic', input.deterministic)) return input.mnemonic ?? DEFAULT_MNEMONIC;
  if (input.mnemonic !== undefined && input.mnemonic !== GANACHE_DETERMINISTIC_MNEMONIC)
    throw new OptionError('deterministic', 'cannot be combined with --mnemonic');
  return GANACHE_DETERMINISTIC_MNEMONIC;
}
