/**
 * Account state at a block: balance, nonce, code, storage (eth_getStorageValues: many slots at
 * once), proofs, go-ethereum's eth_getAccount and Anvil's eth_getAccountInfo.
 */
import { bytesToBigInt, createAddressFromString } from '@ethereumjs/util';
import type { BlockRef } from '../../../engine/chain.js';
import { address, arrayOf, blockRef, storageSlot } from '../../codec.js';
import { encodeData, encodeQuantity } from '../../encode.js';
import { stateAtArgument } from '../../forkForwarding.js';
import { invalidParams } from '../../errors.js';
import type { Json } from '../../json.js';
import { defineMethod, optionalParam, param } from '../../method.js';

const LATEST: BlockRef = { tag: 'latest' };
const at = (ref: BlockRef | undefined) => ref ?? LATEST;

/**
 * A storage key of eth_getProof, and how the answer names it: go-ethereum echoes a 32-byte
 * key as given and writes a shorter one as a QUANTITY.
 */
const proofKey = (value: unknown, path: string): { slot: Uint8Array; label: string } => {
  const slot = storageSlot(value, path);
  const digits = (value as string).slice(2);
  return { slot, label: digits.length === 64 ? encodeData(slot) : encodeQuantity(bytesToBigInt(slot)) };
};

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

export const stateReadMethods = [
  defineMethod(
    { name: 'chain_getBalance', aliases: ['eth_getBalance'], forwardOnFork: stateAtArgument('eth_getBalance', 1) },
    [param('address', address), optionalParam('block', blockRef)],
    async ({ chain }, who, ref) => encodeQuantity(await chain.getBalance(who, at(ref))),
  ),
  defineMethod(
    { name: 'chain_getTransactionCount', aliases: ['eth_getTransactionCount'], forwardOnFork: stateAtArgument('eth_getTransactionCount', 1) },
    [param('address', address), optionalParam('block', blockRef)],
    async ({ chain }, who, ref) => encodeQuantity(await chain.getTransactionCount(who, at(ref))),
  ),
  defineMethod(
    { name: 'chain_getCode', aliases: ['eth_getCode'], forwardOnFork: stateAtArgument('eth_getCode', 1) },
    [param('address', address), optionalParam('block', blockRef)],
    async ({ chain }, who, ref) => encodeData(await chain.getCode(who, at(ref))),
  ),
  defineMethod(
    { name: 'chain_getStorageAt', aliases: ['eth_getStorageAt'], forwardOnFork: stateAtArgument('eth_getStorageAt', 2) },
    [param('address', address), param('position', storageSlot), optionalParam('block', blockRef)],
    async ({ chain }, who, slot, ref) => encodeData(await chain.getStorageAt(who, slot, at(ref))),
  ),

  defineMethod(
    { name: 'chain_getProof', aliases: ['eth_getProof'], forwardOnFork: stateAtArgument('eth_getProof', 2) },
    [param('address', address), param('storageKeys', arrayOf(proofKey, 1000)), optionalParam('block', blockRef)],
    async ({ chain }, who, keys, ref) => {
      const proof = await chain.getProof(
        who,
        keys.map((key) => key.slot),
        at(ref),
      );
      // ethereumjs lists no storage for an account that does not exist: go-ethereum gives each key an empty proof.
      return {
        ...proof,
        storageProof: keys.map((key, i) => {
          const item = proof.storageProof[i];
          return { key: key.label, value: encodeQuantity(BigInt(item?.value ?? 0)), proof: item?.proof ?? [] };
        }),
      };
    },
  ),
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
  // go-ethereum's eth_getAccount: the account's trie fields.
  defineMethod(
    { name: 'chain_getAccount', aliases: ['eth_getAccount'] },
    [param('address', address), param('block', blockRef)],
    async ({ chain }, who, ref) => {
      const proof = await chain.getProof(who, [], ref);
      return { codeHash: proof.codeHash, storageRoot: proof.storageHash, balance: proof.balance, nonce: proof.nonce };
    },
  ),
  // Anvil's eth_getAccountInfo (the eth_ twin): balance, nonce and code together, read at one block.
  defineMethod(
    {
      name: 'chain_getAccountInfo',
      aliases: ['eth_getAccountInfo'],
      // Before the pinned block, the upstream's, asked field by field as Anvil asks (upstreams need not serve eth_getAccountInfo).
      forwardOnFork: stateAtArgument(async (ask, [who, block]) => {
        const [balance, nonce, code] = await Promise.all(
          ['eth_getBalance', 'eth_getTransactionCount', 'eth_getCode'].map((method) => ask(method, [who, block])),
        );
        return { balance, nonce, code };
      }, 1),
    },
    [param('address', address), optionalParam('block', blockRef)],
    async ({ chain }, who, ref) => {
      const given = ref ?? LATEST;
      // A tag is pinned to its block first, so the three reads see one state even if a block lands between them.
      const mined = 'tag' in given && given.tag === 'pending' ? undefined : chain.find(given);
      const at: BlockRef = mined ? { hash: mined.hashHex } : given;
      const balance = await chain.getBalance(who, at);
      const nonce = await chain.getTransactionCount(who, at);
      const code = await chain.getCode(who, at);
      return { balance: encodeQuantity(balance), nonce: encodeQuantity(nonce), code: encodeData(code) };
    },
  ),
];
