import { expect } from 'chai';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import { BatchFlushStateManager } from '../../src/engine/state/batchFlush.js';
import { randomSource } from '../helpers/random.js';

const addressOf = (i: number): Address => new Address(setLengthLeft(Uint8Array.of(i + 1), 20));

describe('batched state flush (batchFlush.ts)', () => {
  it('gives the state roots of @ethereumjs/statemanager over random blocks of account, storage and code changes', async () => {
    const random = randomSource(3);
    const library = new MerkleStateManager({ caches: new Caches() });
    const ours = new BatchFlushStateManager({ caches: new Caches() });
    for (let block = 0; block < 150; block++) {
      // Each block in a checkpoint, as the block builder runs it; one in five reverted.
      for (const state of [library, ours]) await state.checkpoint();
      const operations: Array<(state: MerkleStateManager) => Promise<void>> = [];
      for (let i = 0, count = 1 + random(12); i < count; i++) {
        const address = addressOf(random(30));
        const kind = random(10);
        const value = BigInt(random(4) === 0 ? 0 : random(1_000_000));
        const slot = setLengthLeft(Uint8Array.of(random(20)), 32);
        const word = value === 0n ? new Uint8Array(0) : setLengthLeft(Uint8Array.of(Number(value % 256n), 1), 32);
        const code = Uint8Array.of(0x60, random(256), 0x00);
        const writesCode = random(3) === 0;
        operations.push(async (state) => {
          if (kind < 4) {
            const account = (await state.getAccount(address)) ?? new Account();
            account.balance = value;
            account.nonce += 1n;
            await state.putAccount(address, account);
          } else if (kind < 8) {
            // Storage of an account that exists (created as the EVM creates one: storage cleared); zero words delete the slot.
            if ((await state.getAccount(address)) === undefined) {
              await state.putAccount(address, new Account(0n, 1n));
              await state.clearStorage(address);
            }
            await state.putStorage(address, slot, word);
          } else if (kind === 8) {
            await state.deleteAccount(address);
          } else if (writesCode) {
            await state.putCode(address, code); // takes the library's flush for that block
          }
        });
      }
      const revert = random(5) === 0;
      for (const state of [library, ours]) {
        for (const operation of operations) await operation(state);
        if (revert) await state.revert();
        else await state.commit();
      }
      const [expected, actual] = [await library.getStateRoot(), await ours.getStateRoot()];
      expect(bytesToHex(actual), `block ${block}`).to.equal(bytesToHex(expected));
    }
    // Code and storage are readable from where they were written (caches emptied first).
    const root = await ours.getStateRoot();
    await ours.setStateRoot(root);
    await library.setStateRoot(await library.getStateRoot());
    for (let i = 0; i < 30; i++) {
      for (let slot = 0; slot < 20; slot++) {
        const key = setLengthLeft(Uint8Array.of(slot), 32);
        const address = addressOf(i);
        if ((await library.getAccount(address)) === undefined) continue;
        if (slot === 0) expect(bytesToHex(await ours.getCode(address)), `code of account ${i}`).to.equal(bytesToHex(await library.getCode(address)));
        expect(bytesToHex(await ours.getStorage(address, key)), `account ${i}, slot ${slot}`).to.equal(bytesToHex(await library.getStorage(address, key)));
      }
    }
  });
});
