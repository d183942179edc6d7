/**
 * State setters: an account's balance, code, nonce and storage set without a transaction (with
 * Hardhat's, Anvil's and Ganache's names), Anvil's anvil_addBalance, and Tenderly's balance faucet
 * (tenderly_setBalance, tenderly_addBalance; Tenderly's Admin RPC reference).
 */
import type { Address } from '@ethereumjs/util';
import { address, arrayOf, data, fail, storageSlot, storageValue, uint256, uint64 } from '../../codec.js';
import { encodeData } from '../../encode.js';
import { invalidParams } from '../../errors.js';
import { defineMethod, param } from '../../method.js';

/** Tenderly takes one address or a list. */
const addresses = (value: unknown, path: string): Address[] => {
  const list = Array.isArray(value) ? arrayOf(address)(value, path) : [address(value, path)];
  if (list.length === 0) fail(path, 'expected at least one address');
  return list;
};

export const setterMethods = [
  defineMethod(
    { name: 'chain_setBalance', aliases: ['hardhat_setBalance', 'anvil_setBalance', 'evm_setAccountBalance'] },
    [param('address', address), param('balance', uint256)],
    async ({ chain }, who, balance) => {
      await chain.modifyAccount(who, { balance });
      return true;
    },
  ),
  defineMethod(
    { name: 'chain_setCode', aliases: ['hardhat_setCode', 'anvil_setCode', 'evm_setAccountCode'] },
    [param('address', address), param('code', data)],
    async ({ chain }, who, code) => {
      await chain.modifyAccount(who, { code });
      return true;
    },
  ),
  defineMethod(
    { name: 'chain_setNonce', aliases: ['anvil_setNonce', 'evm_setAccountNonce'] },
    [param('address', address), param('nonce', uint64)],
    async ({ chain }, who, nonce) => {
      await chain.modifyAccount(who, { nonce });
      return true;
    },
  ),
  // Hardhat refuses to lower a nonce or to change one while the pool holds transactions; Anvil and Ganache do neither.
  defineMethod('hardhat_setNonce', [param('address', address), param('nonce', uint64)], async ({ chain }, who, nonce) => {
    await chain.raiseNonce(who, nonce);
    return true;
  }),
  defineMethod(
    { name: 'chain_setStorageAt', aliases: ['hardhat_setStorageAt', 'anvil_setStorageAt', 'evm_setAccountStorageAt'] },
    [param('address', address), param('position', storageSlot), param('value', storageValue)],
    async ({ chain }, who, slot, value) => {
      await chain.setStorageAt(who, slot, value);
      return true;
    },
  ),
  defineMethod('anvil_addBalance', [param('address', address), param('amount', uint256)], async ({ chain }, who, amount) => {
    const balance = await chain.getBalance(who, { tag: 'latest' });
    if (balance + amount >= 2n ** 256n) throw invalidParams('invalid argument 1 (amount): the balance would exceed 2^256-1');
    await chain.modifyAccount(who, { balance: balance + amount });
    return null;
  }),
  // Tenderly answers a 32-byte hash; chain-sim changes state without a transaction and answers the new state root.
  ...(['tenderly_setBalance', 'tenderly_addBalance'] as const).map((name) =>
    defineMethod(name, [param('addresses', addresses), param('amount', uint256)], async ({ chain }, who, amount) =>
      encodeData(await chain.changeBalances(who, amount, name === 'tenderly_addBalance')),
    ),
  ),
];
