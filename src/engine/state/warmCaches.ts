/**
 * Keeps @ethereumjs/statemanager's caches warm where it would empty them, without ever
 * letting them disagree with the trie.
 *
 * Reads in reverted checkpoints. The state manager journals a value it reads from the trie
 * like a write, so reverting a checkpoint forgets what was read inside it too. Every
 * eth_call and estimate runs in a checkpoint that is reverted, so once the caches were
 * empty calls never warmed them again (they ran at half speed after any chain revert).
 * A read stays out of the journal when it is the committed value, so it survives:
 * - an account missing from the cache is the trie's (a change would be in the cache);
 * - code and storage are read through their account's code hash and storage root, so
 *   they are kept only while that field is the trie's (unchanged in every open checkpoint
 *   and since the last flush).
 * A later change to the same entry journals the read value as its pre-state, so a revert
 * puts that back, which is right. At depth 0 the journal is the list of entries the next
 * flush writes to the trie, which no longer rewrites unchanged reads.
 *
 * Chain reverts. Setting the state root back empties every cache, so the first
 * transaction after each evm_revert read its sender, recipient, coinbase and the system
 * contracts from the trie again (a sixth of a snapshot cycle). While a chain snapshot is
 * open, its CacheJournal records each cache entry as it was at the snapshot, when a flush
 * first writes it; reverting puts those entries back and leaves the rest, which nothing
 * has written since. Any other move of the state root (an import, a fixture replay) makes
 * the open journals unusable, and reverting to them empties the caches as before.
 */
import type { AccountCache, Caches, CodeCache } from '@ethereumjs/statemanager';
import { Account, type Address, bytesToUnprefixedHex, createAccountFromRLP, equalsBytes } from '@ethereumjs/util';
import { BatchFlushStateManager } from './batchFlush.js';

/** Chain snapshots whose caches are kept (nested snapshots in test suites are a few deep). */
const MAX_OPEN_JOURNALS = 16;

export class WarmCacheStateManager extends BatchFlushStateManager {
  private journals: CacheJournal[] = [];
  private nextJournal = 0;
  /**
   * Counts what may have changed the committed state (flushes, new state roots): what was built
   * on the state (the pending block) is reused while it is the same, with no one clearing it.
   */
  version = 0;

  /**
   * Cache entries decoded: the cache holds each account as RLP and the library decodes it on
   * every read (18 reads a transfer). Entries are never changed, only replaced, so an entry
   * decodes the same each time; readers get a copy, which they may change.
   */
  private readonly decoded = new WeakMap<AccountEntry, Account>();

  override async getAccount(address: Address): Promise<Account | undefined> {
    const cache = this._caches?.account;
    if (!cache) return super.getAccount(address);
    const entry = cache.get(address);
    if (entry !== undefined) return entry.accountRLP === undefined ? undefined : copyAccount(this.decode(entry));
    // From the trie, which puts it in the cache (a read, not a change: see above).
    const journal = cache._diffCache[cache._checkpoints]!;
    const key = bytesToUnprefixedHex(address.bytes);
    const journaled = journal.has(key);
    const account = await super.getAccount(address);
    if (!journaled) journal.delete(key);
    return account;
  }

  override async putAccount(address: Address, account: Account | undefined): Promise<void> {
    await super.putAccount(address, account);
    // The account just serialised is what that entry decodes to: the next read skips decoding.
    const entry = account && this._caches?.account?.get(address);
    if (entry) this.decoded.set(entry, copyAccount(account));
  }

  private decode(entry: AccountEntry): Account {
    let account = this.decoded.get(entry);
    if (!account) this.decoded.set(entry, (account = createAccountFromRLP(entry.accountRLP!)));
    return account;
  }

  override async getCode(address: Address): Promise<Uint8Array> {
    const cache = this._caches?.code;
    if (!cache) return super.getCode(address);
    const journal = cache._diffCache[cache._checkpoints]!;
    const key = bytesToUnprefixedHex(address.bytes);
    const journaled = journal.has(key);
    const code = await super.getCode(address);
    if (!journaled && journal.has(key) && (await this.readThroughCommitted(address, key, 'codeHash'))) journal.delete(key);
    return code;
  }

