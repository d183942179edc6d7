/**
 * Which accounts the node sends from: impersonation (with Hardhat's and Anvil's names, and
 * chain_impersonatedAccounts, the list of them), Anvil's
 * anvil_impersonateSignature, and Ganache's evm_addAccount / evm_removeAccount.
 */
import type { Address } from '@ethereumjs/util';
import { address, boolean, fail, fixedData, string } from '../../codec.js';
import { defineMethod, optionalParam, param } from '../../method.js';

/** A 65-byte signature (r, s, v), or Anvil's [signature, address] pair. */
const signatureOrPair = (value: unknown, path: string): [Uint8Array, Address | undefined] => {
  if (!Array.isArray(value)) return [fixedData(65)(value, path), undefined];
  if (value.length !== 2) fail(path, 'expected a signature, or a pair [signature, address]');
  return [fixedData(65)(value[0], `${path}[0]`), address(value[1], `${path}[1]`)];
};

export const accountMethods = [
  defineMethod(
    { name: 'chain_impersonateAccount', aliases: ['hardhat_impersonateAccount', 'anvil_impersonateAccount'] },
    [param('address', address)],
    async ({ chain }, who) => {
      await chain.impersonate(who);
      return true;
    },
  ),
  defineMethod(
    { name: 'chain_stopImpersonatingAccount', aliases: ['hardhat_stopImpersonatingAccount', 'anvil_stopImpersonatingAccount'] },
    [param('address', address)],
    async ({ chain }, who) => {
      await chain.stopImpersonating(who);
      return true;
    },
  ),
  // No tool lists them (Hardhat, Anvil and Ganache keep the set to themselves); the explorer page does.
  defineMethod('chain_impersonatedAccounts', [], ({ chain }) => chain.accounts.impersonatedAddresses().map((who) => who.toString())),
  defineMethod({ name: 'chain_autoImpersonateAccount', aliases: ['anvil_autoImpersonateAccount'] }, [param('enabled', boolean)], async ({ chain }, enabled) => {
    await chain.configure({ impersonateAll: enabled });
    return true;
  }),
  // Anvil reads its params as one pair, [[signature, address]]; [signature, address] is taken too.
  defineMethod(
    'anvil_impersonateSignature',
    [param('signature', signatureOrPair), optionalParam('address', address)],
    async ({ chain }, [signature, paired], who) => {
      if ((paired === undefined) === (who === undefined)) fail('1 (address)', paired ? 'given twice: in the pair and as a second argument' : 'missing');
      await chain.impersonateSignature(signature, (paired ?? who)!);
      return null;
    },
  ),
  defineMethod('evm_addAccount', [param('address', address), param('passphrase', string)], ({ chain }, who, passphrase) =>
    chain.addKeylessAccount(who, passphrase),
  ),
  defineMethod('evm_removeAccount', [param('address', address), param('passphrase', string)], ({ chain }, who, passphrase) =>
    chain.removeAccount(who, passphrase),
  ),
];
