import { expect } from 'chai';
import fc from 'fast-check';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import { CommittedReadStateManager } from '../../src/engine/committedReads.js';

const ADDRESSES = [1, 2, 3].map((n) => new Address(setLengthLeft(new Uint8Array([n]), 20)));
const SLOTS = [1, 2].map((n) => setLengthLeft(new Uint8Array([n]), 32));

type Op =
  | { kind: 'checkpoint' | 'commit' | 'revert' | 'root' | 'backToRoot' }
  | { kind: 'getAccount' | 'getCode' | 'deleteAccount' | 'recreate'; a: number }
  | { kind: 'putAccount'; a: number; balance: number }
  | { kind: 'putCode'; a: number; code: number }
  | { kind: 'getStorage'; a: number; s: number }
  | { kind: 'putStorage'; a: number; s: number; value: number };

const a = fc.integer({ min: 0, max: ADDRESSES.length - 1 });
const s = fc.integer({ min: 0, max: SLOTS.length - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.constantFrom<Op>({ kind: 'checkpoint' }, { kind: 'commit' }, { kind: 'revert' }, { kind: 'root' }, { kind: 'backToRoot' }),
  fc.record({ kind: fc.constantFrom('getAccount' as const, 'getCode' as const, 'deleteAccount' as const, 'recreate' as const), a }),
  fc.record({ kind: fc.constant('putAccount' as const), a, balance: fc.integer({ min: 1, max: 1000 }) }),
  fc.record({ kind: fc.constant('putCode' as const), a, code: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('getStorage' as const), a, s }),
  fc.record({ kind: fc.constant('putStorage' as const), a, s, value: fc.integer({ min: 0, max: 3 }) }),
);

/** Applies one operation, answering what a read saw (checkpoint moves only at valid depths). */
async function apply(sm: MerkleStateManager, op: Op, depth: { n: number; roots: Uint8Array[] }): Promise<string | undefined> {
  switch (op.kind) {
    case 'checkpoint':
      depth.n++;
      return sm.checkpoint().then(() => undefined);
    case 'commit':
    case 'revert':
      if (depth.n === 0) return undefined;
      depth.n--;
      return (op.kind === 'commit' ? sm.commit() : sm.revert()).then(() => undefined);
    case 'root':
      if (depth.n > 0) return undefined;
      depth.roots.push(await sm.getStateRoot());
      return bytesToHex(depth.roots.at(-1)!);
    case 'backToRoot': // what a chain revert does
      if (depth.n > 0 || depth.roots.length === 0) return undefined;
      await sm.setStateRoot(depth.roots[0]!);
      return undefined;
    case 'getAccount': {
      const account = await sm.getAccount(ADDRESSES[op.a]!);
      return account ? bytesToHex(account.serialize()) : 'none';
    }
    case 'getCode':
      return bytesToHex(await sm.getCode(ADDRESSES[op.a]!));
    case 'deleteAccount':
      return sm.deleteAccount(ADDRESSES[op.a]!).then(() => undefined);
    case 'recreate': // deleted and created again (a self-destruct, then CREATE2): empty storage and code
      await sm.deleteAccount(ADDRESSES[op.a]!);
      return sm.putAccount(ADDRESSES[op.a]!, new Account(1n, 1n)).then(() => undefined);
    case 'putAccount': {
      const address = ADDRESSES[op.a]!;
      const account = (await sm.getAccount(address)) ?? new Account();
      account.balance = BigInt(op.balance);
      return sm.putAccount(address, account).then(() => undefined);
    }
    case 'putCode':
      return sm.putCode(ADDRESSES[op.a]!, new Uint8Array([0x60, op.code])).then(() => undefined);
    case 'getStorage':
      return bytesToHex(await sm.getStorage(ADDRESSES[op.a]!, SLOTS[op.s]!));
    case 'putStorage': {
      const address = ADDRESSES[op.a]!;
      if (!(await sm.getAccount(address))) await sm.putAccount(address, new Account());
      return sm.putStorage(address, SLOTS[op.s]!, op.value === 0 ? new Uint8Array() : new Uint8Array([op.value])).then(() => undefined);
    }
  }
}

const storageCache = (sm: MerkleStateManager): Caches => (sm as unknown as { _caches: Caches })._caches;

describe('CommittedReadStateManager', () => {
  it('sees exactly what the plain state manager sees, whatever is read, written, committed or reverted', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 80 }), async (ops) => {
        const ours = new CommittedReadStateManager({ caches: new Caches() });
        const plain = new MerkleStateManager({ caches: new Caches() });
        const [ourDepth, plainDepth] = [{ n: 0, roots: [] }, { n: 0, roots: [] }];
        for (const [i, step] of ops.entries()) {
          const [seen, expected] = [await apply(ours, step, ourDepth), await apply(plain, step, plainDepth)];
          expect(seen, `step ${i} ${JSON.stringify(step)}`).to.equal(expected);
        }
        while (ourDepth.n > 0) await apply(ours, { kind: 'commit' }, ourDepth);
        while (plainDepth.n > 0) await apply(plain, { kind: 'commit' }, plainDepth);
        expect(bytesToHex(await ours.getStateRoot())).to.equal(bytesToHex(await plain.getStateRoot()));
      }),
      { numRuns: 400 },
    );
  });

  it('does not keep a slot read through an account re-created in the checkpoint', async () => {
    const [address, slot] = [ADDRESSES[0]!, SLOTS[0]!];
    const steps: Op[] = [
      { kind: 'putStorage', a: 0, s: 0, value: 3 },
      { kind: 'root' },
      { kind: 'checkpoint' },
      { kind: 'checkpoint' },
      { kind: 'revert' }, // drops the storage tries ethereumjs keeps per account
      { kind: 'recreate', a: 0 },
      { kind: 'getStorage', a: 0, s: 0 }, // empty: the new account's storage
      { kind: 'revert' },
    ];
    const sm = new CommittedReadStateManager({ caches: new Caches() });
    const depth = { n: 0, roots: [] };
    for (const step of steps) await apply(sm, step, depth);
    expect(bytesToHex(await sm.getStorage(address, slot))).to.equal('0x03');
  });

  it('keeps what a reverted checkpoint read in the cache (eth_call runs in one)', async () => {
    const sm = new CommittedReadStateManager({ caches: new Caches() });
    const [address, slot] = [ADDRESSES[0]!, SLOTS[0]!];
    await sm.putAccount(address, new Account(0n, 5n));
    await sm.putCode(address, new Uint8Array([0x60, 0x00]));
    await sm.putStorage(address, slot, new Uint8Array([7]));
    await sm.setStateRoot(await sm.getStateRoot()); // empties the caches, as a chain revert does

    await sm.checkpoint();
    await sm.getStorage(address, slot);
    await sm.getCode(address);
    await sm.revert();

    const caches = storageCache(sm);
    expect(caches.account!.get(address)).to.not.equal(undefined);
    expect(caches.code!.get(address)).to.not.equal(undefined);
    expect(caches.storage!.get(address, slot)).to.not.equal(undefined);
  });
});
