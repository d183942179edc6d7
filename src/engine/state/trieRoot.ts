/**
 * Merkle-Patricia trie nodes, built and encoded without @ethereumjs/mpt's node-by-node
 * database walk. Used for the roots a block commits to (its transaction and receipt
 * tries: go-ethereum's DeriveSha) and by trieUpdate.ts for the state tries. The library
 * rehashes the whole path at every insert; here every node is hashed once. The roots are
 * the same (test/engine/trieRoot.test.ts and trieUpdate.test.ts check them against
 * @ethereumjs/mpt).
 */
import { RLP } from '@ethereumjs/rlp';
import { keccak256 } from '../util/keccak256.js';
import { type RlpItem, type RlpList, encodeRlp } from './nodeRlp.js';

export interface TrieEntry {
  /** The key as nibbles (half-bytes). */
  readonly path: Uint8Array;
  /** Non-empty (an empty value means "absent" in a trie). */
  readonly value: Uint8Array;
}

export interface LeafNode {
  readonly kind: 'leaf';
  readonly path: Uint8Array;
  readonly value: Uint8Array;
}

export interface ExtensionNode {
  readonly kind: 'extension';
  readonly path: Uint8Array;
  readonly child: TrieChild;
}

export interface BranchNode {
  readonly kind: 'branch';
  /** Sixteen slots, one per nibble. */
  readonly children: ReadonlyArray<TrieChild | undefined>;
  /** The value of a key that ends at this branch (empty: none). */
  readonly value: Uint8Array;
}

export type TrieNode = LeafNode | ExtensionNode | BranchNode;

/** A child left as its parent stored it: the child's hash, or the raw list of a node under 32 bytes. */
export class StoredChild {
  constructor(readonly reference: Uint8Array | RlpList) {}
}

export type TrieChild = TrieNode | StoredChild;

/** Nodes to store, by hash (those of 32 bytes and more; shorter ones live inside their parent). */
export type NodeWrites = Array<readonly [hash: Uint8Array, encoded: Uint8Array]>;

export const EMPTY_BYTES = new Uint8Array(0);
/** keccak256(rlp("")): the root of an empty trie. */
export const EMPTY_TRIE_ROOT = keccak256(encodeRlp(EMPTY_BYTES));

/** The root of the trie holding `values[i]` under key rlp(i). */
export function orderedTrieRoot(values: readonly Uint8Array[]): Uint8Array {
  return trieRoot(values.map((value, i) => ({ path: nibblesOf(RLP.encode(i)), value })));
}

/** The root of the trie holding `entries` (distinct keys). */
export function trieRoot(entries: readonly TrieEntry[]): Uint8Array {
  if (entries.length === 0) return EMPTY_TRIE_ROOT;
  const sorted = [...entries].sort((a, b) => compareNibbles(a.path, b.path));
  return keccak256(encodeNode(buildNode(sorted, 0, sorted.length, 0)).encoded);
}

export function nibblesOf(bytes: Uint8Array): Uint8Array {
  const nibbles = new Uint8Array(bytes.length * 2);
  for (let i = 0; i < bytes.length; i++) {
    nibbles[2 * i] = bytes[i]! >> 4;
    nibbles[2 * i + 1] = bytes[i]! & 0x0f;
  }
  return nibbles;
}

/** The node for sorted entries [from, to) (at least one), which agree on their first `depth` nibbles. */
export function buildNode(entries: readonly TrieEntry[], from: number, to: number, depth: number): TrieNode {
  if (to - from === 1) {
    const only = entries[from]!;
    return { kind: 'leaf', path: only.path.subarray(depth), value: only.value };
  }
  // Sorted keys: what the first and the last share, all share.
  const first = entries[from]!.path;
  const last = entries[to - 1]!.path;
  let shared = 0;
  while (depth + shared < first.length && first[depth + shared] === last[depth + shared]) shared++;
  if (shared > 0) {
    return { kind: 'extension', path: first.subarray(depth, depth + shared), child: buildNode(entries, from, to, depth + shared) };
  }
  const children = new Array<TrieNode | undefined>(16).fill(undefined);
  let value: Uint8Array = EMPTY_BYTES;
  let at = from;
  // A key that ends here sorts first; its value is the branch's own.
  if (entries[at]!.path.length === depth) value = entries[at++]!.value;
  while (at < to) {
    const nibble = entries[at]!.path[depth]!;
    let end = at + 1;
    while (end < to && entries[end]!.path[depth] === nibble) end++;
    children[nibble] = buildNode(entries, at, end, depth + 1);
    at = end;
  }
  return { kind: 'branch', children, value };
}

/**
 * A node's raw list and its RLP encoding. Children are encoded on the way (stored children
 * as they were); those of 32 bytes and more are referred to by hash and added to `writes`.
 */
export function encodeNode(node: TrieNode, writes?: NodeWrites): { raw: RlpItem[]; encoded: Uint8Array } {
  let raw: RlpItem[];
  switch (node.kind) {
    case 'leaf':
      raw = [hexPrefix(node.path, true), node.value];
      break;
    case 'extension':
      raw = [hexPrefix(node.path, false), reference(node.child, writes)];
      break;
    case 'branch':
      raw = node.children.map((child) => (child === undefined ? EMPTY_BYTES : reference(child, writes)));
      raw.push(node.value);
      break;
  }
  return { raw, encoded: encodeRlp(raw) };
}

/** How a parent refers to a child: inline when its encoding is shorter than a hash. */
function reference(child: TrieChild, writes: NodeWrites | undefined): RlpItem {
  if (child instanceof StoredChild) return child.reference;
  const { raw, encoded } = encodeNode(child, writes);
  if (encoded.length < 32) return raw;
  const hash = keccak256(encoded);
  writes?.push([hash, encoded]);
  return hash;
}

/** The yellow paper's hex-prefix encoding of a leaf's or extension's key nibbles. */
export function hexPrefix(nibbles: Uint8Array, leaf: boolean): Uint8Array {
  const odd = nibbles.length % 2;
  const out = new Uint8Array(1 + (nibbles.length >> 1));
  out[0] = ((leaf ? 2 : 0) + odd) << 4;
  let at = 0;
  if (odd) out[0] |= nibbles[at++]!;
  for (let i = 1; i < out.length; i++, at += 2) out[i] = (nibbles[at]! << 4) | nibbles[at + 1]!;
  return out;
}

/** The nibbles and the leaf flag of a hex-prefix encoded path. */
export function fromHexPrefix(encoded: Uint8Array): { path: Uint8Array; leaf: boolean } {
  const flags = encoded[0]! >> 4;
  const odd = flags & 1;
  const path = new Uint8Array(2 * (encoded.length - 1) + odd);
  let at = 0;
  if (odd) path[at++] = encoded[0]! & 0x0f;
  for (let i = 1; i < encoded.length; i++) {
    path[at++] = encoded[i]! >> 4;
    path[at++] = encoded[i]! & 0x0f;
  }
  return { path, leaf: flags >= 2 };
}

export function compareNibbles(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
