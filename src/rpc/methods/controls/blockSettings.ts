/**
 * Settings of the blocks to come: coinbase, next base fee, prevRandao, block gas limit (with
 * Hardhat's, Anvil's and Ganache's names), and go-ethereum's miner_setEtherbase,
 * miner_setGasPrice (the gas price the node suggests and sends with) and miner_setExtra.
 */
import { address, data, fixedData, quantity, uint256 } from '../../codec.js';
import { invalidParams } from '../../errors.js';
import { defineMethod, param } from '../../method.js';

export const blockSettingMethods = [
  defineMethod({ name: 'chain_setCoinbase', aliases: ['hardhat_setCoinbase', 'anvil_setCoinbase'] }, [param('address', address)], async ({ chain }, who) => {
    await chain.configure({ coinbase: who });
    return true;
  }),
  defineMethod(
    { name: 'chain_setNextBlockBaseFeePerGas', aliases: ['hardhat_setNextBlockBaseFeePerGas', 'anvil_setNextBlockBaseFeePerGas'] },
    [param('baseFee', uint256)],
    async ({ chain }, fee) => {
      await chain.setNextBaseFee(fee);
      return true;
    },
  ),
  defineMethod(
    { name: 'chain_setPrevRandao', aliases: ['hardhat_setPrevRandao', 'anvil_setNextBlockPrevRandao'] },
    [param('prevRandao', fixedData(32))],
    async ({ chain }, value) => {
      await chain.setNextPrevRandao(value);
      return true;
    },
  ),
  defineMethod(
    { name: 'chain_setBlockGasLimit', aliases: ['evm_setBlockGasLimit', 'anvil_setBlockGasLimit'] },
    [param('gasLimit', quantity(63))],
    async ({ chain }, limit) => {
      if (limit < 5000n) throw invalidParams('invalid argument 0 (gasLimit): must be at least 5000');
      await chain.configure({ blockGasLimit: limit });
      return true;
    },
  ),

  defineMethod('miner_setEtherbase', [param('address', address)], async ({ chain }, who) => {
    await chain.configure({ coinbase: who });
    return true;
  }),
  defineMethod('miner_setGasPrice', [param('gasPrice', uint256)], async ({ chain }, price) => {
    await chain.configure({ gasPrice: price });
    return true;
  }),
  defineMethod('miner_setExtra', [param('extra', data)], async ({ chain }, extra) => {
    // The header's extraData holds at most 32 bytes.
    if (extra.length > 32) throw invalidParams(`invalid argument 0 (extra): exceeds max length, ${extra.length} > 32 bytes`);
    await chain.configure({ extraData: extra.length === 0 ? undefined : extra });
    return true;
  }),
];
