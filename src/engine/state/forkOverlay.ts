/**
 * A forked chain's local state as a --state file keeps it (read in steps by stateReading.ts in its
 * overlay mode, written back here). On a fork the live state is an
 * overlay on the upstream's (forkState.ts), and a plain dump of accounts (stateDump.ts)
 * would lose three facts the overlay holds besides values:
 * - an account deleted here (its tombstone: without it the upstream's account shows again);
 * - whether an account's storage continues the upstream's (without it a contract touched
 *   here would lose every slot it did not write);
 * - slots zeroed here over the upstream's storage (a dump leaves zero slots out).
 * The overlay is read from the trie itself (never from the upstream: saving needs no network),
 * and written back so that the restored trie holds the same entries, hence the same root.
 */
import { Account, createAddressFromString, hexToBytes, KECCAK256_NULL } from '@ethereumjs/util';
import { FORK_STORAGE_ROOT } from './forkState.js';
import type { AccountState, TrackingStateManager } from './stateDump.js';
import type { StatePiece } from './stateReading.js';
import { EMPTY_TRIE_ROOT } from './trieRoot.js';

export interface ForkOverlay {
  /** Accounts written here, with their non-zero slots written here. */
  readonly alloc: Map<string, AccountState>;
  /** Accounts deleted here (they do not exist locally, whatever the upstream has). */
  readonly deleted: string[];
  /** Accounts whose storage continues the upstream's (slots not written here are the upstream's). */
  readonly upstreamStorage: string[];
  /** Address → slots zeroed here over the upstream's storage. */
  readonly zeroSlots: Map<string, string[]>;
  /** The overlay trie's root (a restore with the same prefunded accounts gives it again). */
  readonly stateRoot: Uint8Array;
}

/** The overlay's facts a dump of accounts cannot hold (a state file keeps them in its header). */
export type ForkOverlayFacts = Pick<ForkOverlay, 'deleted' | 'upstreamStorage' | 'zeroSlots'>;

/** The facts as the batches of a restore look them up. */
export interface ForkOverlayLookup {
  readonly upstreamStorage: ReadonlySet<string>;
  readonly zeroSlots: ReadonlyMap<string, readonly string[]>;
}

/**
 * First step of a saved overlay's restore over the fork's start state (call inside the chain's
 * queue): the accounts deleted here get their tombstones.
 */
export async function restoreForkDeletions(state: TrackingStateManager, deleted: readonly string[]): Promise<void> {
  for (const addressHex of deleted) await state.putAccount(createAddressFromString(addressHex), undefined);
  await state.getStateRoot();
}

/**
 * Then the overlay's accounts, a batch of pieces (stateReading.ts) at a time, in order, flushed
 * at the end so that a restore of any size holds one batch in the caches: an account's fields
 * replace it (its storage the upstream's or empty, as the facts say, with its zeroed slots), its
 * storage pieces follow, in this batch or later ones.
 */
export async function restoreForkPieces(state: TrackingStateManager, pieces: readonly StatePiece[], facts: ForkOverlayLookup): Promise<void> {
  for (const piece of pieces) {
    const address = createAddressFromString(piece.address);
    if (piece.kind === 'account') {
      const storageRoot = facts.upstreamStorage.has(piece.address) ? FORK_STORAGE_ROOT : EMPTY_TRIE_ROOT;
      await state.putAccount(address, new Account(piece.nonce, piece.balance, storageRoot, KECCAK256_NULL));
      if (piece.code.length > 0) await state.putCode(address, piece.code);
      // Zero written over a storage that continues the upstream's is kept as an explicit zero (batchFlush.ts).
      for (const slot of facts.zeroSlots.get(piece.address) ?? []) await state.putStorage(address, hexToBytes(slot as `0x${string}`), new Uint8Array(32));
    } else if (piece.kind === 'storage') {
      for (const [slot, value] of piece.slots) await state.putStorage(address, hexToBytes(slot as `0x${string}`), value);
    }
    // 'deleted' and 'zeroSlots' pieces come from the facts (restoreForkDeletions, above).
  }
  await state.getStateRoot();
}
