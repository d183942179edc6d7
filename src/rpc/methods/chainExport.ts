/** The chain as a `geth export` file: chain_exportChain (what `chain-sim export` writes to disk). */
import { exportBlocks, toHex } from '../../engine/index.js';
import { blockNumberOrTag } from '../codec.js';
import { encodeQuantity } from '../encode.js';
import { defineMethod, optionalParam } from '../method.js';

export const chainExportMethods = [
  // Defaults 1..head: the genesis block is left out, as a file for `--import` into a node with the same genesis needs.
  defineMethod('chain_exportChain', [optionalParam('first', blockNumberOrTag), optionalParam('last', blockNumberOrTag)], ({ chain }, first, last) => {
    const head = chain.head.number;
    const from = first === undefined ? 1n : chain.resolve(first).number;
    const to = last === undefined ? head : chain.resolve(last).number;
    // Nothing after genesis yet: an empty file, not an error.
    if (first === undefined && last === undefined && head === 0n) return '0x';
    return toHex(exportBlocks(chain.blocks, from, to));
  }),
  // What such a file cannot carry: blocks after test-control state changes, impersonated sends, changes after the head.
  defineMethod('chain_exportCheck', [optionalParam('first', blockNumberOrTag), optionalParam('last', blockNumberOrTag)], async ({ chain }, first, last) => {
    const from = first === undefined ? 1n : chain.resolve(first).number;
    const to = last === undefined ? chain.head.number : chain.resolve(last).number;
    const found = await chain.unexplainedState(from, to);
    return { blocks: found.blocks.map(encodeQuantity), impersonatedTransactions: [...found.impersonated], changedAfterHead: found.afterHead };
  }),
];
