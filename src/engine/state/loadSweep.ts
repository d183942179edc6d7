/**
 * Deleting what a restore in batches leaves behind. A saved state is loaded in bounded batches
 * at start-up (persistence.ts), each flushed to the trie: a flush writes the nodes on the paths
 * it changed, and the next batch's flush writes those paths again. Nodes are never overwritten
 * or freed on their own (they are content-addressed), so every intermediate state's nodes stayed:
 * 300,000 slots loaded 4,096 at a time left 2.2 times the nodes one flush writes.
 *
 * The trie's write log (trieDb.ts) is opened when the load begins. When it ends, the loaded state
 * is walked from its root through the nodes the log holds: the state trie, each account's storage
 * trie and code. A node written before the load is not followed (it was complete, with every node
 * it refers to, before the load). What the log holds and the walk did not reach is deleted. Only
 * at start-up, where nothing else writes: a block mined during the load would reach nodes the
 * walk does not.
 */
import { CODEHASH_PREFIX } from '@ethereumjs/statemanager';
import { bytesToUnprefixedHex, concatBytes, equalsBytes, KECCAK256_NULL } from '@ethereumjs/util';
import { decodeRlpList, type RlpItem } from './nodeRlp.js';
import type { TrieNodeDB } from './trieDb.js';
import { EMPTY_TRIE_ROOT, fromHexPrefix } from './trieRoot.js';

type TrieKind = 'state' | 'storage';

/**
 * Delete the entries first written since `mark` that the state at `root` does not reach, and
 * close the log; the count deleted. Does nothing unless `alone` (no snapshot needs the log,
 * nothing else wrote since `mark`).
 */
export function sweepUnreachable(db: TrieNodeDB, mark: number, root: Uint8Array, alone: boolean): number {
  if (!alone) return 0;
  const unreached = new Set(db.loggedSince(mark));
  const pending: [key: string, kind: TrieKind][] = [[bytesToUnprefixedHex(root), 'state']];
  const follow = (item: RlpItem, kind: TrieKind): void => {
    if (!(item instanceof Uint8Array))
      visit(item, kind); // a node under 32 bytes, inside its parent
    else if (item.length === 32) pending.push([bytesToUnprefixedHex(item), kind]);
  };
  const visit = (node: readonly RlpItem[], kind: TrieKind): void => {
    if (node.length === 17) {
      for (let i = 0; i < 16; i++) follow(node[i]!, kind);
      return;
    }
    if (!fromHexPrefix(node[0] as Uint8Array).leaf) {
      follow(node[1]!, kind);
      return;
    }
    if (kind === 'storage') return;
    // An account: [nonce, balance, storageRoot, codeHash].
    const [, , storageRoot, codeHash] = decodeRlpList(node[1] as Uint8Array) as Uint8Array[];
    if (!equalsBytes(storageRoot!, EMPTY_TRIE_ROOT)) pending.push([bytesToUnprefixedHex(storageRoot!), 'storage']);
    if (!equalsBytes(codeHash!, KECCAK256_NULL)) unreached.delete(bytesToUnprefixedHex(concatBytes(CODEHASH_PREFIX, codeHash!)));
  };
  while (pending.length > 0) {
    const [key, kind] = pending.pop()!;
    // Not logged: written before the load, whole. Logged and seen: deleted from the set already.
    if (!unreached.delete(key)) continue;
    visit(decodeRlpList(db.stored(key)!), kind);
  }
  db.forget(unreached, mark);
  db.closeLog();
  return unreached.size;
}
