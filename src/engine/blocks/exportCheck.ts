/**
 * What a chain file cannot carry. A `geth export` file holds blocks only, and `--import` runs
 * them on the genesis state: state changed by test controls (chain_setBalance, setCode, setNonce,
 * setStorageAt, loadState) outside any block, and transactions sent as impersonated accounts
 * (their placeholder signatures recover to nobody), make the import fail with a state root or
 * sender mismatch. `chain-sim export` asks for this list and says so when writing the file.
 */
import { bytesToBigInt, bytesToHex } from '@ethereumjs/util';
import type { BlockStore } from './blocks.js';

export interface UnexplainedState {
  /** Blocks whose transactions ran on a state their parent's root does not hold (test controls in between). */
  readonly blocks: readonly bigint[];
  /** Hashes of transactions sent by impersonated accounts. */
  readonly impersonated: readonly string[];
  /** The live state differs from the head block's: changes made after the last block. */
  readonly afterHead: boolean;
}

/** Blocks first..last checked; `liveRoot` is the state root the chain holds now. */
export function findUnexplainedState(store: BlockStore, first: bigint, last: bigint, liveRoot: Uint8Array): UnexplainedState {
  const blocks: bigint[] = [];
  const impersonated: string[] = [];
  for (let n = first < 1n ? 1n : first; n <= last; n++) {
    const mined = store.byNumber(n);
    const parent = store.byNumber(n - 1n);
    if (!mined || !parent) continue;
    if (mined.preStateRoot && bytesToHex(mined.preStateRoot) !== bytesToHex(parent.block.header.stateRoot)) blocks.push(n);
    mined.block.transactions.forEach((tx, i) => {
      // impersonation.ts's placeholder: r is the sender's address, s is 1 (no real signature has s = 1).
      if (tx.s === 1n && tx.r === bytesToBigInt(mined.senders[i]!.bytes)) impersonated.push(bytesToHex(tx.hash()));
    });
  }
  const head = store.head.block.header.stateRoot;
  return { blocks, impersonated, afterHead: last >= store.headNumber && bytesToHex(liveRoot) !== bytesToHex(head) };
}
