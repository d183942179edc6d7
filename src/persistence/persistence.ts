/**
 * `--state FILE`: the node's state survives a restart. An existing file is read at start
 * (a corrupt or truncated one is an error, never a silent fresh chain); the state is written
 * on shutdown, and every `--state-interval` seconds, to a temporary file in the same directory,
 * flushed to disk and renamed over FILE, so a crash mid-write leaves the old or the new
 * complete file, never a torn one. The file is written and read as a stream, an account's
 * fields or one storage slot or block per line, a run of empty blocks as one line
 * (stateStream.ts): a save reads the accounts in short steps while it writes (stateReading.ts),
 * so it takes bounded memory above the node's and the node keeps serving meanwhile; a load
 * applies them in bounded batches. A file that is not one chain-sim wrote is never taken,
 * since it would be overwritten.
 *
 * Saved and restored: every account (balance, nonce, code, storage), the owned private keys,
 * chain id, hardfork, block gas limit, the clock offset, and every block with its senders and
 * receipts (so block, transaction, receipt and log queries keep answering). Not saved: the
 * state of blocks before the head (reads at them answer "not available"), the pool, filters,
 * snapshots, impersonations and mining settings.
 */
import { readFile } from 'node:fs/promises';
import { removeStaleTempFiles, writeFileAtomically } from './atomicFile.js';
import {
  type AccountState,
  addressOfKey,
  type Alloc,
  type Chain,
  type CollectedAccount,
  collectPiece,
  MAX_TIMESTAMP,
  type MinedBlock,
  type ReservedBlocks,
  type StatePiece,
  StateReadingLost,
} from '../engine/index.js';
import { captureState, withRestarts } from './stateCapture.js';
import { SavedBlockDecoder } from './savedBlocks.js';
import { type StateStreamSource, readStateStreamHead, streamVersion, streamedAccounts, streamedBlocks, writeStateStream } from './stateStream.js';
import { OptionError, resolveOptions } from '../options.js';
import { type StateFile, StateFileError, decodeStateFile, preview } from './stateFile.js';
import { decodeSavedFork } from '../fork/savedFork.js';
import type { ForkSession } from '../fork/session.js';

/** A state file that cannot be used; the message is one line naming the file. */
export class StatePersistenceError extends Error {
  constructor(path: string, problem: string) {
    super(`state file ${path}: ${problem.replace(/\s*\n\s*/g, ' ')}`);
    this.name = 'StatePersistenceError';
  }
}

/** The top-level fields chain-sim writes; a file with any other is not one of its state files. */
const STATE_FIELDS = new Set(['chainSimState', 'chainId', 'hardfork', 'gasLimit', 'timestamp', 'clockOffset', 'privateKeys', 'alloc', 'blocks', 'fork']);

/**
 * `--state` rewrites its file on exit, so it takes only a file chain-sim could have written:
 * an object with `alloc` and no field a state file does not have. package.json, a
 * go-ethereum genesis (`config`, `difficulty`, ...) or an Anvil dump would otherwise load as
 * an empty state and be replaced by one, private keys and all.
 */
function assertOwnStateFile(json: unknown): void {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return; // decodeStateFile names the problem
  const foreign = Object.keys(json).find((key) => !STATE_FIELDS.has(key));
  if (foreign !== undefined) {
    throw new StateFileError(
      'not a chain-sim state file',
      `it has a field ${preview(foreign)} that a state file does not have; --state would overwrite it, so it is left alone (give a new file name)`,
    );
  }
  if (!('alloc' in json))
    throw new StateFileError('not a chain-sim state file', 'no "alloc" field; --state would overwrite it, so it is left alone (give a new file name)');
}

/**
 * Chain settings a node would start with: checked here so that a bad one is reported as the
 * file's (the same value given as a flag is the flag's error).
 */
function assertUsableSettings(file: StateFile): void {
  try {
    resolveOptions({ chainId: file.chainId, hardfork: file.hardfork, gasLimit: file.gasLimit });
  } catch (error) {
    if (!(error instanceof OptionError)) throw error;
    const field = ({ 'chain-id': 'chainId', hardfork: 'hardfork', 'gas-limit': 'gasLimit' } as Record<string, string>)[error.option] ?? error.option;
    throw new StateFileError(`state.${field}`, error.problem);
  }
}

export interface ReadStateOptions {
  /**
   * The file will be written over (`--state`): refuse one chain-sim did not write. Fixtures,
   * only read, may be any state (a plain `alloc`).
   */
  readonly overwrites?: boolean;
  /**
   * A streamed file's accounts are left in the file, read again as `accounts` when restored
   * (`--state`); otherwise they are read into `alloc` (fixtures).
   */
  readonly streamAccounts?: boolean;
}

