/**
 * The one place where what a node starts from is merged: the options given (flags or code),
 * the state file (--state), the fixtures, the genesis file and the fork's upstream. Precedence,
 * highest first: options given explicitly; a genesis file's chain id and gas limit; the saved
 * state's chain settings; the first fixture's that names one; the upstream's (on a fork: its chain id
 * and gas limit unless given, always its hardfork); the table's defaults. Options passed already
 * resolved are taken as they are (the files add accounts, not settings).
 */
import type { Alloc } from '../engine/index.js';
import { type LoadedFixtures, readFixtures } from './fixtures.js';
import { type ForkSession, connectFork } from '../fork/session.js';
import { type GethGenesis, readGethGenesis } from '../genesis/gethGenesis.js';
import { type ChainSimOptions, type ResolvedOptions, resolveOptions } from '../options.js';
import { StatePersistenceError, readStateFile } from '../persistence/persistence.js';
import { decodeSavedFork, resumeFork } from '../fork/savedFork.js';
import type { StateFile } from '../persistence/stateFile.js';

export interface StartupSources {
  /** The options the node runs with, every source merged. */
  readonly options: ResolvedOptions;
  readonly saved: StateFile | undefined;
  readonly fixtures: LoadedFixtures | undefined;
  readonly genesis: GethGenesis | undefined;
  readonly forkSession: ForkSession | undefined;
  /** Accounts the files put in the genesis state: the genesis file's, then the fixtures' (later wins). */
  readonly fileAlloc: Alloc | undefined;
  /** The genesis block's time: given, else the saved head's (without saved blocks), else a fixture's. */
  readonly genesisTimestamp: bigint | undefined;
}

export async function mergeStartupSources(input: ChainSimOptions | ResolvedOptions): Promise<StartupSources> {
  const given = isResolved(input) ? input : resolveOptions(input);
  const saved = given.stateFile === undefined ? undefined : await readStateFile(given.stateFile, { overwrites: true, streamAccounts: true });
  const fixtures = given.fixtures.length > 0 ? await readFixtures(given.fixtures) : undefined;
  const genesis = given.genesis === undefined ? undefined : await readGethGenesis(given.genesis);
  const plain = isResolved(input) ? undefined : input;
  // A genesis file's settings win over a fixture's (resolveOptions refuses them as flags beside it).
  const withFixtures = plain && fixtures && !genesis ? { ...plain, ...definedOnly(fixtures.settings), ...definedOnly(plain) } : plain;
  const savedFork = saved?.fork === undefined ? undefined : await inStateFile(given.stateFile!, () => decodeSavedFork(saved.fork!));
  if (saved && !savedFork && given.fork)
    throw new StatePersistenceError(given.stateFile!, 'holds a local chain: --fork cannot continue it (give another state file)');
  // A saved fork's rules are the fork's (savedFork.ts), not a setting given: only the chain id and gas limit carry over.
  const savedSettings = saved && savedFork ? { ...saved, hardfork: undefined } : saved;
  const resolved =
    !withFixtures || (!saved && !fixtures) ? given : resolveOptions(savedSettings ? withSavedSettings(withFixtures, savedSettings) : withFixtures);
  const withGenesis: ResolvedOptions = genesis ? { ...resolved, chainId: genesis.chainId, gasLimit: genesis.header.gasLimit } : resolved;
  const givenHardfork = withGenesis.given.hardfork ? withGenesis.hardfork : undefined;
  const forkSession = savedFork
    ? await inStateFile(given.stateFile!, () => resumeFork(savedFork, withGenesis.fork, withGenesis.forkDefaults, givenHardfork))
    : withGenesis.fork === undefined
      ? undefined
      : await connectFork({ ...withGenesis.fork, hardfork: givenHardfork });
  return {
    options: forkSession ? forkedOptions(withGenesis, forkSession) : withGenesis,
    saved,
    fixtures,
    genesis,
    forkSession,
    fileAlloc: genesis ? new Map([...genesis.alloc, ...(fixtures?.alloc ?? [])]) : fixtures?.alloc,
    // Without saved blocks (a plain state file) the new genesis continues from the saved head's time.
    genesisTimestamp: saved?.blocks ? undefined : (withGenesis.timestamp ?? saved?.timestamp ?? fixtures?.timestamp),
  };
}

/** The saved chain settings, under whatever the user gave explicitly. */
export function withSavedSettings(input: ChainSimOptions, saved: StateFile): ChainSimOptions {
  return { chainId: saved.chainId, hardfork: saved.hardfork, gasLimit: saved.gasLimit, ...definedOnly(input) };
}

/** On a fork: the upstream's chain id, rules and block gas limit, unless given. */
function forkedOptions(options: ResolvedOptions, session: ForkSession): ResolvedOptions {
  return {
    ...options,
    chainId: options.given.chainId ? options.chainId : session.chainId,
    hardfork: session.hardfork,
    gasLimit: options.given.gasLimit ? options.gasLimit : (session.point.header.gasLimit as bigint),
  };
}

/** A problem with a state file's saved fork, as that file's error. */
async function inStateFile<T>(path: string, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof StatePersistenceError) throw error;
    throw new StatePersistenceError(path, error instanceof Error ? error.message : String(error));
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function isResolved(input: ChainSimOptions | ResolvedOptions): input is ResolvedOptions {
  return typeof (input as ResolvedOptions).balanceWei === 'bigint';
}
