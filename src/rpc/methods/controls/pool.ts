/** Dropping transactions from the pool (with Hardhat's and Anvil's names). */
import { address, hash } from '../../codec.js';
import { defineMethod, param } from '../../method.js';

export const poolControlMethods = [
  defineMethod(
    {
      name: 'chain_dropTransaction',
      aliases: ['hardhat_dropTransaction'],
      // Anvil answers with the dropped transaction's hash, or null when it was not in the pool.
      variants: [{ name: 'anvil_dropTransaction', answer: (dropped, h) => (dropped ? h : null) }],
    },
    [param('transactionHash', hash)],
    ({ chain }, h) => chain.dropTransaction(h),
  ),
  defineMethod('anvil_dropAllTransactions', [], async ({ chain }) => {
    await chain.dropTransactions();
    return null;
  }),
  defineMethod('anvil_removePoolTransactions', [param('address', address)], async ({ chain }, who) => {
    await chain.dropTransactions(who);
    return null;
  }),
];