/** The saved state, or undefined when the file does not exist yet (first run). */
export async function readStateFile(path: string, { overwrites = false, streamAccounts = false }: ReadStateOptions = {}): Promise<StateFile | undefined> {
  let json: unknown;
  let streamed = false;
  try {
    const head = (await streamVersion(path)) === undefined ? undefined : await readStateStreamHead(path);
    streamed = head !== undefined;
    if (head) {
      json = head;
    } else {
      const text = await readFile(path, 'utf8');
      try {
        json = JSON.parse(text);
      } catch (error) {
        throw new StatePersistenceError(path, `not valid JSON (truncated or corrupt?): ${(error as Error).message}`);
      }
    }
  } catch (error) {
    if (error instanceof StatePersistenceError) throw error;
    if (error instanceof StateFileError) throw new StatePersistenceError(path, error.message);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StatePersistenceError(path, (error as Error).message);
  }
  try {
    if (overwrites) assertOwnStateFile(json);
    const file = decodeStateFile(json);
    assertUsableSettings(file);
    if (!streamed) return file;
    // A streamed file's blocks are read again, one at a time, when they are restored; its accounts too, if asked.
    const blocks = streamedBlocks(path);
    if (streamAccounts) return { ...file, blocks, accounts: () => streamedAccounts(path) };
    return { ...file, blocks, alloc: await allocOf(streamedAccounts(path)) };
  } catch (error) {
    if (error instanceof StateFileError) throw new StatePersistenceError(path, error.message);
    throw error;
  }
}

/** Apply a saved state to a freshly built chain: accounts, owned keys and the clock; any failure is the file's. */
export async function restoreState(chain: Chain, saved: StateFile, path: string): Promise<void> {
  try {
    if (saved.blocks) {
      // On a fork the saved blocks are those after the pinned block, which the fork session has just put first.
      const decoder = new SavedBlockDecoder(chain.common, 'state.blocks', saved.fork === undefined ? undefined : chain.head);
      const entries: (MinedBlock | ReservedBlocks)[] = [];
      for await (const entry of saved.blocks) entries.push(decoder.decode(entry));
      await chain.adoptSavedBlocks(entries);
    }
    if (saved.fork === undefined) {
      if (saved.accounts) await loadInBatches(chain, saved.accounts(), (batch) => chain.loadPieces(batch));
      else await chain.loadState(saved.alloc);
    } else {
      const { overlay } = decodeSavedFork(saved.fork);
      // The overlay's entries over the fork's start state (forkOverlay.ts), not a plain load that would drop the upstream's storage;
      // in batches as a plain load (it used to collect every account first: about 2 KB a slot, all at once).
      const facts = { upstreamStorage: new Set(overlay.upstreamStorage), zeroSlots: overlay.zeroSlots };
      const pieces = saved.accounts ? saved.accounts() : piecesOfAlloc(saved.alloc);
      await loadInBatches(
        chain,
        pieces,
        (batch) => chain.restoreForkPieces(batch, facts),
        () => chain.restoreForkDeletions(overlay.deleted),
      );
    }
    for (const privateKey of saved.privateKeys ?? []) await chain.addOwnedAccount({ address: addressOfKey(privateKey), privateKey });
    if (saved.clockOffset !== undefined) {
      await chain.setClockOffset(saved.clockOffset);
      // Blocks are stamped with the clock: one past uint64 could never mine a block.
      if (chain.clock.nowSeconds() > MAX_TIMESTAMP)
        throw new StateFileError('state.clockOffset', `${saved.clockOffset} puts the clock past 2^64-1 (block timestamps are uint64)`);
    }
  } catch (error) {
    if (error instanceof StatePersistenceError) throw error;
    if (error instanceof StateFileError) throw new StatePersistenceError(path, error.message);
    throw new StatePersistenceError(path, error instanceof Error ? error.message : String(error));
  }
}

/**
 * What a save adds to the node's resident memory at most, whatever the state's size (tested on
 * the CLI by test/e2e/state-memory.test.ts): a read step's pieces (about 1 MiB, stateReading.ts),
 * a write chunk and its buffer (1 MiB each, stateStream.ts), a code's hex slice, and their
 * garbage until V8 collects it. A save used to hold about 18 times the file's size.
 */
export const SAVE_MEMORY_BOUND_BYTES = 64 * 1024 * 1024;

/** A batch of a load costs about this much memory until it is flushed (LOAD_COSTS per piece). */
export const LOAD_BATCH_BYTES = 32 * 1024 * 1024;
/** What a piece costs while its batch waits in the state manager's caches (measured: about 1.3 KB a slot pending, 0.9 KB once flushed). */
const LOAD_COSTS = { account: 1024, slot: 1024 } as const;

/**
 * Apply a streamed file's accounts in batches of about LOAD_BATCH_BYTES, each one task flushed
 * to the trie by `apply` (a plain state's `loadPieces`, a fork overlay's `restoreForkPieces`),
 * after `first` if given, then delete the intermediate trie nodes the batches left
 * (loadSweep.ts). At start-up only: nothing else may write meanwhile.
 */
