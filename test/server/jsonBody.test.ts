import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import fc from 'fast-check';
import { LARGE_NODES, countNodes, jsonPieces, writeLargeJson } from '../../src/server/jsonBody.js';
import { fetchRpc, httpServerPerSuite, postJson } from '../helpers/rpc.js';

const joined = (value: unknown, batchNodes?: number): string => [...jsonPieces(value, batchNodes)].join('');

/** A large answer shaped like a struct-logger trace: many small records under one key. */
const traceLike = (records: number) => ({
  jsonrpc: '2.0',
  id: 7,
  result: {
    gas: 21_000,
    failed: false,
    returnValue: '',
    structLogs: Array.from({ length: records }, (_, i) => ({
      pc: i,
      op: i % 2 ? 'PUSH1' : 'JUMPDEST',
      gas: 1000 - i,
      gasCost: 3,
      depth: 1,
      stack: ['0x1', `0x${i.toString(16)}`],
      storage: i % 100 === 0 ? { ['0'.repeat(64)]: '1'.padStart(64, '0') } : undefined,
      error: undefined,
    })),
  },
});

describe('server/jsonBody: large answers in slices', () => {
  it('counts values up to a limit', () => {
    expect(countNodes(1, 10)).to.equal(1);
    expect(countNodes([1, [2, 3], { a: 4 }], 100)).to.equal(7);
    expect(
      countNodes(
        Array.from({ length: 1000 }, () => 0),
        10,
      ),
    ).to.equal(10);
  });

  it('writes the same text as JSON.stringify, for random JSON values and large nested ones', () => {
    fc.assert(
      // Batches of 1 to 8 values: every path (members batched, a large member on its own, undefined members).
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 1, max: 8 }), (value, batchNodes) => {
        expect(joined(value, batchNodes)).to.equal(JSON.stringify(value));
        expect(joined({ a: value, b: undefined, c: [value, undefined] }, batchNodes)).to.equal(
          JSON.stringify({ a: value, b: undefined, c: [value, undefined] }),
        );
      }),
      { numRuns: 500 },
    );
    // A member named "__proto__" (JSON.parse makes it an own property) is a member, not a prototype.
    const proto = JSON.parse('{"__proto__":false,"a":[1,{"__proto__":{"b":2}}]}') as unknown;
    for (const batchNodes of [1, 2, 8]) expect(joined(proto, batchNodes)).to.equal(JSON.stringify(proto));
    const nested = [traceLike(3000), { txHash: '0x1', result: traceLike(2500).result }, [], {}, null, 'x', [undefined, 1]];
    expect(joined(nested)).to.equal(JSON.stringify(nested));
    const wide = traceLike(30_000);
    const pieces = [...jsonPieces(wide)];
    expect(pieces.length).to.be.greaterThan(10);
    expect(pieces.join('')).to.equal(JSON.stringify(wide));
  });

  it('writes a large answer with a yield point after every piece, not only after every write (issue 35)', async () => {
    // 30,000 records: about 150 pieces, 2.6 MB of text (ten writes). Every piece is a yield
    // point: between two, at most one batch of values is formatted, however fast the socket takes them.
    const value = traceLike(30_000);
    const pieces = [...jsonPieces(value)].length;
    let yieldPoints = 0;
    const server = createServer((_req, res) => {
      void writeLargeJson(res, value, {}, () => {
        yieldPoints++;
        return undefined;
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const response = await postJson(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {});
      expect(response.body).to.equal(JSON.stringify(value));
      expect(pieces).to.be.greaterThan(100);
      expect(yieldPoints).to.equal(pieces);
    } finally {
      server.close();
    }
  });

  describe('over HTTP', () => {
    const url = httpServerPerSuite();
    const rpc = fetchRpc(url);

    it('answers a trace of more than LARGE_NODES values in chunks, the same JSON a client reads whole', async function () {
      this.timeout(60_000);
      const [from] = await rpc<string[]>('eth_accounts');
      // A loop of 4,000 turns: about 28,000 struct logs, several values each.
      const init = '0x6c6000355b600190038060035700600052600d6013f3';
      const deployed = await rpc<string>('eth_sendTransaction', [{ from, data: init }]);
      const loop = (await rpc<{ contractAddress: string }>('eth_getTransactionReceipt', [deployed])).contractAddress;
      const hash = await rpc<string>('eth_sendTransaction', [{ from, to: loop, data: `0x${(4000).toString(16).padStart(64, '0')}`, gas: '0x30d40' }]);
      const response = await postJson(url(), { jsonrpc: '2.0', id: 1, method: 'debug_traceTransaction', params: [hash] });
      expect(response.status).to.equal(200);
      expect(response.headers['transfer-encoding']).to.equal('chunked');
      const body = JSON.parse(response.body) as { id: number; result: { structLogs: unknown[] } };
      expect(body.id).to.equal(1);
      expect(countNodes(body, LARGE_NODES)).to.equal(LARGE_NODES);
      expect(body.result.structLogs.length).to.be.greaterThan(20_000);
      // A small answer keeps its Content-Length.
      const small = await postJson(url(), { jsonrpc: '2.0', id: 2, method: 'eth_blockNumber', params: [] });
      expect(small.headers['content-length']).to.equal(String(Buffer.byteLength(small.body)));
    });
  });
});
