import { expect } from 'chai';
import fc from 'fast-check';
import { StructLogStore } from '../../src/engine/tracers/structLogStore.js';
import { JsonArrayView } from '../../src/rpc/json.js';
import { formatStructLog, structLogJson } from '../../src/rpc/traceOutput.js';
import { jsonPieces } from '../../src/server/jsonBody.js';

const word = fc.bigInt({ min: 0n, max: (1n << 256n) - 1n });
const gasLike = fc.oneof(fc.bigInt({ min: 0n, max: 30_000_000n }), fc.bigInt({ min: 0n, max: (1n << 64n) + 5n }));
const record = fc.record({
  pc: fc.integer({ min: 0, max: 24_576 }),
  op: fc.constantFrom('PUSH1', 'JUMPDEST', 'SLOAD', 'SSTORE', 'CALL', 'REVERT', 'opcode 0xfe not defined'),
  gas: gasLike,
  gasCost: gasLike,
  depth: fc.integer({ min: 1, max: 1024 }),
  refund: fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 1_000_000n })),
  stack: fc.option(fc.array(word, { maxLength: 6 }), { nil: undefined }),
  memory: fc.option(fc.uint8Array({ minLength: 1, maxLength: 70 }), { nil: undefined, freq: 8 }),
  storage: fc.option(fc.constant(new Map([['00'.repeat(32), '01'.padStart(64, '0')]])), { nil: undefined, freq: 8 }),
  error: fc.option(fc.constantFrom('out of gas', 'invalid jump destination', 'quote " and \\ backslash'), { nil: undefined, freq: 8 }),
});

describe('rpc/traceOutput: struct logs written from their columns (issue 35)', () => {
  it('writes each record as JSON.stringify writes the record made whole, for random records', () => {
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 30 }), (records) => {
        const store = new StructLogStore();
        for (const { error, ...fields } of records) {
          const index = store.push(fields);
          if (error !== undefined) store.setError(index, error);
        }
        for (let i = 0; i < store.length; i++) expect(structLogJson(store, i)).to.equal(JSON.stringify(formatStructLog(store.at(i))));
      }),
      { numRuns: 300 },
    );
  });

  it('a view that writes its own text gives the same answer as one made of its items, in pieces', () => {
    const store = new StructLogStore();
    for (let i = 0; i < 5000; i++) {
      store.push({
        pc: i % 13,
        op: i % 2 ? 'SUB' : 'JUMPI',
        gas: 1_000_000n - BigInt(i),
        gasCost: 3n,
        depth: 1,
        refund: BigInt(i % 3),
        stack: i % 7 ? [BigInt(i), 1n] : [],
      });
    }
    store.setError(4999, 'out of gas');
    const items = (i: number) => formatStructLog(store.at(i));
    const answer = { result: { structLogs: new JsonArrayView(store.length, items, (i) => structLogJson(store, i)) } };
    const pieces = [...jsonPieces(answer)];
    expect(pieces.length).to.be.greaterThan(10);
    expect(pieces.join('')).to.equal(JSON.stringify({ result: { structLogs: Array.from({ length: store.length }, (_, i) => items(i)) } }));
    const empty = { structLogs: new JsonArrayView(0, items, (i) => structLogJson(store, i)) };
    expect([...jsonPieces(empty, 1)].join('')).to.equal('{"structLogs":[]}');
  });
});
