/**
 * eth_getAccountInfo: balance, nonce and code in one call. Neither go-ethereum nor the
 * execution-apis spec defines it; Anvil serves it (alloy's AccountInfo), so this is Anvil's shape:
 * { balance, nonce, code }, the block optional (latest).
 */
import { LATEST } from '../../engine/chain.js';
import { address, blockRef } from '../codec.js';
import { encodeData, encodeQuantity } from '../encode.js';
import { defineMethod, optionalParam, param } from '../method.js';

export const accountInfoMethods = [
  defineMethod('eth_getAccountInfo', [param('address', address), optionalParam('block', blockRef)], async ({ chain }, who, ref = LATEST) => {
    const [balance, nonce, code] = await Promise.all([chain.getBalance(who, ref), chain.getTransactionCount(who, ref), chain.getCode(who, ref)]);
    return { balance: encodeQuantity(balance), nonce: encodeQuantity(nonce), code: encodeData(code) };
  }),
];
