/** Message calls that create no transaction: eth_call, eth_estimateGas, eth_createAccessList. */
import { blockRef, callRequest } from '../codec.js';
import { encodeData, encodeQuantity } from '../encode.js';
import { defineMethod, optionalParam, param } from '../method.js';

export const executionMethods = [
  defineMethod('chain_call', [param('transaction', callRequest), optionalParam('block', blockRef)], async ({ chain }, request, ref) => {
    return encodeData(await chain.call(request, ref ?? { tag: 'latest' }));
  }),
  // Every property optional, the object itself too (SPEC 2.7).
  defineMethod(
    'chain_estimateGas',
    [optionalParam('transaction', callRequest), optionalParam('block', blockRef)],
    async ({ chain }, request, ref) => encodeQuantity(await chain.estimateGas(request ?? {}, ref ?? { tag: 'latest' })),
  ),
  defineMethod('chain_createAccessList', [param('transaction', callRequest), optionalParam('block', blockRef)], async ({ chain }, request, ref) => {
    const { accessList, gasUsed, error } = await chain.createAccessList(request, ref ?? { tag: 'latest' });
    return {
      accessList: accessList.map(({ address, storageKeys }) => ({ address, storageKeys: [...storageKeys] })),
      gasUsed: encodeQuantity(gasUsed),
      ...(error === undefined ? {} : { error }),
    };
  }),
];
