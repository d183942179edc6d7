/** Message calls that create no transaction: eth_call, eth_estimateGas, eth_createAccessList. */
import type { BlockOverrides, CallOverrides, StateOverride } from '../../engine/overrides.js';
import { blockRef, callRequest } from '../codec.js';
import { encodeData, encodeQuantity } from '../encode.js';
import { defineMethod, optionalParam, param } from '../method.js';
import { blockOverrides, stateOverrides } from '../overrides.js';

/** go-ethereum's third (state) and fourth (block) parameters, as one engine value. */
function callOverrides(state: StateOverride[] | undefined, block?: BlockOverrides): CallOverrides | undefined {
  return state === undefined && block === undefined ? undefined : { state, block };
}

export const executionMethods = [
  defineMethod(
    'chain_call',
    [param('transaction', callRequest), optionalParam('block', blockRef), optionalParam('stateOverrides', stateOverrides), optionalParam('blockOverrides', blockOverrides)],
    async ({ chain }, request, ref, state, block) => encodeData(await chain.call(request, ref ?? { tag: 'latest' }, callOverrides(state, block))),
  ),
  // Every property optional, the object itself too (SPEC 2.7).
  defineMethod(
    'chain_estimateGas',
    [optionalParam('transaction', callRequest), optionalParam('block', blockRef), optionalParam('stateOverrides', stateOverrides), optionalParam('blockOverrides', blockOverrides)],
    async ({ chain }, request, ref, state, block) => encodeQuantity(await chain.estimateGas(request ?? {}, ref ?? { tag: 'latest' }, callOverrides(state, block))),
  ),
  defineMethod(
    'chain_createAccessList',
    [param('transaction', callRequest), optionalParam('block', blockRef), optionalParam('stateOverrides', stateOverrides)],
    async ({ chain }, request, ref, state) => {
      const { accessList, gasUsed, error } = await chain.createAccessList(request, ref ?? { tag: 'latest' }, callOverrides(state));
      return {
        accessList: accessList.map(({ address, storageKeys }) => ({ address, storageKeys: [...storageKeys] })),
        gasUsed: encodeQuantity(gasUsed),
        ...(error === undefined ? {} : { error }),
      };
    },
  ),
];
