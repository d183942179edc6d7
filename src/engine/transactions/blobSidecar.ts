import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import type { TypedTransaction } from '@ethereumjs/tx';
import { sha256 } from '@noble/hashes/sha2.js';
import { EngineError, rejected } from '../util/errors.js';
import { toHex } from '../util/hex.js';
import { lazyKzg } from './kzg.js';
import { decodeRawTransaction } from './validation.js';

/** EIP-4844 sizes: a blob is 4096 field elements of 32 bytes; commitments and proofs are G1 points. */
export const BYTES_PER_BLOB = 131072;
const BYTES_PER_POINT = 48;
/** EIP-7594: a blob extends to 128 cells, each with its own proof. */
export const CELLS_PER_BLOB = 128;
const VERSIONED_HASH_VERSION_KZG = 0x01;

/** The blobs a network-form blob transaction carried, checked against its versioned hashes. */
export interface BlobSidecar {
  /** 0: EIP-4844 wrapper, one blob proof per blob; 1: EIP-7594 wrapper, 128 cell proofs per blob. */
  readonly version: 0 | 1;
  readonly blobs: readonly Uint8Array[];
  readonly commitments: readonly Uint8Array[];
  readonly proofs: readonly Uint8Array[];
  /** The transaction's blobVersionedHashes, in the order of `blobs`. */
  readonly versionedHashes: readonly Uint8Array[];
}

export interface DecodedSubmission {
  readonly tx: TypedTransaction;
  readonly sidecar: BlobSidecar | undefined;
}

/**
 * Decode a signed transaction as eth_sendRawTransaction receives it. A type-3 transaction
 * may come in its network form, `0x03 || rlp([tx, blobs, commitments, proofs])` (EIP-4844)
 * or `0x03 || rlp([tx, 1, blobs, commitments, cell_proofs])` (EIP-7594): the sidecar is
 * checked as go-ethereum's pool checks it, in its order and words, and the transaction
 * continues in its canonical form (what blocks hold and what its hash covers).
 * Anything else, including a canonical (sidecar-less) blob transaction, decodes as before.
 */
export function decodeSubmission(raw: Uint8Array, common: Common): DecodedSubmission {
  const wrapper = raw[0] === 0x03 ? networkWrapper(raw) : undefined;
  if (wrapper === undefined) return { tx: decodeRawTransaction(raw, common), sidecar: undefined };
  const tx = decodeRawTransaction(Uint8Array.from([0x03, ...RLP.encode(wrapper.txFields)]), common);
  const sidecar = { ...wrapper.sidecar, versionedHashes: (tx as TypedTransaction & { blobVersionedHashes: string[] }).blobVersionedHashes.map(fromHex) };
  validateSidecar(sidecar, common);
  return { tx, sidecar };
}

type RlpItem = Uint8Array | RlpItem[];

/** The wrapper's parts, or undefined when the payload is a canonical transaction (its first item is not a list). */
function networkWrapper(raw: Uint8Array): { txFields: RlpItem[]; sidecar: Omit<BlobSidecar, 'versionedHashes'> } | undefined {
  let items: RlpItem;
  try {
    items = RLP.decode(raw.subarray(1)) as RlpItem;
  } catch {
    return undefined; // the canonical decoder reports the malformed encoding
  }
  if (!Array.isArray(items) || !Array.isArray(items[0])) return undefined;
  let version: 0 | 1;
  let parts: RlpItem[];
  if (items.length === 4) {
    version = 0;
    parts = items.slice(1);
  } else if (items.length === 5) {
    const versionByte = items[1];
    if (!(versionByte instanceof Uint8Array) || versionByte.length !== 1 || versionByte[0] !== 1) {
      throw invalid(
        `unsupported blob sidecar version ${versionByte instanceof Uint8Array ? toHex(versionByte) : '(a list)'}: expected 0x01 (EIP-7594 cell proofs)`,
      );
    }
    version = 1;
    parts = items.slice(2);
  } else {
    throw invalid(`blob transaction network wrapper has ${items.length} items, expected 4 (EIP-4844) or 5 (EIP-7594)`);
  }
  const [blobs, commitments, proofs] = [
    byteList(parts[0]!, 'blobs', BYTES_PER_BLOB),
    byteList(parts[1]!, 'commitments', BYTES_PER_POINT),
    byteList(parts[2]!, 'proofs', BYTES_PER_POINT),
  ];
  return { txFields: items[0] as RlpItem[], sidecar: { version, blobs, commitments, proofs } };
}

