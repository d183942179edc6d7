import { Account, type Address, createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import type { StatePiece } from './stateReading.js';
import { WarmCacheStateManager } from './warmCaches.js';
import { toHex } from '../util/hex.js';

/** One account's full content, as a state dump or fixture holds it. */
export interface AccountState {
  readonly balance: bigint;
  readonly nonce: bigint;
  readonly code: Uint8Array;
  /** 32-byte slot (0x hex) → value; zero values are absent. */
  readonly storage: ReadonlyMap<string, Uint8Array>;
}

/** Address (0x lower-case hex) → account. */
export type Alloc = ReadonlyMap<string, AccountState>;

/**
 * The state trie hashes its keys, so addresses and storage slots cannot be read back
 * from it. This state manager remembers every address and slot ever written, which
 * is what a dump needs to list (stateReading.ts reads them); entries that no longer exist
 * are skipped then.
 */
export class TrackingStateManager extends WarmCacheStateManager {
  private readonly written = new Map<string, Set<string>>();

  private note(address: Address): Set<string> {
    const key = address.toString();
    let slots = this.written.get(key);
    if (!slots) this.written.set(key, (slots = new Set()));
    return slots;
  }

  /** Every address written, with the slots written at it (a fork's --state save walks them: forkOverlay.ts). */
  writtenKeys(): ReadonlyMap<string, ReadonlySet<string>> {
    return this.written;
  }

  override async putAccount(address: Address, account: Account | undefined): Promise<void> {
    this.note(address);
    return super.putAccount(address, account);
  }

  override async putCode(address: Address, value: Uint8Array): Promise<void> {
    this.note(address);
    return super.putCode(address, value);
  }

  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    this.note(address).add(toHex(setLengthLeft(key, 32)));
    return super.putStorage(address, key, value);
  }

  /** Write accounts over the current state (nothing else changes; no block is mined). */
  async load(alloc: Alloc): Promise<void> {
    for (const [addressHex, state] of alloc) {
      const address = createAddressFromString(addressHex);
      await this.putAccount(address, new Account(state.nonce, state.balance));
      if (state.code.length > 0) await this.putCode(address, state.code);
      for (const [slot, value] of state.storage) {
        await this.putStorage(address, hexToBytes(slot as `0x${string}`), value);
      }
    }
    await this.getStateRoot();
  }

  /**
   * Write pieces of a saved state (stateReading.ts) over the current state, in order: an
   * account's fields replace the account (its storage emptied), its storage pieces follow, in
   * this call or later ones. Flushed at the end, like `load`.
   */
  async loadPieces(pieces: readonly StatePiece[]): Promise<void> {
    for (const piece of pieces) {
      const address = createAddressFromString(piece.address);
      if (piece.kind === 'account') {
        await this.putAccount(address, new Account(piece.nonce, piece.balance));
        if (piece.code.length > 0) await this.putCode(address, piece.code);
      } else if (piece.kind === 'storage') {
        for (const [slot, value] of piece.slots) await this.putStorage(address, hexToBytes(slot as `0x${string}`), value);
      } else throw new Error(`a fork overlay's ${piece.kind} piece cannot be loaded over a state (restoreForkOverlay takes them)`);
    }
    await this.getStateRoot();
  }
}
