import type { BlobSidecar } from './blobSidecar.js';
import { toHex } from '../util/hex.js';

/**
 * The blobs of blob transactions that came in their network form, for Anvil's
 * anvil_getBlobsByTransactionHash / anvil_getBlobByHash. Blocks hold the canonical
 * transaction only (as on a real chain), so the sidecar lives here, by transaction hash.
 *
 * Answers follow the chain: a sidecar is served only while its transaction is in a block of
 * the chain (Anvil serves mined transactions only), so a snapshot revert, rollback or reset
 * that removes the block hides its blobs at once, and a replay that brings the block back
 * shows them again.
 *
 * Memory bound: a sidecar is kept while its transaction is pooled or in the chain (at most
 * 6 blobs of 128 KiB per transaction at Osaka). The others (reverted, replaced, dropped) are
 * released whenever a new sidecar arrives, and all of them on reset.
 */
export class BlobStore {
  private readonly byTx = new Map<string, BlobSidecar>();

  /** Keep a new sidecar, first releasing those whose transaction `live` no longer knows. */
  keep(txHashHex: string, sidecar: BlobSidecar, live: (txHashHex: string) => boolean): void {
    for (const hash of this.byTx.keys()) if (!live(hash)) this.byTx.delete(hash);
    this.byTx.set(txHashHex, sidecar);
  }

  /** The blobs of a transaction `mined` says is in the chain; undefined when unknown, not mined or without sidecar. */
  blobsOf(txHashHex: string, mined: (txHashHex: string) => boolean): readonly Uint8Array[] | undefined {
    const sidecar = this.byTx.get(txHashHex);
    return sidecar !== undefined && mined(txHashHex) ? sidecar.blobs : undefined;
  }

  /** The blob whose commitment has this versioned hash, among mined transactions. */
  blobByVersionedHash(versionedHash: Uint8Array, mined: (txHashHex: string) => boolean): Uint8Array | undefined {
    const wanted = toHex(versionedHash);
    for (const [txHash, sidecar] of this.byTx) {
      const index = sidecar.versionedHashes.findIndex((hash) => toHex(hash) === wanted);
      if (index !== -1 && mined(txHash)) return sidecar.blobs[index];
    }
    return undefined;
  }

  /** How many sidecars are held (tests check the memory bound). */
  get size(): number {
    return this.byTx.size;
  }

  clear(): void {
    this.byTx.clear();
  }
}
