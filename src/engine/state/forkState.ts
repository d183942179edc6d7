/**
 * State on a forked chain: the local trie is an overlay on the upstream's state at the
 * pinned block. What the trie holds (accounts and slots written here) wins; what it lacks
 * comes from the upstream through `RemoteState` (fork/remoteState.ts), which fetches each
 * key once and keeps it outside the trie, so snapshots and reverts (which move the state
 * root) never refetch anything.
 *
 * Two facts the overlay must still tell apart from "not here, ask upstream":
 * - An account deleted here (self-destruct, EIP-161 clearing) is written as a tombstone
 *   (TOMBSTONE_RLP) instead of being removed from the trie.
 * - Whether an account's storage continues the upstream's: an account read from upstream
 *   gets the storage root FORK_STORAGE_ROOT, a trie holding only a sentinel leaf at a key
 *   no 32-byte slot hashes to. Slots written later go into that trie beside the sentinel
 *   (a slot zeroed here is kept as an explicit zero, ZERO_SLOT, to shadow the upstream's
 *   value). A contract created here, or whose storage was cleared, starts from the empty
 *   trie: no sentinel, its storage is wholly local.
 * The state roots of local blocks are therefore the roots of this overlay trie (see
 * docs/forking.md): deterministic for the same pinned block and transactions, not the
 * roots the upstream would compute.
 *
 * Without a RemoteState every method is the library's own.
 */
import { RLP } from '@ethereumjs/rlp';
import { CODEHASH_PREFIX, MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, type Address, KECCAK256_NULL, concatBytes, createAccountFromRLP, equalsBytes, bytesToHex, unpadBytes } from '@ethereumjs/util';
import { keccak256 } from '../util/keccak256.js';
import { RemoteReadPending } from './remoteMiss.js';
import { nibblesOf } from './trieRoot.js';
import { EMPTY_TRIE_ROOT } from './trieRoot.js';
import { type TrieNodeStore, updateTrie } from './trieUpdate.js';

/** An account as the upstream has it at the pinned block. */
export interface RemoteAccount {
  readonly nonce: bigint;
  readonly balance: bigint;
  readonly code: Uint8Array;
}

/** The upstream's state at the pinned block, fetched lazily (implemented in fork/remoteState.ts). */
export interface RemoteState {
  /** undefined: the account does not exist there (no balance, nonce or code). */
  account(address: Address): Promise<RemoteAccount | undefined>;
  /** The slot's value (unpadded or 32 bytes). */
  storage(address: Address, slot: Uint8Array): Promise<Uint8Array>;
  /** Code fetched with an account, by its hash. */
  code(codeHash: Uint8Array): Uint8Array | undefined;
  /** The account if it was fetched already, without waiting: null when it does not exist there, undefined when not fetched yet. */
  fetchedAccount(address: Address): RemoteAccount | null | undefined;
  /** The slot's value if it was fetched already, without waiting; undefined when not fetched yet. */
  fetchedStorage(address: Address, slot: Uint8Array): Uint8Array | undefined;
}

/** 33 bytes: keccak of it is no storage slot's key (slots are 32 bytes). */
const SENTINEL_KEY = concatBytes(new TextEncoder().encode('chain-sim fork storage sentinel!'), Uint8Array.of(1));
const SENTINEL_VALUE = Uint8Array.of(1);
/** The value a slot zeroed here is stored as: RLP of the empty string, which reads as zero. */
export const ZERO_SLOT = Uint8Array.of(0x80);

/** The storage trie of an account read from upstream: the sentinel leaf alone. Its node is written by installForkRoot. */
export let FORK_STORAGE_ROOT: Uint8Array = new Uint8Array(32);

/** An account deleted here: an impossible storage root marks it. */
const TOMBSTONE_ROOT = keccak256(new TextEncoder().encode('chain-sim fork: deleted account'));
export const TOMBSTONE_RLP: Uint8Array = new Account(0n, 0n, TOMBSTONE_ROOT, KECCAK256_NULL).serialize();

/** Write the sentinel trie's node into the node database (once per database; nodes are never overwritten). */
export async function installForkRoot(store: TrieNodeStore): Promise<void> {
  FORK_STORAGE_ROOT = await updateTrie(store, EMPTY_TRIE_ROOT, [{ path: nibblesOf(keccak256(SENTINEL_KEY)), value: SENTINEL_VALUE }]);
}

/** Storage roots known to continue the upstream's storage (roots name content, so the answer never changes). */
const forkBackedRoots = new Map<string, boolean>();

export class ForkAwareStateManager extends MerkleStateManager {
  /** The upstream's state under the overlay; undefined on a chain that is not a fork. */
  remote: RemoteState | undefined;
  /**
   * True while a task that can be run again holds the queue (the facade's runFetching, automine):
   * a value not fetched yet is not awaited, its fetch starts and RemoteReadPending is thrown
   * (remoteMiss.ts). False otherwise (copies, work outside the queue, tasks with effects): awaited.
   */
  deferMisses = false;

