/**
 * Reads go-ethereum serves today beyond the seed's interface (its recorded execution-apis answers
 * are the reference): eth_getStorageValues, eth_baseFee, eth_getHeaderByNumber / ByHash,
 * eth_getAccount, eth_pendingTransactions, eth_getTransactionBySenderAndNonce.
 */
import { createAddressFromString } from '@ethereumjs/util';
import type { BlockRef } from '../../engine/chain.js';
import { address, arrayOf, blockNumberOrTag, blockRef, hash, storageSlot, uint64 } from '../codec.js';
import { encodeData, encodeQuantity } from '../encode.js';
import { invalidParams } from '../errors.js';
import { formatHeader, formatTransaction } from '../format.js';
import type { Json } from '../json.js';
import { defineMethod, optionalParam, param } from '../method.js';

const LATEST: BlockRef = { tag: 'latest' };

/** eth_getStorageValues' argument: address → slots (at most 1024 slots in all). */
const storageRequest = (value: unknown, path: string): Array<{ address: string; slots: Uint8Array[] }> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidParams(`invalid argument ${path}: expected an object of address → storage slots`);
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) throw invalidParams('empty request');
  const out = entries.map(([who, slots]) => ({
    address: address(who, `${path}.${who.slice(0, 42)}`).toString(),
    slots: arrayOf(storageSlot, 1024)(slots, `${path}.${who.slice(0, 42)}`),
  }));
  if (out.reduce((n, e) => n + e.slots.length, 0) > 1024) throw invalidParams(`invalid argument ${path}: at most 1024 slots in one request`);
  return out;
};

export const gethReadMethods = [
  defineMethod(
    { name: 'chain_getStorageValues', aliases: ['eth_getStorageValues'] },
    [param('requests', storageRequest), optionalParam('block', blockRef)],
    async ({ chain }, requests, ref) => {
      const out: Record<string, Json> = {};
      for (const request of requests) {
        const who = createAddressFromString(request.address);
        const values: string[] = [];
        for (const slot of request.slots) values.push(encodeData(await chain.getStorageAt(who, slot, ref ?? LATEST)));
        out[request.address] = values;
      }
      return out;
    },
  ),
  // The next block's base fee, as go-ethereum answers it; null before London.
  defineMethod({ name: 'chain_baseFee', aliases: ['eth_baseFee'] }, [], ({ chain }) => {
    const fee = chain.nextBaseFee();
    return fee === undefined ? null : encodeQuantity(fee);
  }),
  defineMethod({ name: 'chain_getHeaderByNumber', aliases: ['eth_getHeaderByNumber'] }, [param('block', blockNumberOrTag)], async ({ chain }, ref) => {
    const mined = 'tag' in ref && ref.tag === 'pending' ? await chain.pendingBlock() : chain.find(ref);
    return mined ? formatHeader(mined.block.header, 'tag' in ref && ref.tag === 'pending' ? undefined : mined.hashHex) : null;
  }),
  defineMethod({ name: 'chain_getHeaderByHash', aliases: ['eth_getHeaderByHash'] }, [param('blockHash', hash)], ({ chain }, h) => {
    const mined = chain.find({ hash: h, requireCanonical: false });
    return mined ? formatHeader(mined.block.header, mined.hashHex) : null;
  }),
  // go-ethereum's eth_getAccount: the account's trie fields.
  defineMethod(
    { name: 'chain_getAccount', aliases: ['eth_getAccount'] },
    [param('address', address), param('block', blockRef)],
    async ({ chain }, who, ref) => {
      const proof = await chain.getProof(who, [], ref);
      return { codeHash: proof.codeHash, storageRoot: proof.storageHash, balance: proof.balance, nonce: proof.nonce };
    },
  ),
  // Pool transactions sent by the node's own accounts (go-ethereum's eth_pendingTransactions).
  defineMethod({ name: 'chain_pendingTransactions', aliases: ['eth_pendingTransactions'] }, [], async ({ chain }) => {
    const { pending, queued } = await chain.poolContent();
    return [...pending, ...queued].filter((e) => chain.accounts.privateKeyOf(e.sender) !== undefined).map((e) => formatTransaction(e.tx, e.sender, undefined));
  }),
  defineMethod(
    { name: 'chain_getTransactionBySenderAndNonce', aliases: ['eth_getTransactionBySenderAndNonce'] },
    [param('address', address), param('nonce', uint64)],
    async ({ chain }, who, nonce) => {
      const { pending, queued } = await chain.poolContent();
      const pooled = [...pending, ...queued].find((e) => e.sender.equals(who) && e.tx.nonce === nonce);
      if (pooled) return formatTransaction(pooled.tx, pooled.sender, undefined);
      // Newest first: a simulator's chain is short, and the sender's latest nonces are the ones asked for.
      for (let n = chain.head.number; n > 0n; n--) {
        const mined = chain.find({ number: n })!;
        const index = mined.block.transactions.findIndex((tx, i) => tx.nonce === nonce && mined.senders[i]!.equals(who));
        if (index >= 0) return formatTransaction(mined.block.transactions[index]!, who, { mined, index });
      }
      return null;
    },
  ),
  // EIP routing capabilities: an in-memory chain keeps everything from genesis (no delete strategy).
  defineMethod({ name: 'chain_capabilities', aliases: ['eth_capabilities'] }, [], ({ chain }) => {
    const all = { disabled: false, oldestBlock: '0x0' };
    return {
      head: { number: encodeQuantity(chain.head.number), hash: chain.head.hashHex },
      state: all,
      tx: all,
      logs: all,
      receipts: all,
      blocks: all,
      stateproofs: all,
    };
  }),
];
