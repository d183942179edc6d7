/**
 * Merkle-Patricia trie roots computed in one pass over sorted keys, without a trie
 * database: what a block's transaction and receipt tries need (go-ethereum's DeriveSha).
 * @ethereumjs/vm builds each of them as a full trie, node by node through a database,
 * rehashing the path at every insert: about a tenth of mining a one-transaction block.
 * Every node is hashed once here; the roots are the same (test/engine/trieRoot.test.ts
 * checks them against @ethereumjs/mpt).
 */
import { type Input, RLP } from '@ethereumjs/rlp';
import { keccak256 } from './keccak256.js';

export interface TrieEntry {
  /** The key as nibbles (half-bytes). */
  readonly path: Uint8Array;
  /** Non-empty (an empty value means "absent" in a trie). */
  readonly value: Uint8Array;
}

const EMPTY = new Uint8Array(0);
/** keccak256(rlp("")): the root of an empty trie. */
const EMPTY_TRIE_ROOT = keccak256(RLP.encode(EMPTY));

/** The root of the trie holding `values[i]` under key rlp(i). */
export function orderedTrieRoot(values: readonly Uint8Array[]): Uint8Array {
  return trieRoot(values.map((value, i) => ({ path: nibblesOf(RLP.encode(i)), value })));
}

/** The root of the trie holding `entries` (distinct keys). */
export function trieRoot(entries: readonly TrieEntry[]): Uint8Array {
  if (entries.length === 0) return EMPTY_TRIE_ROOT;
  const sorted = [...entries].sort((a, b) => compareNibbles(a.path, b.path));
  return keccak256(nodeOf(sorted, 0, sorted.length, 0).encoded);
}

export function nibblesOf(bytes: Uint8Array): Uint8Array {
  const nibbles = new Uint8Array(bytes.length * 2);
  for (let i = 0; i < bytes.length; i++) {
    nibbles[2 * i] = bytes[i]! >> 4;
    nibbles[2 * i + 1] = bytes[i]! & 0x0f;
  }
  return nibbles;
}

interface TrieNode {
  readonly raw: Input;
  readonly encoded: Uint8Array;
}

function node(raw: Input): TrieNode {
  return { raw, encoded: RLP.encode(raw) };
}

/** How a parent refers to a child: inline when its encoding is shorter than a hash. */
function reference(child: TrieNode): Input {
  return child.encoded.length < 32 ? child.raw : keccak256(child.encoded);
}

/** The node for sorted entries [from, to), which agree on their first `depth` nibbles. */
function nodeOf(entries: readonly TrieEntry[], from: number, to: number, depth: number): TrieNode {
  if (to - from === 1) {
    const only = entries[from]!;
    return node([hexPrefix(only.path.subarray(depth), true), only.value]);
  }
  // Sorted keys: what the first and the last share, all share.
  const first = entries[from]!.path;
  const last = entries[to - 1]!.path;
  let shared = 0;
  while (depth + shared < first.length && first[depth + shared] === last[depth + shared]) shared++;
  if (shared > 0) {
    return node([hexPrefix(first.subarray(depth, depth + shared), false), reference(nodeOf(entries, from, to, depth + shared))]);
  }
  const branch: Input[] = new Array<Input>(17).fill(EMPTY);
  let at = from;
  // A key that ends here sorts first; its value is the branch's own.
  if (entries[at]!.path.length === depth) branch[16] = entries[at++]!.value;
  while (at < to) {
    const nibble = entries[at]!.path[depth]!;
    let end = at + 1;
    while (end < to && entries[end]!.path[depth] === nibble) end++;
    branch[nibble] = reference(nodeOf(entries, at, end, depth + 1));
    at = end;
  }
  return node(branch);
}

/** The yellow paper's hex-prefix encoding of a leaf's or extension's key nibbles. */
function hexPrefix(nibbles: Uint8Array, leaf: boolean): Uint8Array {
  const odd = nibbles.length % 2;
  const out = new Uint8Array(1 + (nibbles.length >> 1));
  out[0] = ((leaf ? 2 : 0) + odd) << 4;
  let at = 0;
  if (odd) out[0] |= nibbles[at++]!;
  for (let i = 1; i < out.length; i++, at += 2) out[i] = (nibbles[at]! << 4) | nibbles[at + 1]!;
  return out;
}

function compareNibbles(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
