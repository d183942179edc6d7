/**
 * @ethereumjs/statemanager journals a value it reads from the trie into its cache the same
 * way as a write, so reverting a checkpoint forgets what was read inside it too. Every
 * eth_call and estimate runs in a checkpoint that is reverted, so once the caches are
 * cleared (a chain revert sets the state root) calls never warm them again: each call
 * walks the trie for the same account, code and slots (calls ran at half speed after
 * any revert).
 *
 * This state manager keeps such a read out of the journal when it is the committed value,
 * so it survives a checkpoint's revert:
 * - an account missing from the cache is the trie's (a change would be in the cache);
 * - code and storage are read through their account's code hash and storage root, so
 *   they are kept only while that field is what it was before every open checkpoint.
 * A later change to the same entry journals the read value as its pre-state, so a revert
 * puts that back, which is right. At depth 0 the journal is the list of entries the next
 * flush writes to the trie, which no longer rewrites unchanged reads.
 */
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { type Account, type Address, bytesToUnprefixedHex, createAccountFromRLP, equalsBytes } from '@ethereumjs/util';

export class CommittedReadStateManager extends MerkleStateManager {
  override async getAccount(address: Address): Promise<Account | undefined> {
    const cache = this._caches?.account;
    if (!cache) return super.getAccount(address);
    const journal = cache._diffCache[cache._checkpoints]!;
    const key = bytesToUnprefixedHex(address.bytes);
    const journaled = journal.has(key);
    const account = await super.getAccount(address);
    if (!journaled) journal.delete(key);
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
   * Whether the account's code hash or storage root is the one it had before every open
   * checkpoint: the pre-state journaled at the lowest depth that changed the account.
   */
  private async readThroughCommitted(address: Address, key: string, field: 'codeHash' | 'storageRoot'): Promise<boolean> {
    const journals = this._caches!.account!._diffCache;
    for (let depth = 1; depth < journals.length; depth++) {
      if (!journals[depth]!.has(key)) continue;
      const before = journals[depth]!.get(key)?.accountRLP;
      const now = await this.getAccount(address);
      return before !== undefined && now !== undefined && equalsBytes(createAccountFromRLP(before)[field], now[field]);
    }
    return true;
  }
}
