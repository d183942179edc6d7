import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, type Address, createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util';
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
 * is what a dump needs to list; entries that no longer exist are skipped then.
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

  /**
   * Every live account with its code and non-zero storage; of `source` if given (a copy at
   * an older state root: the addresses written here are a superset of those it holds).
   */
  async dump(source: MerkleStateManager = this): Promise<Map<string, AccountState>> {
    await source.getStateRoot(); // flushes the caches into the trie
    const alloc = new Map<string, AccountState>();
    for (const [addressHex, slots] of [...this.written].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const address = createAddressFromString(addressHex);
      const account = await source.getAccount(address);
      if (!account) continue;
      const storage = new Map<string, Uint8Array>();
      for (const slot of [...slots].sort()) {
        const value = await source.getStorage(address, hexToBytes(slot as `0x${string}`));
        if (value.length > 0 && value.some((b) => b !== 0)) storage.set(slot, setLengthLeft(value, 32));
      }
      alloc.set(addressHex, { balance: account.balance, nonce: account.nonce, code: await source.getCode(address), storage });
    }
    return alloc;
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
}
