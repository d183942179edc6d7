/** Time travel: the clock's offset, the next block's timestamp, a fixed interval between blocks (with Hardhat's, Anvil's and Ganache's names). */
import { count } from '../../codec.js';
import { encodeQuantity } from '../../encode.js';
import { invalidParams } from '../../errors.js';
import { defineMethod, param } from '../../method.js';

export const timeMethods = [
  defineMethod(
    {
      // Each answers the clock's whole offset in its tool's own form: a quantity here, Hardhat's
      // decimal string ("an exception", its source says), Anvil's JSON number.
      name: 'chain_increaseTime',
      answer: (offset: bigint) => encodeQuantity(offset),
      variants: [
        { name: 'evm_increaseTime', answer: (offset: bigint) => offset.toString() },
        { name: 'anvil_increaseTime', answer: (offset: bigint) => Number(offset) },
      ],
    },
    [param('seconds', count)],
    ({ chain }, seconds) => chain.increaseTime(seconds),
  ),
  defineMethod(
    { name: 'chain_setNextBlockTimestamp', aliases: ['evm_setNextBlockTimestamp', 'anvil_setNextBlockTimestamp'] },
    [param('timestamp', count)],
    async ({ chain }, timestamp) => {
      await chain.setNextBlockTimestamp(timestamp);
      return null;
    },
  ),
  defineMethod({ name: 'chain_setTime', aliases: ['evm_setTime', 'anvil_setTime'] }, [param('timestamp', count)], async ({ chain }, timestamp) => {
    await chain.setTime(timestamp);
    return true;
  }),

  defineMethod(
    { name: 'chain_setBlockTimestampInterval', aliases: ['anvil_setBlockTimestampInterval'] },
    [param('seconds', count)],
    async ({ chain }, seconds) => {
      // Timestamps must increase from block to block.
      if (seconds === 0n) throw invalidParams('invalid argument 0 (seconds): must be at least 1');
      await chain.setBlockTimestampInterval(seconds);
      return true;
    },
  ),
  defineMethod({ name: 'chain_removeBlockTimestampInterval', aliases: ['anvil_removeBlockTimestampInterval'] }, [], ({ chain }) =>
    chain.removeBlockTimestampInterval(),
  ),
  defineMethod('anvil_getGenesisTime', [], ({ chain }) => Number(chain.resolve({ number: 0n }).block.header.timestamp)),
];
