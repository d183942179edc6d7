import v8 from 'node:v8';
import vm from 'node:vm';
import { expect } from 'chai';
import { StructLogStore } from '../../src/engine/tracers/structLogStore.js';

describe('engine/structLogStore: struct logs in columns', () => {
  it('gives back each record as it was recorded, large words and later changes included', () => {
    const store = new StructLogStore();
    const big = (1n << 255n) + 7n;
    store.push({ pc: 0, op: 'PUSH32', gas: 30_000_000n, gasCost: 3n, depth: 1, refund: 0n, stack: [] });
    store.push({ pc: 33, op: 'CALL', gas: 2n ** 64n + 5n, gasCost: 100n, depth: 1, refund: 4800n, stack: [big, 1n, 0n] });
    const storage = new Map([['00', '01']]);
    store.push({ pc: 1, op: 'SLOAD', gas: 10n, gasCost: 2100n, depth: 2, refund: 0n, stack: [0n], storage, memory: new Uint8Array([1]) });
    store.push({ pc: 2, op: 'STOP', gas: 1n, gasCost: 0n, depth: 2, refund: 0n, stack: undefined });
    store.addGasCost(1, 2n ** 64n);
    store.setError(3, 'out of gas');
    expect(store.length).to.equal(4);
    expect(store.at(0)).to.deep.include({ pc: 0, op: 'PUSH32', gas: 30_000_000n, gasCost: 3n, depth: 1, refund: 0n, stack: [] });
    expect(store.at(1)).to.deep.include({ op: 'CALL', gas: 2n ** 64n + 5n, gasCost: 100n + 2n ** 64n, refund: 4800n, stack: [big, 1n, 0n] });
    expect(store.at(2).storage).to.equal(storage);
    expect(store.at(2).stack).to.deep.equal([0n]);
    expect(store.at(3).stack).to.equal(undefined);
    expect(store.at(3).error).to.equal('out of gas');
    expect(store.at(2).error).to.equal(undefined);
  });

  it('grows a chunk at a time: no array larger than a chunk, whatever the length (issue 35), and every record intact', () => {
    const store = new StructLogStore();
    const records = 300_000;
    for (let i = 0; i < records; i++) {
      store.push({
        pc: i,
        op: i % 2 ? 'SUB' : 'JUMPI',
        gas: 1n << BigInt(i % 70),
        gasCost: BigInt(i),
        depth: 1 + (i % 5),
        refund: 0n,
        stack: [BigInt(i), 7n, BigInt(i) << 200n],
      });
    }
    store.addGasCost(records - 1, 5n);
    // 900,000 stack words in 14 chunks: one growth step copies at most a chunk (512 KiB of 64-bit words), never the column.
    expect(store.largestArrayBytes).to.be.at.most(65_536 * 8);
    for (let i = 0; i < records; i += 997) {
      const log = store.at(i);
      expect(log).to.deep.include({ pc: i, gas: 1n << BigInt(i % 70), gasCost: BigInt(i), depth: 1 + (i % 5) });
      expect(log.stack).to.deep.equal([BigInt(i), 7n, BigInt(i) << 200n]);
    }
    expect(store.at(records - 1).gasCost).to.equal(BigInt(records - 1) + 5n);
    expect(store.at(records - 1).stack).to.deep.equal([BigInt(records - 1), 7n, BigInt(records - 1) << 200n]);
  });

  it("keeps records out of the collector's heap (it marks a handful of buffers whatever the length)", () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    const store = new StructLogStore();
    const records = 200_000;
    for (let i = 0; i < records; i++) {
      store.push({ pc: i % 13, op: i % 2 ? 'SUB' : 'JUMPI', gas: 1_000_000n - BigInt(i), gasCost: 3n, depth: 1, refund: 0n, stack: [BigInt(i), 1n, 3n] });
    }
    gc();
    // The garbage collector's heap (what it marks), not the typed arrays' buffers outside it.
    const perRecord = (process.memoryUsage().heapUsed - before) / records;
    expect(store.length).to.equal(records);
    // An object per record with its stack's array and bigints took 237 bytes of the collector's heap; columns take none.
    expect(perRecord, `${perRecord.toFixed(1)} bytes of heap a record`).to.be.below(8);
  });
});
