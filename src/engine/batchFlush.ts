/**
 * Writes the state manager's changed accounts and storage slots to their tries in one
 * batch per trie (trieUpdate.ts) instead of one library put per key: sealing a block
 * hashes each node on the changed paths once. What is written, and where, is what
 * @ethereumjs/statemanager's own flush writes; blocks that store new code (rare, and the
 * code database is the library's business) take the library's flush unchanged.
 */
import { RLP } from '@ethereumjs/rlp';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { createAddressFromString } from '@ethereumjs/util';
import { keccak256 } from './keccak256.js';
import { nibblesOf } from './trieRoot.js';
import { type TrieChange, updateTrie } from './trieUpdate.js';

export class BatchFlushStateManager extends MerkleStateManager {
  override async flush(): Promise<void> {
    const caches = this._caches;
    const code = caches?.code;
    const codeChanged = code !== undefined && code._diffCache[code._checkpoints]!.size > 0;
    if (!caches?.account || !caches.storage || codeChanged || this._prefixStorageTrieKeys) return super.flush();

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
      const trie = this._getStorageTrie(address, account);
      trie.root(await updateTrie(trie.database(), trie.root(), changes));
      account.storageRoot = trie.root();
      await this.putAccount(address, account);
    }

    const accounts: TrieChange[] = caches.account
      .flush()
      .map(([addressHex, { accountRLP }]) => ({ path: nibblesOf(keccak256(Buffer.from(addressHex, 'hex'))), value: accountRLP }));
    this._trie.root(await updateTrie(this._trie.database(), this._trie.root(), accounts));
  }
}
