/**
 * Writes the state manager's changed accounts and storage slots to their tries in one
 * batch per trie (trieUpdate.ts) instead of one library put per key: sealing a block
 * hashes each node on the changed paths once. What is written, and where, is what
 * @ethereumjs/statemanager's own flush writes (test/engine/batchFlush.test.ts compares the
 * state roots).
 */
import { RLP } from '@ethereumjs/rlp';
import type { CheckpointDB } from '@ethereumjs/mpt';
import { CODEHASH_PREFIX } from '@ethereumjs/statemanager';
import { ForkAwareStateManager, TOMBSTONE_RLP, ZERO_SLOT } from './forkState.js';
import { type Address, KeyEncoding, ValueEncoding, bytesToUnprefixedHex, concatBytes, createAddressFromString, unpadBytes } from '@ethereumjs/util';
import { keccak256 } from '../util/keccak256.js';
import { nibblesOf } from './trieRoot.js';
import { type TrieChange, type TrieNodeStore, updateTrie } from './trieUpdate.js';

export class BatchFlushStateManager extends ForkAwareStateManager {
  /**
   * Into the cache only, as the library means to (it chains the cache's `put`, which returns
   * nothing, with `??` and so also writes each slot through to the trie at once). The flush
   * writes the slots and the account's new storage root; calls and estimates, which revert,
   * write nothing. Until then an account's storage root is the trie's (nothing reads it
   * without flushing first: state roots, proofs, dumps).
   */
  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const cache = this._caches?.storage;
    if (!cache || this._prefixStorageTrieKeys) return super.putStorage(address, key, value);
    if (key.length !== 32) throw new Error('Storage key must be 32 bytes long');
    if (value.length > 32) throw new Error('Storage value cannot be longer than 32 bytes');
    if (!(await this.getAccount(address))) throw new Error('putStorage() called on non-existing account');
    cache.put(address, key, RLP.encode(unpadBytes(value)));
  }

  override async flush(): Promise<void> {
    const caches = this._caches;
    if (!caches?.account || !caches.storage || this._prefixStorageTrieKeys) return super.flush();

    // New code goes to the code database (putCode has set its hash in the account; a deleted account's code needs nothing).
    for (const [, { code }] of caches.code?.flush() ?? []) {
      if (code === undefined) continue;
      const codeHash = keccak256(code);
      await this._getCodeDB().put(this._prefixCodeHashes ? concatBytes(CODEHASH_PREFIX, codeHash) : codeHash, code);
    }

    // Storage first: each changed trie's new root goes into its account, which is flushed next.
    const slotsByAccount = new Map<string, TrieChange[]>();
    for (const [addressHex, slotHex, value] of caches.storage.flush()) {
      const decoded = RLP.decode(value ?? new Uint8Array(0)) as Uint8Array;
      const change = { path: nibblesOf(keccak256(Buffer.from(slotHex, 'hex'))), value: decoded.length > 0 ? RLP.encode(decoded) : undefined };
      const changes = slotsByAccount.get(addressHex);
      if (changes) changes.push(change);
      else slotsByAccount.set(addressHex, [change]);
    }
    for (const [addressHex, changes] of slotsByAccount) {
      const address = createAddressFromString(`0x${addressHex}`);
      const account = await this.getAccount(address);
      if (account === undefined) continue; // as the library: storage of an account deleted since
      // On a fork, a slot zeroed in storage that continues the upstream's shadows the upstream's value (forkState.ts).
      const written =
        this.remote && (await this.isForkBacked(account.storageRoot))
          ? changes.map((change) => (change.value === undefined ? { path: change.path, value: ZERO_SLOT } : change))
          : changes;
      const trie = this._getStorageTrie(address, account);
      trie.root(await updateTrie(nodeStoreOf(trie.database()), account.storageRoot, written));
      account.storageRoot = trie.root();
      await this.putAccount(address, account);
    }

    const accounts: TrieChange[] = caches.account
      .flush()
      // On a fork, a deleted account is a tombstone: removing it would let the upstream's show through.
      .map(([addressHex, { accountRLP }]) => ({
        path: nibblesOf(keccak256(Buffer.from(addressHex, 'hex'))),
        value: accountRLP ?? (this.remote ? TOMBSTONE_RLP : undefined),
      }));
    this._trie.root(await updateTrie(nodeStoreOf(this._trie.database()), this._trie.root(), accounts));
  }
}

const BYTES = { keyEncoding: KeyEncoding.String, valueEncoding: ValueEncoding.Bytes };

/**
 * A trie's nodes without its checkpoint bookkeeping. While a block is built the library's
 * CheckpointDB copies every node read or written into the open checkpoint, and when the block
 * commits writes all of them to the database again (11 for a transfer, 0.06 ms). Nodes are
 * addressed by their hash and never change: a committed node needs no copy to be read, and a
 * node written straight to the database outlives a reverted checkpoint only as an entry no
 * root refers to (trieDb.ts frees those when the chain reverts past them). Nodes the library
 * itself wrote into an open checkpoint are read from there. Databases that store hex strings
 * or keep their own cache go through the CheckpointDB as before.
 */
export function nodeStoreOf(db: CheckpointDB): TrieNodeStore {
  const storesBytes = (db as unknown as { valueEncoding?: unknown }).valueEncoding === ValueEncoding.Bytes;
  if (!storesBytes || db.cacheSize > 0) return db;
  return {
    async get(hash) {
      const key = bytesToUnprefixedHex(hash);
      for (let i = db.checkpoints.length - 1; i >= 0; i--) {
        const written = db.checkpoints[i]!.keyValueMap;
        if (written.has(key)) return written.get(key);
      }
      return (await db.db.get(key, BYTES)) as Uint8Array | undefined;
    },
    put: (hash, encoded) => db.db.put(bytesToUnprefixedHex(hash), encoded, BYTES),
  };
}
