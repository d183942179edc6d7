/** Anvil's eth_getAccountInfo (foundry crates/anvil: api.rs). */
import type { BlockRef } from '../../engine/chain.js';
import { address, blockRef } from '../codec.js';
import { encodeData, encodeQuantity } from '../encode.js';
import { defineMethod, optionalParam, param } from '../method.js';

const LATEST: BlockRef = { tag: 'latest' };

export const anvilMethods = [
  // Anvil's eth_getAccountInfo (the eth_ twin): balance, nonce and code together, read at one block.
  defineMethod(
    { name: 'chain_getAccountInfo', aliases: ['eth_getAccountInfo'] },
    [param('address', address), optionalParam('block', blockRef)],
    async ({ chain }, who, ref) => {
      const given = ref ?? LATEST;
      // A tag is pinned to its block first, so the three reads see one state even if a block lands between them.
      const mined = 'tag' in given && given.tag === 'pending' ? undefined : chain.find(given);
      const at: BlockRef = mined ? { hash: mined.hashHex } : given;
      const balance = await chain.getBalance(who, at);
      const nonce = await chain.getTransactionCount(who, at);
      const code = await chain.getCode(who, at);
      return { balance: encodeQuantity(balance), nonce: encodeQuantity(nonce), code: encodeData(code) };
    },
  ),
];