async function loadInBatches(
  chain: Chain,
  pieces: AsyncIterable<StatePiece> | Iterable<StatePiece>,
  apply: (batch: readonly StatePiece[]) => Promise<void>,
  first?: () => Promise<void>,
): Promise<void> {
  const mark = await chain.beginBulkLoad();
  if (first) await first();
  let batch: StatePiece[] = [];
  let bytes = 0;
  for await (const piece of pieces) {
    batch.push(piece);
    bytes += piece.kind === 'account' ? LOAD_COSTS.account + piece.code.length : piece.kind === 'storage' ? LOAD_COSTS.slot * piece.slots.length : 0;
    if (bytes < LOAD_BATCH_BYTES) continue;
    await apply(batch);
    batch = [];
    bytes = 0;
  }
  if (batch.length > 0) await apply(batch);
  await chain.endBulkLoad(mark);
}

/** An alloc already in memory (a state file written before streaming) as the pieces a streamed one yields. */
function* piecesOfAlloc(alloc: Alloc): Generator<StatePiece> {
  for (const [address, account] of alloc) {
    yield { kind: 'account', address, balance: account.balance, nonce: account.nonce, code: account.code };
    if (account.storage.size > 0) yield { kind: 'storage', address, slots: [...account.storage] };
  }
}

/** Accounts read from pieces into one map (a fixture). */
async function allocOf(pieces: AsyncIterable<StatePiece>): Promise<Map<string, AccountState>> {
  const alloc = new Map<string, CollectedAccount>();
  for await (const piece of pieces) collectPiece(alloc, piece);
  return alloc;
}

/**
 * Write a captured state to `path` atomically (atomicFile.ts), streamed (stateStream.ts) as its
 * accounts are read; readable by its owner only, as it holds private keys. The bytes written.
 */
export async function writeStateFile(path: string, captured: StateStreamSource): Promise<number> {
  let bytes = 0;
  try {
    await writeFileAtomically(
      path,
      async (handle) => {
        bytes = await writeStateStream(handle, captured);
      },
      0o600,
    );
  } catch (error) {
    if (error instanceof StateReadingLost) throw error; // the saver starts again
    throw new StatePersistenceError(path, `cannot write: ${(error as Error).message}`);
  }
  return bytes;
}

/** What one save did: for the log line on exit. */
export interface SaveReport {
  readonly path: string;
  readonly bytes: number;
  readonly ms: number;
  /** 1, or more when a revert took the state being saved away and the save started again. */
  readonly attempts: number;
}

/** Test seams of a saver. */
export interface SaverHooks {
  /** Called after each capture, before its accounts are read (tests revert there). */
  readonly afterCapture?: (attempt: number) => Promise<void>;
}

/** Saves one chain's state to one file: on demand, and every `intervalSeconds` if positive. */
export class StateSaver {
  private last: Promise<void>;
  private inFlight = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly chain: Chain,
    readonly path: string,
    intervalSeconds: number,
    onError: (error: unknown) => void,
    /** The fork session in force at each save (undefined: the chain is local). */
    private readonly fork: () => ForkSession | undefined = () => undefined,
    private readonly hooks: SaverHooks = {},
  ) {
    this.last = removeStaleTempFiles(path);
    if (intervalSeconds > 0) {
      // A save slower than the interval skips ticks rather than queueing them without bound.
      const tick = () => {
        if (this.inFlight === 0) this.save().catch(onError);
      };
      this.timer = setInterval(tick, Math.max(1, Math.round(intervalSeconds * 1000)));
      this.timer.unref();
    }
  }

  /**
   * Capture and write the state; saves run one after another, never two writes at once. The
   * accounts are read in steps while the file is written, and the node serves requests between
   * steps; a revert that takes the state being read away starts the save again from the state
   * then (at most MAX_READ_ATTEMPTS times; the file keeps its previous content if all fail).
   */
  save(): Promise<SaveReport> {
    this.inFlight++;
    const next = this.last.then(async () => {
      const started = performance.now();
      let attempts = 0;
      try {
        const bytes = await withRestarts(async (attempt) => {
          attempts = attempt;
          const captured = await captureState(this.chain, this.fork());
          await this.hooks.afterCapture?.(attempt);
          return writeStateFile(this.path, captured);
        });
        return { path: this.path, bytes, ms: performance.now() - started, attempts };
      } catch (error) {
        if (!(error instanceof StateReadingLost)) throw error;
        throw new StatePersistenceError(
          this.path,
          `cannot write: the state was reverted away while it was being saved, ${attempts} times (evm_revert to a snapshot older than the state); the file keeps its previous content`,
        );
      }
    });
    this.last = next
      .then(
        () => {},
        () => {},
      )
      .finally(() => this.inFlight--);
    return next;
  }

  /** Stop periodic saves (an explicit save() still works). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
