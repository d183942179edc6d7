import { expect } from 'chai';
import fc from 'fast-check';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import { type CacheJournal, WarmCacheStateManager } from '../../src/engine/state/warmCaches.js';

const ADDRESSES = [1, 2, 3].map((n) => new Address(setLengthLeft(new Uint8Array([n]), 20)));
const SLOTS = [1, 2].map((n) => setLengthLeft(new Uint8Array([n]), 32));

type Op =
  | { kind: 'checkpoint' | 'commit' | 'revert' | 'root' | 'backToRoot' | 'seal' | 'snapshot' }
  | { kind: 'revertTo'; mark: number; keep: boolean }
  | { kind: 'getAccount' | 'getCode' | 'deleteAccount' | 'recreate'; a: number }
  | { kind: 'putAccount'; a: number; balance: number }
  | { kind: 'putCode'; a: number; code: number }
  | { kind: 'getStorage'; a: number; s: number }
  | { kind: 'putStorage'; a: number; s: number; value: number };

const a = fc.integer({ min: 0, max: ADDRESSES.length - 1 });
const s = fc.integer({ min: 0, max: SLOTS.length - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  // control operations as often as reads and writes
  ...(['checkpoint', 'commit', 'revert', 'root', 'backToRoot', 'seal', 'snapshot'] as const).map((kind) => fc.constant<Op>({ kind })),
  fc.record({ kind: fc.constant('revertTo' as const), mark: fc.nat(), keep: fc.boolean() }),
  fc.record({ kind: fc.constantFrom('getAccount' as const, 'getCode' as const, 'deleteAccount' as const, 'recreate' as const), a }),
  fc.record({ kind: fc.constant('putAccount' as const), a, balance: fc.integer({ min: 1, max: 1000 }) }),
  fc.record({ kind: fc.constant('putCode' as const), a, code: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('getStorage' as const), a, s }),
  fc.record({ kind: fc.constant('putStorage' as const), a, s, value: fc.integer({ min: 0, max: 3 }) }),
);

/** Where a run is: checkpoint depth, state roots taken, chain snapshots (a journal in ours). */
interface Run {
  n: number;
  roots: Uint8Array[];
  marks: { root: Uint8Array; journal?: CacheJournal }[];
}
const newRun = (): Run => ({ n: 0, roots: [], marks: [] });

/** Applies one operation, answering what a read saw (checkpoint moves only at valid depths). */
async function apply(sm: MerkleStateManager, op: Op, depth: Run): Promise<string | undefined> {
  switch (op.kind) {
    case 'seal': // the block builder: a flush inside its checkpoint (opened at depth 0), then the commit
      // Deeper, a later revert of an outer checkpoint would keep cache entries the flush wrote
      // to the trie and the revert took back out (ethereumjs's caches and trie then disagree).
      if (depth.n !== 1) return undefined;
      await sm.getStateRoot();
      depth.n--;
      return sm.commit().then(() => undefined);
    case 'snapshot': {
      if (depth.n > 0) return undefined;
      const root = await sm.getStateRoot();
      depth.marks.push({ root, journal: sm instanceof WarmCacheStateManager ? sm.openJournal() : undefined });
      return undefined;
    }
    case 'revertTo': {
      if (depth.n > 0 || depth.marks.length === 0) return undefined;
      const at = op.mark % depth.marks.length;
      const { root, journal } = depth.marks[at]!;
      if (sm instanceof WarmCacheStateManager) await sm.revertTo(root, journal!, op.keep);
      else await sm.setStateRoot(root);
      depth.marks = depth.marks.slice(0, op.keep ? at + 1 : at);
      return undefined;
    }
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
      // Not the storage root: ours writes slots to the trie, and the root into the account,
      // when it flushes (batchFlush.ts); the library at once. Roots are compared at each 'root'.
      const account = await sm.getAccount(ADDRESSES[op.a]!);
      return account ? `${account.nonce} ${account.balance} ${bytesToHex(account.codeHash)}` : 'none';
    }
    case 'getCode':
      return bytesToHex(await sm.getCode(ADDRESSES[op.a]!));
    case 'deleteAccount':
      // As runTx deletes a self-destructed account: storage cleared first. The library's
      // deleteAccount alone keeps the account's storage trie, and a later write to the
      // address brings the old slots back there (never in ours: slots wait in the cache,
      // which the delete empties).
      await sm.clearStorage(ADDRESSES[op.a]!);
      return sm.deleteAccount(ADDRESSES[op.a]!).then(() => undefined);
    case 'recreate': // deleted and created again (a self-destruct, then CREATE2): empty storage and code
      // Only inside a transaction, and with storage cleared, as the EVM does it (runTx clears a
      // self-destructed account's storage, CREATE the new one's): without that ethereumjs keeps
      // the old storage trie of a re-created account and a later flush writes the old slots back.
      if (depth.n === 0) return undefined;
      await sm.clearStorage(ADDRESSES[op.a]!);
      await sm.deleteAccount(ADDRESSES[op.a]!);
      await sm.putAccount(ADDRESSES[op.a]!, new Account(1n, 1n));
      return sm.clearStorage(ADDRESSES[op.a]!).then(() => undefined);
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

describe('WarmCacheStateManager', () => {
  it('sees exactly what the plain state manager sees, whatever is read, written, committed, reverted or snapshotted', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), async (ops) => {
        const ours = new WarmCacheStateManager({ caches: new Caches() });
        const plain = new MerkleStateManager({ caches: new Caches() });
        const [ourDepth, plainDepth] = [newRun(), newRun()];
        for (const [i, step] of ops.entries()) {
          const [seen, expected] = [await apply(ours, step, ourDepth), await apply(plain, step, plainDepth)];
          expect(seen, `step ${i} ${JSON.stringify(step)}`).to.equal(expected);
        }
        while (ourDepth.n > 0) await apply(ours, { kind: 'commit' }, ourDepth);
        while (plainDepth.n > 0) await apply(plain, { kind: 'commit' }, plainDepth);
        expect(bytesToHex(await ours.getStateRoot())).to.equal(bytesToHex(await plain.getStateRoot()));
      }),
      { numRuns: 3000 },
    );
  });

  it('puts back what blocks changed after the snapshot (the block builder flushes inside its checkpoint)', async () => {
    const steps: Op[] = [
      { kind: 'putAccount', a: 0, balance: 5 },
      { kind: 'putStorage', a: 0, s: 0, value: 1 },
      { kind: 'putCode', a: 0, code: 1 },
      { kind: 'snapshot' },
      { kind: 'checkpoint' },
      { kind: 'putAccount', a: 0, balance: 9 },
      { kind: 'putStorage', a: 0, s: 0, value: 2 },
      { kind: 'putCode', a: 0, code: 2 },
      { kind: 'seal' },
      { kind: 'checkpoint' }, // a second block: the snapshot's values are the ones to put back
      { kind: 'putAccount', a: 0, balance: 11 },
      { kind: 'putStorage', a: 0, s: 0, value: 3 },
      { kind: 'putCode', a: 0, code: 3 },
      { kind: 'seal' },
      { kind: 'revertTo', mark: 0, keep: true },
    ];
    const sm = new WarmCacheStateManager({ caches: new Caches() });
    const run = newRun();
    for (const step of steps) await apply(sm, step, run);
    expect((await sm.getAccount(ADDRESSES[0]!))!.balance).to.equal(5n);
    expect(bytesToHex(await sm.getStorage(ADDRESSES[0]!, SLOTS[0]!))).to.equal('0x01');
    expect(bytesToHex(await sm.getCode(ADDRESSES[0]!))).to.equal('0x6001');
    expect(storageCache(sm).account!.get(ADDRESSES[0]!)).to.not.equal(undefined); // put back, not emptied
  });

  it('reverts right to snapshots beyond the bound of open journals (they empty the caches instead)', async () => {
    const sm = new WarmCacheStateManager({ caches: new Caches() });
    const run = newRun();
    for (let balance = 1; balance <= 40; balance++) {
      for (const step of [{ kind: 'snapshot' }, { kind: 'checkpoint' }, { kind: 'putAccount', a: 0, balance }, { kind: 'seal' }] as Op[]) {
        await apply(sm, step, run);
      }
    }
    for (const mark of [30, 10, 0]) {
      await apply(sm, { kind: 'revertTo', mark, keep: true }, run);
      expect((await sm.getAccount(ADDRESSES[0]!))?.balance).to.equal(mark === 0 ? undefined : BigInt(mark));
    }
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
    const sm = new WarmCacheStateManager({ caches: new Caches() });
    const depth = newRun();
    for (const step of steps) await apply(sm, step, depth);
    expect(bytesToHex(await sm.getStorage(address, slot))).to.equal('0x03');
  });

  it('keeps what a reverted checkpoint read in the cache (eth_call runs in one)', async () => {
    const sm = new WarmCacheStateManager({ caches: new Caches() });
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
