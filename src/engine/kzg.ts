import type { KZG } from '@ethereumjs/util';
import { rejected } from './errors.js';

/**
 * chain-sim accepts blob transactions in their canonical (block) form, without the
 * blobs sidecar: the versioned hashes are taken as given, as a dev chain has no
 * blob network to serve. ethereumjs wants a KZG backend on Common before it will
 * decode any type-3 transaction; this one answers every proof request with a clear
 * refusal, so a network-wrapper transaction (blobs, commitments, proofs) is rejected
 * instead of half-verified.
 */
function unsupported(): never {
  throw rejected('blob sidecars are not supported: send the blob transaction without blobs, commitments and proofs');
}

export const sidecarlessKzg: KZG = {
  blobToKzgCommitment: unsupported,
  computeBlobProof: unsupported,
  verifyProof: unsupported,
  verifyBlobProofBatch: unsupported,
  computeCells: unsupported,
  computeCellsAndProofs: unsupported,
  recoverCellsAndProofs: unsupported,
  verifyCellKzgProofBatch: unsupported,
};