  override async getStorage(address: Address, slot: Uint8Array): Promise<Uint8Array> {
    const cache = this._caches?.storage;
    if (!cache) return super.getStorage(address, slot);
    const journal = cache._diffCache[cache._checkpoints]!;
    const key = bytesToUnprefixedHex(address.bytes);
    const slotKey = bytesToUnprefixedHex(slot);
    const journaled = journal.get(key)?.has(slotKey) ?? false;
    const value = await super.getStorage(address, slot);
    const slots = journal.get(key);
    if (!journaled && slots?.has(slotKey) && (await this.readThroughCommitted(address, key, 'storageRoot'))) {
      slots.delete(slotKey);
      if (slots.size === 0) journal.delete(key);
    }
    return value;
  }

  /**
   * Whether the account's code hash or storage root is the one in the trie: the pre-state
   * journaled at the lowest depth that changed the account (depth 0: since the last flush).
   */
  private async readThroughCommitted(address: Address, key: string, field: 'codeHash' | 'storageRoot'): Promise<boolean> {
    const journals = this._caches!.account!._diffCache;
    for (let depth = 0; depth < journals.length; depth++) {
      if (!journals[depth]!.has(key)) continue;
      const before = journals[depth]!.get(key)?.accountRLP;
      const now = await this.getAccount(address);
      return before !== undefined && now !== undefined && equalsBytes(createAccountFromRLP(before)[field], now[field]);
    }
    return true;
  }

  // ---- chain snapshots ---------------------------------------------------------------------

  /** Start recording the caches for a chain snapshot; call at a flushed state (after getStateRoot). */
  openJournal(): CacheJournal {
    const journal = new CacheJournal(this.nextJournal++);
    this.journals.push(journal);
    // Every flush records into every open journal: snapshots taken and never reverted must not
    // slow each block down. The oldest beyond the bound stop recording (a revert to them empties the caches).
    if (this.journals.length > MAX_OPEN_JOURNALS) this.journals.shift()!.usable = false;
    return journal;
  }

  /** Stop recording for every snapshot (they were all discarded). */
  closeJournals(): void {
    this.journals = [];
  }

  /**
   * Set the state root back to a snapshot's, with the caches as they were then. Journals
   * opened after `journal` are closed (their snapshots are discarded); `journal` itself
   * starts again, empty, unless `keep` is false.
   */
  async revertTo(stateRoot: Uint8Array, journal: CacheJournal, keep: boolean): Promise<void> {
    await this.flush(); // unflushed changes are written, and recorded, first
    const usable = this.journals.includes(journal) && journal.usable;
    this.journals = this.journals.filter((open) => open.seq < journal.seq || (keep && open === journal));
    if (!usable) {
      await super.setStateRoot(stateRoot); // empties the caches
      journal.restart();
      return;
    }
    await super.setStateRoot(stateRoot, false);
    journal.restoreInto(this._caches!);
    journal.restart();
  }

  override async setStateRoot(stateRoot: Uint8Array, clearCache = true): Promise<void> {
    this.version++;
    for (const journal of this.journals) journal.usable = false;
    return super.setStateRoot(stateRoot, clearCache);
  }

  override async flush(): Promise<void> {
    this.version++;
    if (this._caches && this.journals.length > 0) for (const journal of this.journals) journal.record(this._caches);
    return super.flush();
  }
}

type AccountEntry = NonNullable<ReturnType<AccountCache['get']>>;
type CodeEntry = NonNullable<ReturnType<CodeCache['get']>>;

function copyAccount(account: Account): Account {
  return new Account(account.nonce, account.balance, account.storageRoot.slice(), account.codeHash.slice());
}

