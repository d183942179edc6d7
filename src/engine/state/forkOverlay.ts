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

/** Write a saved overlay over the fork's start state (call inside the chain's queue); returns the new state root. */
export async function restoreForkOverlay(state: TrackingStateManager, overlay: Omit<ForkOverlay, 'stateRoot'>): Promise<Uint8Array> {
  const upstreamStorage = new Set(overlay.upstreamStorage);
  for (const addressHex of overlay.deleted) await state.putAccount(createAddressFromString(addressHex), undefined);
  for (const [addressHex, saved] of overlay.alloc) {
    const address = createAddressFromString(addressHex);
    const storageRoot = upstreamStorage.has(addressHex) ? FORK_STORAGE_ROOT : EMPTY_TRIE_ROOT;
    await state.putAccount(address, new Account(saved.nonce, saved.balance, storageRoot, KECCAK256_NULL));
    if (saved.code.length > 0) await state.putCode(address, saved.code);
    for (const [slot, value] of saved.storage) await state.putStorage(address, hexToBytes(slot as `0x${string}`), value);
    // Zero written over a storage that continues the upstream's is kept as an explicit zero (batchFlush.ts).
    for (const slot of overlay.zeroSlots.get(addressHex) ?? []) await state.putStorage(address, hexToBytes(slot as `0x${string}`), new Uint8Array(32));
  }
  return state.getStateRoot();
}
