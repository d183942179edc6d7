/**
 * Reading a key of a stored trie directly from the node database, synchronously: the path of
 * the key's hash is followed node by node, decoded as views (nodeRlp.ts). @ethereumjs/mpt's
 * `get` builds a trie object per storage trie, a promise per node and a node object per step;
 * reading a whole state for a save through it took about 0.45 ms per account of four slots.
 * Used by whole-state readings (stateReading.ts) only; the VM keeps the library's trie.
 */
import { bytesToUnprefixedHex } from '@ethereumjs/util';
import { keccak256 } from '../util/keccak256.js';
import { decodeRlpList, type RlpItem } from './nodeRlp.js';
import { EMPTY_TRIE_ROOT, fromHexPrefix, nibblesOf } from './trieRoot.js';
import { equalsBytes } from '@ethereumjs/util';

/** Stored nodes by key (unprefixed hex of the node's hash), as TrieNodeDB.stored reads them. */
export type StoredNodes = (key: string) => Uint8Array | undefined;

/** A node the trie refers to is not stored: a bug, or a state freed under the reader. */
export class MissingTrieNode extends Error {
  constructor(key: string) {
    super(`trie node ${key} is not stored`);
    this.name = 'MissingTrieNode';
  }
}

/** The value stored under `key` (hashed, as secure tries key it) in the trie of `root`; undefined if absent. */
export function trieGet(stored: StoredNodes, root: Uint8Array, key: Uint8Array): Uint8Array | undefined {
  if (equalsBytes(root, EMPTY_TRIE_ROOT)) return undefined;
  const path = nibblesOf(keccak256(key));
  let node: RlpItem = root;
  let at = 0;
  for (;;) {
    if (node instanceof Uint8Array) {
      if (node.length === 0) return undefined;
      const hash = bytesToUnprefixedHex(node);
      const encoded = stored(hash);
      if (encoded === undefined) throw new MissingTrieNode(hash);
      node = decodeRlpList(encoded);
    }
    const items: readonly RlpItem[] = node;
    if (items.length === 17) {
      if (at === path.length) return undefined; // secure tries keep no values in branches
      node = items[path[at++]!]!;
      continue;
    }
    const { path: part, leaf } = fromHexPrefix(items[0] as Uint8Array);
    if (at + part.length > path.length) return undefined;
    for (let i = 0; i < part.length; i++) if (part[i] !== path[at + i]) return undefined;
    at += part.length;
    if (leaf) return at === path.length ? (items[1] as Uint8Array) : undefined;
    node = items[1]!;
  }
}

/** The bytes of an RLP-encoded byte string (a storage trie's value). */
export function rlpBytes(encoded: Uint8Array): Uint8Array {
  const first = encoded[0]!;
  if (first < 0x80) return encoded.subarray(0, 1);
  if (first <= 0xb7) return encoded.subarray(1, 1 + first - 0x80);
  const lengthBytes = first - 0xb7;
  let length = 0;
  for (let i = 1; i <= lengthBytes; i++) length = length * 256 + encoded[i]!;
  return encoded.subarray(1 + lengthBytes, 1 + lengthBytes + length);
}
