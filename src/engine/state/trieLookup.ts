/**
 * Reading keys of a stored trie directly from the node database, synchronously: the path of
 * the key's hash is followed node by node, decoded as views (nodeRlp.ts). @ethereumjs/mpt's
 * `get` builds a trie object per storage trie, a promise per node and a node object per step;
 * reading a whole state for a save through it took about 0.45 ms per account of four slots
 * (0.09 ms this way, with the top levels decoded once per trie: TrieReader). Used by whole-state readings (stateReading.ts) only; the VM keeps the
 * library's trie.
 */
import { bytesToUnprefixedHex, equalsBytes } from '@ethereumjs/util';
import { keccak256 } from '../util/keccak256.js';
import { decodeRlpList, type RlpItem } from './nodeRlp.js';
import { EMPTY_TRIE_ROOT, fromHexPrefix, nibblesOf } from './trieRoot.js';

/** Stored nodes by key (unprefixed hex of the node's hash), as TrieNodeDB.stored reads them. */
export type StoredNodes = (key: string) => Uint8Array | undefined;

/** A node the trie refers to is not stored: a bug, or a state freed under the reader. */
export class MissingTrieNode extends Error {
  constructor(key: string) {
    super(`trie node ${key} is not stored`);
    this.name = 'MissingTrieNode';
  }
}

/** Decoded nodes kept per reader: the top levels, which every lookup passes (1 + 16 + 256 nodes). */
const CACHED_DEPTH = 3;

/**
 * Lookups in the trie of one root. The nodes of its top levels are decoded once and kept (by
 * the view their parent's decoding made of their hash), so a lookup decodes and fetches only
 * the nodes below them: reading 90,000 slots went from 17 to 9 µs a slot.
 */
export class TrieReader {
  private readonly top: readonly RlpItem[] | undefined;
  private readonly decoded = new WeakMap<Uint8Array, readonly RlpItem[]>();

  constructor(
    private readonly stored: StoredNodes,
    root: Uint8Array,
  ) {
    this.top = equalsBytes(root, EMPTY_TRIE_ROOT) ? undefined : this.fetch(root);
  }

  private fetch(reference: Uint8Array): readonly RlpItem[] {
    const hash = bytesToUnprefixedHex(reference);
    const encoded = this.stored(hash);
    if (encoded === undefined) throw new MissingTrieNode(hash);
    return decodeRlpList(encoded);
  }

  /** The value stored under `key` (hashed, as secure tries key it); undefined if absent. */
  get(key: Uint8Array): Uint8Array | undefined {
    if (!this.top) return undefined;
    const path = nibblesOf(keccak256(key));
    let items: readonly RlpItem[] = this.top;
    let at = 0;
    for (let depth = 1; ; depth++) {
      let child: RlpItem;
      if (items.length === 17) {
        if (at === path.length) return undefined; // secure tries keep no values in branches
        child = items[path[at++]!]!;
      } else {
        const { path: part, leaf } = fromHexPrefix(items[0] as Uint8Array);
        if (at + part.length > path.length) return undefined;
        for (let i = 0; i < part.length; i++) if (part[i] !== path[at + i]) return undefined;
        at += part.length;
        if (leaf) return at === path.length ? (items[1] as Uint8Array) : undefined;
        child = items[1]!;
      }
      if (!(child instanceof Uint8Array)) {
        items = child; // a node under 32 bytes, inside its parent
        continue;
      }
      if (child.length === 0) return undefined;
      if (depth >= CACHED_DEPTH) {
        items = this.fetch(child);
        continue;
      }
      let next = this.decoded.get(child);
      if (!next) this.decoded.set(child, (next = this.fetch(child)));
      items = next;
    }
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