  override async getAccount(address: Address): Promise<Account | undefined> {
    if (!this.remote) return super.getAccount(address);
    const entry = this._caches?.account?.get(address);
    if (entry !== undefined) return entry.accountRLP !== undefined ? createAccountFromRLP(entry.accountRLP) : undefined;
    const rlp = await this._trie.get(address.bytes);
    let account: Account | undefined;
    if (rlp === null) account = await this.remoteAccount(address);
    else account = equalsBytes(rlp, TOMBSTONE_RLP) ? undefined : createAccountFromRLP(rlp);
    this._caches?.account?.put(address, account);
    return account;
  }

  private async remoteAccount(address: Address): Promise<Account | undefined> {
    const remoteState = this.remote!;
    let remote = remoteState.fetchedAccount(address);
    if (remote === undefined) {
      const fetch = remoteState.account(address);
      if (this.deferMisses) throw new RemoteReadPending(fetch, `account ${address.toString()}`);
      remote = await fetch;
    }
    if (!remote) return undefined;
    const codeless = remote.code.length === 0;
    // Only code can have storage (an EIP-7702 delegation is code too): a plain account's storage is empty.
    return new Account(remote.nonce, remote.balance, codeless ? EMPTY_TRIE_ROOT : FORK_STORAGE_ROOT, codeless ? KECCAK256_NULL : keccak256(remote.code));
  }

  override async getCode(address: Address): Promise<Uint8Array> {
    if (!this.remote) return super.getCode(address);
    const entry = this._caches?.code?.get(address);
    if (entry !== undefined) return entry.code ?? new Uint8Array(0);
    const account = await this.getAccount(address);
    if (!account?.isContract()) return new Uint8Array(0);
    const key = this._prefixCodeHashes ? concatBytes(CODEHASH_PREFIX, account.codeHash) : account.codeHash;
    const code = (await this._trie.database().get(key)) ?? this.remote.code(account.codeHash) ?? new Uint8Array(0);
    this._caches?.code?.put(address, code);
    return code;
  }

  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    if (!this.remote) return super.getStorage(address, key);
    if (key.length !== 32) throw new Error('Storage key must be 32 bytes long');
    const cached = this._caches?.storage?.get(address, key);
    if (cached !== undefined) return RLP.decode(cached ?? new Uint8Array(0)) as Uint8Array;
    const account = await this.getAccount(address);
    if (!account) return new Uint8Array();
    let value = await this._getStorageTrie(address, account).get(key);
    if (value === null && (await this.isForkBacked(account.storageRoot))) {
      let remote = this.remote.fetchedStorage(address, key);
      if (remote === undefined) {
        const fetch = this.remote.storage(address, key);
        if (this.deferMisses) throw new RemoteReadPending(fetch, `slot ${bytesToHex(key)} of ${address.toString()}`);
        remote = await fetch;
      }
      value = RLP.encode(unpadBytes(remote));
    }
    this._caches?.storage?.put(address, key, value ?? ZERO_SLOT);
    return RLP.decode(value ?? new Uint8Array(0)) as Uint8Array;
  }

  /** Whether an account's storage trie continues the upstream's (holds the sentinel). */
  async isForkBacked(storageRoot: Uint8Array): Promise<boolean> {
    if (equalsBytes(storageRoot, EMPTY_TRIE_ROOT)) return false;
    if (equalsBytes(storageRoot, FORK_STORAGE_ROOT)) return true;
    const key = bytesToHex(storageRoot);
    let backed = forkBackedRoots.get(key);
    if (backed === undefined) {
      const trie = this._trie.shallowCopy(false);
      trie.root(storageRoot);
      backed = (await trie.get(SENTINEL_KEY)) !== null;
      if (forkBackedRoots.size > 100_000) forkBackedRoots.clear();
      forkBackedRoots.set(key, backed);
    }
    return backed;
  }

  /** Copies (pending blocks, historical reads) keep the overlay's rules and its upstream. */
  override shallowCopy(downlevelCaches = true): MerkleStateManager {
    const copy = super.shallowCopy(downlevelCaches);
    if (!this.remote) return copy;
    const Kind = this.constructor as new (options: ConstructorParameters<typeof MerkleStateManager>[0]) => ForkAwareStateManager;
    const forked = new Kind({
      common: copy.common,
      trie: copy['_trie'],
      prefixCodeHashes: copy['_prefixCodeHashes'],
      prefixStorageTrieKeys: copy['_prefixStorageTrieKeys'],
      caches: copy['_caches'],
    });
    forked.remote = this.remote;
    return forked;
  }
}
