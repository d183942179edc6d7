/**
 * The state roots chain-sim commits to (computed by batchFlush.ts / trieUpdate.ts) against an
 * independent reference: @ethereumjs/statemanager's own trie code, fed the accounts, code and
 * storage of a chain_dumpState of the same state.
 */
import { expect } from 'chai';
import { Interface } from 'ethers';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, bytesToHex, createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { ADDRESSES, artifact, deploy, newNode, send } from '../helpers/chain.js';

interface DumpedAccount {
  balance: string;
  nonce?: string;
  code?: string;
  storage?: Record<string, string>;
}

async function referenceRoot(alloc: Record<string, DumpedAccount>): Promise<string> {
  const state = new MerkleStateManager({ caches: new Caches() });
  for (const [address, dumped] of Object.entries(alloc)) {
    const at = createAddressFromString(address);
    await state.putAccount(at, new Account(BigInt(dumped.nonce ?? 0), BigInt(dumped.balance)));
    if (dumped.code) await state.putCode(at, hexToBytes(dumped.code as `0x${string}`));
    for (const [slot, value] of Object.entries(dumped.storage ?? {})) {
      await state.putStorage(at, hexToBytes(slot as `0x${string}`), hexToBytes(value as `0x${string}`));
    }
  }
  return bytesToHex(await state.getStateRoot());
}

describe('integration: block state roots against @ethereumjs/statemanager', () => {
  it('a chain of transfers, token transfers (slots written, emptied and deleted), setters and a reverted snapshot', async () => {
    const { provider, rpc } = newNode();
    try {
      const token = await deploy(rpc, 'Token', ['T', 'T', 10n ** 24n]);
      const erc20 = new Interface(artifact('Token').abi);
      const holders = Array.from({ length: 12 }, (_, i) => `0x${(0xa000 + i).toString(16).padStart(40, '0')}`);
      const check = async (when: string): Promise<void> => {
        const { alloc } = await rpc<{ alloc: Record<string, DumpedAccount> }>('chain_dumpState');
        await rpc('evm_mine'); // the setters' changes into a header
        const block = await rpc<{ stateRoot: string }>('eth_getBlockByNumber', ['latest', false]);
        expect(block.stateRoot, when).to.equal(await referenceRoot(alloc));
      };

      for (const [i, holder] of holders.entries()) {
        await send(rpc, 1, { to: holder, value: 1000n + BigInt(i), nonce: i });
        await send(rpc, 0, { to: token, data: erc20.encodeFunctionData('transfer', [holder, 5n + BigInt(i)]), nonce: i + 1 });
      }
      await check('after 24 transfers');

      const snapshot = await rpc<string>('evm_snapshot');
      await rpc('hardhat_setStorageAt', [token, '0x07', `0x${'00'.repeat(31)}2a`]);
      await rpc('hardhat_setBalance', [holders[0], '0x0']);
      await rpc('hardhat_setCode', [holders[1], '0x6001600055']);
      await check('after setters');
      expect(await rpc('evm_revert', [snapshot])).to.equal(true);

      // A holder's whole balance sent back empties (deletes) its slot.
      const impersonated = holders[2]!;
      await rpc('hardhat_impersonateAccount', [impersonated]);
      await rpc('hardhat_setBalance', [impersonated, '0xde0b6b3a7640000']);
      const back = erc20.encodeFunctionData('transfer', [ADDRESSES[0], 7n]);
      await rpc('eth_sendTransaction', [{ from: impersonated, to: token, data: back, gas: '0x30000' }]);
      await check('after a reverted snapshot and a slot deleted');
    } finally {
      await provider.disconnect();
    }
  });
});