/** Records each entry of the deepest journal not recorded yet, with its value before every pending change. */
function recordEntries<V>(journals: ReadonlyArray<ReadonlyMap<string, V | undefined>>, recorded: Map<string, V | undefined>): void {
  for (const key of journals[journals.length - 1]!.keys()) {
    if (recorded.has(key)) continue;
    recorded.set(key, journals.find((journal) => journal.has(key))!.get(key));
  }
}

/** A cache's backing store: an LRU map or an ordered map, as its settings chose. */
interface Backing<V> {
  _lruCache?: { get(key: string): V | undefined; set(key: string, value: V): unknown; delete(key: string): unknown };
  _orderedMapCache?: { getElementByKey(key: string): V | undefined; setElement(key: string, value: V): unknown; eraseElementByKey(key: string): unknown };
}

function put<V>(cache: Backing<V>, key: string, value: V | undefined): void {
  if (cache._lruCache) {
    if (value === undefined) cache._lruCache.delete(key);
    else cache._lruCache.set(key, value);
  } else if (value === undefined) cache._orderedMapCache!.eraseElementByKey(key);
  else cache._orderedMapCache!.setElement(key, value);
}

function get<V>(cache: Backing<V>, key: string): V | undefined {
  return cache._lruCache ? cache._lruCache.get(key) : cache._orderedMapCache!.getElementByKey(key);
}

/**
 * The cache entries of one chain snapshot's moment that flushes have overwritten since. A
 * flush writes the entries of the state manager's journal at the current depth (the block
 * builder flushes inside its checkpoint), which holds each one's value before the change
 * (undefined: not cached then); the first one seen per entry is the snapshot's.
 */
export class CacheJournal {
  /** False once the state root moved by other means than blocks and reverts. */
  usable = true;
  private accounts = new Map<string, AccountEntry | undefined>();
  private code = new Map<string, CodeEntry | undefined>();
  private storage = new Map<string, Map<string, Uint8Array | undefined>>();

  constructor(readonly seq: number) {}

  /**
   * Before a flush: what it is about to write, the entries of the journal at the depth it
   * flushes. An entry also changed at a lower depth since the last flush has its earlier
   * value there: the lowest depth's is the one from before every pending change.
   */
  record(caches: Caches): void {
    const { account, code, storage } = caches;
    if (account) recordEntries(account._diffCache, this.accounts);
    if (code) recordEntries(code._diffCache, this.code);
    if (!storage) return;
    const journals = storage._diffCache;
    if (account) {
      // The flush also puts the new storage roots of accounts whose slots changed (batchFlush.ts).
      for (const address of journals[journals.length - 1]!.keys()) {
        if (this.accounts.has(address)) continue;
        const journaled = account._diffCache.find((journal) => journal.has(address));
        this.accounts.set(address, journaled ? journaled.get(address) : get<AccountEntry>(account, address));
      }
    }
    for (const [address, slots] of journals[journals.length - 1]!) {
      let recorded = this.storage.get(address);
      if (!recorded) this.storage.set(address, (recorded = new Map()));
      for (const slot of slots.keys()) {
        if (recorded.has(slot)) continue;
        const depth = journals.findIndex((journal) => journal.get(address)?.has(slot));
        recorded.set(slot, journals[depth]!.get(address)!.get(slot));
      }
    }
  }

  restoreInto(caches: Caches): void {
    if (caches.account) for (const [key, before] of this.accounts) put<AccountEntry>(caches.account, key, before);
    if (caches.code) for (const [key, before] of this.code) put<CodeEntry>(caches.code, key, before);
    if (!caches.storage) return;
    const storage: Backing<Map<string, Uint8Array>> = caches.storage;
    for (const [address, slots] of this.storage) {
      let cached = get(storage, address);
      if (!cached) put(storage, address, (cached = new Map()));
      for (const [slot, before] of slots) {
        if (before === undefined) cached.delete(slot);
        else cached.set(slot, before);
      }
    }
  }

  restart(): void {
    this.usable = true;
    this.accounts = new Map();
    this.code = new Map();
    this.storage = new Map();
  }
}
