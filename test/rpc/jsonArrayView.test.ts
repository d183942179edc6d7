import { expect } from 'chai';
import { JsonArrayView, type Json, materialize } from '../../src/rpc/json.js';
import { LARGE_NODES, countNodes, jsonPieces } from '../../src/server/jsonBody.js';
import { newNode } from '../helpers/chain.js';

/** A view of `length` records shaped like struct logs, counting how many were made. */
function recordsView(length: number): { view: JsonArrayView; made: () => number } {
  let made = 0;
  const view = new JsonArrayView(length, (i) => {
    made++;
    return { pc: i, op: 'PUSH1', gas: 1000 - i, stack: ['0x1', `0x${i.toString(16)}`] };
  });
  return { view, made: () => made };
}

describe('rpc/json: views of long arrays, made as they are written', () => {
  it('writes the same text as the array it stands for, through JSON.stringify and in pieces', () => {
    const { view } = recordsView(5000);
    const answer = { jsonrpc: '2.0', id: 1, result: { gas: 1, failed: false, structLogs: view } };
    const plain = { jsonrpc: '2.0', id: 1, result: { gas: 1, failed: false, structLogs: view.toJSON() } };
    expect(JSON.stringify(answer)).to.equal(JSON.stringify(plain));
    for (const batch of [1, 7, 2000]) expect([...jsonPieces(answer, batch)].join('')).to.equal(JSON.stringify(plain));
    expect(JSON.stringify(new JsonArrayView(0, () => 1))).to.equal('[]');
  });

  it('makes its items a batch at a time while the pieces are taken, not before', () => {
    const { view, made } = recordsView(10_000);
    const pieces = jsonPieces({ result: { structLogs: view } }, 100);
    expect(countNodes(view, LARGE_NODES)).to.be.at.least(LARGE_NODES); // counted by its first item's size: written in slices
    const before = made();
    pieces.next();
    pieces.next();
    // A few batches in: most records are still to be made (a whole array would have made all 10,000).
    expect(made() - before).to.be.below(1000);
    for (let piece = pieces.next(); !piece.done; piece = pieces.next());
    expect(made() - before).to.be.within(10_000, 10_010); // countNodes looks at the first item
  });

  it('materialize replaces every view by its array and leaves shared frozen values alone', () => {
    const shared = Object.freeze({ a: 1 });
    const value: Json = { x: [new JsonArrayView(2, (i) => ({ i, inner: new JsonArrayView(1, () => i) }))], shared, n: null };
    const plain = materialize(value);
    expect(plain).to.deep.equal({
      x: [
        [
          { i: 0, inner: [0] },
          { i: 1, inner: [1] },
        ],
      ],
      shared: { a: 1 },
      n: null,
    });
    expect((plain as { shared: unknown }).shared).to.equal(shared);
  });

  it('answers code in process a plain array: a struct-logger trace through the provider', async function () {
    this.timeout(60_000);
    const { rpc } = newNode();
    const [from] = await rpc<string[]>('eth_accounts');
    const init = '0x6c6000355b600190038060035700600052600d6013f3';
    const deployed = await rpc<string>('eth_sendTransaction', [{ from, data: init }]);
    const loop = (await rpc<{ contractAddress: string }>('eth_getTransactionReceipt', [deployed])).contractAddress;
    const hash = await rpc<string>('eth_sendTransaction', [{ from, to: loop, data: `0x${(50).toString(16).padStart(64, '0')}` }]);
    const trace = await rpc<{ structLogs: unknown }>('debug_traceTransaction', [hash]);
    expect(Array.isArray(trace.structLogs)).to.equal(true);
    expect(trace.structLogs).to.not.be.instanceOf(JsonArrayView);
    const logs = trace.structLogs as Array<{ op: string; stack: string[] }>;
    expect(logs[0]).to.deep.include({ op: 'PUSH1', stack: [] });
    expect(logs.at(-1)!.op).to.equal('STOP');
  });
});
