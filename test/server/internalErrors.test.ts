/**
 * An exception inside a handler is a bug: the client gets -32603 with a short message, the
 * error is reported once (with its stack) to the server-side hook, and the node keeps serving.
 * The failing methods live in a test-only method table; the engine behind them is real.
 */
import { expect } from 'chai';
import type { Server } from 'node:http';
import { type SimNode, startNode } from '../../src/node.js';
import { Dispatcher } from '../../src/rpc/dispatch.js';
import { RpcError } from '../../src/rpc/errors.js';
import { defineMethod } from '../../src/rpc/method.js';
import { buildMethodTable } from '../../src/rpc/table.js';
import { createCorsPolicy } from '../../src/server/cors.js';
import { createHostCheck } from '../../src/server/hostCheck.js';
import { createRpcHttpServer, listen } from '../../src/server/http.js';
import { postJson } from '../helpers/rpc.js';

const SECRET = 'secret detail /home/user/project';

const testMethods = [
  defineMethod('test_throws', [], () => {
    throw new TypeError(`cannot read properties of undefined (${SECRET})`);
  }),
  defineMethod('test_rejects', [], async () => {
    await new Promise((resolve) => setImmediate(resolve));
    throw new RangeError(SECRET);
  }),
  defineMethod('test_throwsString', [], () => {
    throw SECRET; // eslint-disable-line no-throw-literal -- a dependency might
  }),
  defineMethod('test_throwsUndefined', [], () => {
    throw undefined; // eslint-disable-line no-throw-literal
  }),
  defineMethod('test_blockNumber', [], async ({ chain }) => `0x${chain.head.number.toString(16)}`),
];

interface Reported {
  readonly error: unknown;
  readonly method: string;
}

describe('server: internal errors', function () {
  this.timeout(30_000);

  let node: SimNode;
  let dispatcher: Dispatcher;
  const reported: Reported[] = [];

  before(async () => {
    node = await startNode({ quiet: true });
    dispatcher = new Dispatcher(
      buildMethodTable([testMethods]),
      { chain: node.chain, filters: node.filters, rules: 'plain', version: 'test', requestLog: { enabled: false } },
      { maxBatchSize: 100, onInternalError: (error, method) => reported.push({ error, method }) },
    );
  });
  beforeEach(() => {
    reported.length = 0;
  });
  after(() => node.close());

  for (const method of ['test_throws', 'test_rejects', 'test_throwsString', 'test_throwsUndefined']) {
    it(`${method}: -32603 "internal error", reported once, nothing of the error sent`, async () => {
      const response = await dispatcher.handle({ jsonrpc: '2.0', id: 7, method, params: [] });
      expect(response).to.deep.equal({ jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'internal error' } });
      expect(JSON.stringify(response)).to.not.contain('secret');
      expect(reported).to.have.length(1);
      expect(reported[0]!.method).to.equal(method);
    });
  }

  it('hands the original error, stack included, to the server-side hook', async () => {
    await dispatcher.handle({ jsonrpc: '2.0', id: 1, method: 'test_throws', params: [] });
    const { error } = reported[0]!;
    expect(error).to.be.instanceOf(TypeError);
    expect((error as Error).stack)
      .to.contain(SECRET)
      .and.to.match(/\n\s+at /);
  });

  it('answers the rest of a batch and reports only the failing call', async () => {
    const response = await dispatcher.handle([
      { jsonrpc: '2.0', id: 1, method: 'test_throws', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'test_blockNumber', params: [] },
      { jsonrpc: '2.0', method: 'test_rejects', params: [] },
    ]);
    expect(response).to.deep.equal([
      { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'internal error' } },
      { jsonrpc: '2.0', id: 2, result: '0x0' },
    ]);
    // The notification failed too: reported, but not answered.
    expect(reported.map((r) => r.method)).to.deep.equal(['test_throws', 'test_rejects']);
  });

  it('the in-process path (provider.request) rejects with -32603 too', async () => {
    let caught: unknown;
    try {
      await dispatcher.call('test_throws', []);
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(RpcError);
    expect(caught).to.include({ code: -32603, message: 'internal error' });
    expect(reported).to.have.length(1);
  });

  it('over HTTP: 200 with -32603 and a short body, and the server keeps serving', async () => {
    const server: Server = createRpcHttpServer(dispatcher, {
      maxBodyBytes: 1024 * 1024,
      hostCheck: createHostCheck(['localhost'], '127.0.0.1'),
      cors: createCorsPolicy(['*']),
    });
    const { port } = await listen(server, 0, '127.0.0.1');
    const url = `http://127.0.0.1:${port}`;
    try {
      for (let i = 0; i < 20; i++) {
        const res = await postJson(url, { jsonrpc: '2.0', id: i, method: i % 2 ? 'test_rejects' : 'test_throws', params: [] });
        expect(res.status).to.equal(200);
        expect(res.body).to.equal(JSON.stringify({ jsonrpc: '2.0', id: i, error: { code: -32603, message: 'internal error' } }));
      }
      expect(reported).to.have.length(20);
      const ok = await postJson(url, { jsonrpc: '2.0', id: 99, method: 'test_blockNumber', params: [] });
      expect(JSON.parse(ok.body)).to.deep.equal({ jsonrpc: '2.0', id: 99, result: '0x0' });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
