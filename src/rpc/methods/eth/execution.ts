/** Message calls that create no transaction: eth_call, eth_estimateGas, eth_createAccessList. */
import type { BlockRef } from '../../../engine/chain/types.js';
import { blockRef, callRequest } from '../../codec.js';
import { encodeData, encodeQuantity } from '../../encode.js';
import { stateAtArgument } from '../../forkForwarding.js';
import { defineMethod, optionalParam, param } from '../../method.js';
import { blockOverrides, callOverrides, stateOverrides } from '../../overrides.js';

/**
 * Where an estimate without a block runs: the next block (its number, timestamp, base fee) on
 * the state a transaction sent now would see, as Hardhat's node and Anvil default; go-ethereum
 * defaults to `latest`, whose block context is the head's own, so code that depends on
 * block.number or block.timestamp (OpenZeppelin's vote checkpoints) was estimated for a block
 * the transaction never runs in.
 */
export const ESTIMATE_DEFAULT_BLOCK: BlockRef = { tag: 'pending' };

export const executionMethods = [
  defineMethod(
    { name: 'chain_call', aliases: ['eth_call'], forwardOnFork: stateAtArgument('eth_call', 1) },
    [
      param('transaction', callRequest),
      optionalParam('block', blockRef),
      optionalParam('stateOverrides', stateOverrides),
      optionalParam('blockOverrides', blockOverrides),
    ],
    async ({ chain }, request, ref, state, block) => encodeData(await chain.call(request, ref ?? { tag: 'latest' }, callOverrides(state, block))),
  ),
  // Every property optional, the object itself too (SPEC 2.7).
  defineMethod(
    { name: 'chain_estimateGas', aliases: ['eth_estimateGas'], forwardOnFork: stateAtArgument('eth_estimateGas', 1) },
    [
      optionalParam('transaction', callRequest),
      optionalParam('block', blockRef),
      optionalParam('stateOverrides', stateOverrides),
      optionalParam('blockOverrides', blockOverrides),
    ],
    async ({ chain }, request, ref, state, block) =>
      encodeQuantity(await chain.estimateGas(request ?? {}, ref ?? ESTIMATE_DEFAULT_BLOCK, callOverrides(state, block))),
  ),
  defineMethod(
    { name: 'chain_createAccessList', aliases: ['eth_createAccessList'], forwardOnFork: stateAtArgument('eth_createAccessList', 1) },
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
