/**
 * Anvil's blob getters. Blocks hold blob transactions in their canonical form; the blobs of
 * those sent in their network form (eth_sendRawTransaction) are kept beside the chain
 * (engine/transactions/blobStore.ts) while their block is in it. As Anvil: mined transactions only, and
 * null for an unknown hash, a pending transaction or one sent without its blobs.
 */
import { hash } from '../codec.js';
import { encodeData } from '../encode.js';
import { defineMethod, param } from '../method.js';

export const blobMethods = [
  // anvil_getBlobsByTransactionHash(txHash): the transaction's blobs in order, or null.
  defineMethod('anvil_getBlobsByTransactionHash', [param('transactionHash', hash)], ({ chain }, txHash) => {
    const blobs = chain.blobsOf(txHash);
    return blobs === undefined ? null : blobs.map(encodeData);
  }),
  // anvil_getBlobByHash(versionedHash): the blob whose commitment hashes to it, or null.
  defineMethod('anvil_getBlobByHash', [param('versionedHash', hash)], ({ chain }, versionedHash) => {
    const blob = chain.blobByVersionedHash(Buffer.from(versionedHash.slice(2), 'hex'));
    return blob === undefined ? null : encodeData(blob);
  }),
];
