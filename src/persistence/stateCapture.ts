/**
 * The chain's state as a state file (stateFile.ts) describes it: the one reading behind both
 * `chain_dumpState` (and anvil_dumpState) and `--state` saves, so the two write the same fields
 * read the same way (Chain.persistable: settings, keys, blocks and the state root in one task of
 * the chain's queue; the accounts read afterwards in steps at that root, stateReading.ts).
 */
import {
  type Chain,
  type CollectedAccount,
  type StatePiece,
  type StateReading,
  StateReadingLost,
  collectPiece,
  piecesOf,
  type AccountState,
  EngineError,
} from '../engine/index.js';
import { encodeSavedFork } from '../fork/savedFork.js';
import type { ForkSession } from '../fork/session.js';
import type { StateFile } from './stateFile.js';
import type { StateStreamSource } from './stateStream.js';

/** What a save writes: the header fields, the accounts (read in steps while written), and the chain as segments (runs of empty blocks uncomputed). */
export interface CapturedState extends StateStreamSource {
  readonly header: Omit<StateFile, 'alloc' | 'blocks' | 'accounts'>;
  /** The reading the accounts come from (its state root). */
  readonly reading: StateReading;
}

/**
 * The chain's state now, every field read at the same moment. The blocks are a list of
 * references (blocks are immutable, a run is a few fields) and the accounts a reading of the
 * state root, so writing them happens later, while the node serves requests. On a fork: the
 * overlay on the upstream's state, and the blocks after the pinned one (savedFork.ts); the
 * overlay's facts (deleted accounts, storage continuing the upstream's, zeroed slots) go in the
 * header, so they are read in a first pass over the accounts, which are then read again.
 */
export async function captureState(chain: Chain, fork?: ForkSession): Promise<CapturedState> {
  const { segments, accounts: reading, ...fields } = await chain.persistable(fork !== undefined);
  const header = { chainId: chain.chainId, ...fields };
  if (!fork) return { header, reading, accounts: piecesOf(reading), segments };
  const overlay = { deleted: [] as string[], upstreamStorage: [] as string[], zeroSlots: new Map<string, string[]>(), stateRoot: reading.stateRoot };
  for await (const piece of piecesOf(reading)) {
    if (piece.kind === 'deleted') overlay.deleted.push(piece.address);
    else if (piece.kind === 'zeroSlots') overlay.zeroSlots.set(piece.address, [...piece.slots!]);
    else if (piece.kind === 'account' && piece.upstreamStorage) overlay.upstreamStorage.push(piece.address);
  }
  reading.rewind();
  return { header: { ...header, fork: encodeSavedFork(fork, overlay) }, reading, accounts: piecesOf(reading), segments: segments.slice(1) };
}

/** The most JSON a dump answers in one document (chain_dumpState, anvil_dumpState, chain_exportGenesis). */
export const MAX_DUMP_BYTES = 64 * 1024 * 1024;

/** A state too large to answer in one JSON-RPC document (-32000); `--state` streams it to disk instead. */
export class StateTooLargeError extends EngineError {
  constructor(what: string, limit: number) {
    super(
      'rejected',
      `state too large: ${what} would pass ${limit} bytes of JSON, the most one answer holds; save the state with --state FILE (written to disk as a stream, no limit)`,
    );
    this.name = 'StateTooLargeError';
  }
}

/** About what a piece adds to a dump's JSON. */
function jsonBytes(piece: StatePiece): number {
  if (piece.kind === 'account') return 110 + 2 * piece.code.length;
  if (piece.kind === 'storage') return 136 * piece.slots.length;
  return 0;
}

/** A reading's accounts collected into a dump, refused with StateTooLargeError past `limit` bytes of JSON. */
export async function collectAccounts(reading: StateReading, limit: number, what: string): Promise<Map<string, AccountState>> {
  const alloc = new Map<string, CollectedAccount>();
  let bytes = 0;
  for await (const piece of piecesOf(reading)) {
    bytes += jsonBytes(piece);
    if (bytes > limit) throw new StateTooLargeError(what, limit);
    collectPiece(alloc, piece);
  }
  return alloc;
}

/** How many times a reading starts again when a revert takes the state it was reading away. */
export const MAX_READ_ATTEMPTS = 3;

/** `read` again (from a new capture) while the state it read is reverted away, up to MAX_READ_ATTEMPTS times. */
export async function withRestarts<T>(read: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read(attempt);
    } catch (error) {
      if (!(error instanceof StateReadingLost) || attempt >= MAX_READ_ATTEMPTS) throw error;
    }
  }
}

/** chain_dumpState's answer: the chain settings and the accounts, without the node's keys, clock or blocks. */
export function dumpedState(chain: Chain): Promise<StateFile> {
  return withRestarts(async () => {
    const { header, reading } = await captureState(chain);
    const alloc = await collectAccounts(reading, MAX_DUMP_BYTES, 'the accounts');
    const { chainId, hardfork, gasLimit, timestamp } = header;
    return { chainId, hardfork, gasLimit, timestamp, alloc };
  });
}