function byteList(item: RlpItem, name: string, size: number): Uint8Array[] {
  if (!Array.isArray(item)) throw invalid(`blob sidecar ${name} must be a list`);
  return item.map((entry, index) => {
    if (!(entry instanceof Uint8Array) || entry.length !== size) {
      const got = entry instanceof Uint8Array ? `${entry.length} bytes` : 'a list';
      throw invalid(`blob sidecar ${name}[${index}] must be ${size} bytes, got ${got}`);
    }
    return entry;
  });
}

function invalid(message: string): EngineError {
  return new EngineError('invalidInput', `invalid transaction: ${message}`);
}

/** go-ethereum's blob sidecar checks (core/txpool/validation.go), cheapest first, KZG last. */
function validateSidecar(sidecar: BlobSidecar, common: Common): void {
  const { blobs, commitments, proofs, versionedHashes: hashes } = sidecar;
  // go-ethereum's pool takes the EIP-7594 wrapper from Osaka on and the EIP-4844 one before it;
  // from Osaka its eth_sendRawTransaction still takes an EIP-4844 wrapper (converting it to
  // cell proofs), so that one is verified with its blob proofs here.
  const osaka = common.isActivatedEIP(7594);
  if (sidecar.version === 1 && !osaka) throw rejected('unexpected sidecar version, want: 0, got: 1');
  if (hashes.length === 0) throw rejected('blobless blob transaction');
  if (blobs.length !== hashes.length) throw rejected(`invalid number of ${blobs.length} blobs compared to ${hashes.length} blob hashes`);
  if (commitments.length !== hashes.length) {
    throw rejected(`invalid number of ${commitments.length} blob commitments compared to ${hashes.length} blob hashes`);
  }
  for (const [index, commitment] of commitments.entries()) {
    const computed = versionedHash(commitment);
    if (toHex(computed) !== toHex(hashes[index]!)) {
      throw rejected(`blob ${index}: computed hash ${toHex(computed)} mismatches transaction one ${toHex(hashes[index]!)}`);
    }
  }
  const expected = sidecar.version === 1 ? hashes.length * CELLS_PER_BLOB : hashes.length;
  if (proofs.length !== expected) throw rejected(`invalid number of ${proofs.length} blob proofs expected ${expected}`);
  const failed = sidecar.version === 1 ? failingCellProofBlob(sidecar) : failingBlobProof(sidecar);
  if (failed !== undefined) {
    throw rejected(`KZG verification error: invalid ${sidecar.version === 1 ? 'cell proofs' : 'blob proof'} for blob ${failed}`);
  }
}

/** EIP-4844: kzg_to_versioned_hash. */
export function versionedHash(commitment: Uint8Array): Uint8Array {
  const hash = sha256(commitment);
  hash[0] = VERSIONED_HASH_VERSION_KZG;
  return hash;
}

/** Index of a blob whose proof fails, undefined when all verify. One batch check; per blob only to name a failure. */
function failingBlobProof({ blobs, commitments, proofs }: BlobSidecar): number | undefined {
  const hex = (list: readonly Uint8Array[]) => list.map(toHex);
  if (verifies(() => lazyKzg.verifyBlobProofBatch(hex(blobs), hex(commitments), hex(proofs)))) return undefined;
  if (blobs.length === 1) return 0;
  const index = blobs.findIndex((blob, i) => !verifies(() => lazyKzg.verifyBlobProofBatch([toHex(blob)], [toHex(commitments[i]!)], [toHex(proofs[i]!)])));
  return index === -1 ? 0 : index;
}

/** As failingBlobProof, for EIP-7594 cell proofs: every cell of every blob against its proof, in one batch. */
function failingCellProofBlob({ blobs, commitments, proofs }: BlobSidecar): number | undefined {
  const cellsOf = blobs.map((blob) => lazyKzg.computeCells(toHex(blob)).slice(0, CELLS_PER_BLOB));
  const check = (which: number[]) =>
    verifies(() =>
      lazyKzg.verifyCellKzgProofBatch(
        which.flatMap((b) => Array<string>(CELLS_PER_BLOB).fill(toHex(commitments[b]!))),
        which.flatMap(() => Array.from({ length: CELLS_PER_BLOB }, (_, cell) => cell)),
        which.flatMap((b) => cellsOf[b]!),
        which.flatMap((b) => proofs.slice(b * CELLS_PER_BLOB, (b + 1) * CELLS_PER_BLOB).map(toHex)),
      ),
    );
  const all = blobs.map((_, i) => i);
  if (check(all)) return undefined;
  if (blobs.length === 1) return 0;
  const index = all.find((b) => !check([b]));
  return index ?? 0;
}

/** A malformed point (not on the curve, not canonical) is a failed proof, not a crash. */
function verifies(run: () => boolean): boolean {
  try {
    return run();
  } catch {
    return false;
  }
}

function fromHex(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));
}
