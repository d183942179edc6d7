/**
 * Anvil's anvil_dealERC20 (alias anvil_setERC20Balance) and anvil_setERC20Allowance: find the
 * storage slot that holds a token's balanceOf(holder) / allowance(owner, spender) by trial, as
 * Anvil does: each slot the call reads (eth_createAccessList) is set to the wanted value in
 * turn, and the slot whose change the call answers keeps it; every other slot is put back.
 */
import { bigIntToBytes, bytesToBigInt, setLengthLeft } from '@ethereumjs/util';
import type { Address } from '@ethereumjs/util';
import type { Chain } from '../../engine/index.js';
import { address, uint256 } from '../codec.js';
import { serverError } from '../errors.js';
import { defineMethod, param } from '../method.js';

const word = (value: bigint) => setLengthLeft(bigIntToBytes(value), 32);
const abiAddress = (who: Address) => setLengthLeft(who.bytes, 32);

async function setBySlotSearch(chain: Chain, token: Address, calldata: Uint8Array, value: bigint, what: string): Promise<void> {
  const request = { to: token, data: calldata };
  const { accessList } = await chain.createAccessList(request, { tag: 'latest' });
  const slots = accessList.filter((item) => item.address.toLowerCase() === token.toString().toLowerCase()).flatMap((item) => item.storageKeys);
  for (const key of slots) {
    const slot = Buffer.from(key.slice(2), 'hex');
    const before = await chain.getStorageAt(token, slot, { tag: 'latest' });
    await chain.setStorageAt(token, slot, word(value));
    let answer: bigint | undefined;
    try {
      const out = await chain.call(request, { tag: 'latest' });
      answer = out.length === 32 ? bytesToBigInt(out) : undefined;
    } catch {
      answer = undefined;
    }
    if (answer === value) return;
    await chain.setStorageAt(token, slot, before);
  }
  throw serverError(`Unable to set ERC20 ${what}, no slot found`);
}

const BALANCE_OF = Buffer.from('70a08231', 'hex');
const ALLOWANCE = Buffer.from('dd62ed3e', 'hex');

export const erc20Methods = [
  defineMethod(
    { name: 'anvil_dealERC20', aliases: ['anvil_setERC20Balance'] },
    [param('address', address), param('token', address), param('balance', uint256)],
    async ({ chain }, holder, token, balance) => {
      await setBySlotSearch(chain, token, Buffer.concat([BALANCE_OF, abiAddress(holder)]), balance, 'balance');
      return null;
    },
  ),
  defineMethod(
    'anvil_setERC20Allowance',
    [param('owner', address), param('spender', address), param('token', address), param('amount', uint256)],
    async ({ chain }, owner, spender, token, amount) => {
      await setBySlotSearch(chain, token, Buffer.concat([ALLOWANCE, abiAddress(owner), abiAddress(spender)]), amount, 'allowance');
      return null;
    },
  ),
];
