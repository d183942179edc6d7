/**
 * Regression: a state setter (hardhat_setCode / setBalance / setStorageAt) followed by a mined
 * block left the change out of that block's header stateRoot, so the state read at the block
 * (once it was no longer the head) lacked the change, and the header disagreed with the state.
 */
import { expect } from 'chai';
import { bytesToHex } from '@ethereumjs/util';
import { newNode } from '../helpers/chain.js';

const TARGET = '0x00000000000000000000000000000000000c0de0';

describe('integration: state setters and the next block header', () => {
  for (const [method, params, read] of [
    ['hardhat_setCode', [TARGET, '0x6001600055'], ['eth_getCode', [TARGET]]],
    ['hardhat_setBalance', [TARGET, '0x5'], ['eth_getBalance', [TARGET]]],
    ['hardhat_setNonce', [TARGET, '0x3'], ['eth_getTransactionCount', [TARGET]]],
    ['hardhat_setStorageAt', [TARGET, '0x1', `0x${'00'.repeat(31)}09`], ['eth_getStorageAt', [TARGET, '0x1']]],
  ] as const) {
    it(`${method} then evm_mine: the block's stateRoot and the state at it include the change`, async () => {
      const { provider, rpc } = newNode();
      try {
        await rpc(method, [...params]);
        await rpc('evm_mine');
        const node = await provider.ready();
        const block = await rpc<{ stateRoot: string }>('eth_getBlockByNumber', ['0x1', false]);
        expect(block.stateRoot).to.equal(bytesToHex(await node.chain.stateRoot()));
        const atHead = await rpc(read[0], [...read[1], 'latest']);
        await rpc('evm_mine'); // block 1 is now historical: read through its header's stateRoot
        expect(await rpc(read[0], [...read[1], '0x1'])).to.equal(atHead);
      } finally {
        await provider.disconnect();
      }
    });
  }
});
