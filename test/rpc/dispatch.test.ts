/**
 * The JSON-RPC 2.0 envelope (src/rpc/dispatch.ts) and error mapping, through the public
 * entry points: createProvider for method calls, createServer over a real socket where
 * the envelope (ids, batches, notifications) matters.
 */
import { expect } from 'chai';
import { type ChainSimProvider, type ChainSimServer, ProviderRpcError, createProvider, createServer } from '../../src/index.js';
import { FIRST_ACCOUNT, errorStringPayload, postJson, requestError, revertingInitCode } from '../helpers/rpc.js';

interface RpcReply {
  jsonrpc: string;
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

describe('rpc/dispatch', () => {
  let provider: ChainSimProvider;
  let server: ChainSimServer;
  let url: string;
  const MAX_BATCH = 5;

  before(async () => {
    provider = createProvider({ quiet: true });
    await provider.ready();
    server = await createServer({ quiet: true, maxBatchSize: MAX_BATCH });
    url = (await server.listen(0, '127.0.0.1')).url;
  });

  after(async () => {
    await server?.close();
  });

  /** POST a JSON-RPC body and parse the reply (expects HTTP 200). */
  async function rpc(body: unknown): Promise<RpcReply | RpcReply[]> {
    const res = await postJson(url, body);
    expect(res.status).to.equal(200);
    return JSON.parse(res.body) as RpcReply | RpcReply[];
  }
  async function single(body: unknown): Promise<RpcReply> {
    const reply = await rpc(body);
    expect(reply).not.to.be.an('array');
    return reply as RpcReply;
  }

  describe('single requests over HTTP', () => {
    it('answers a request with jsonrpc, id and result', async () => {
      const reply = await single({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
      expect(reply).to.deep.equal({ jsonrpc: '2.0', id: 1, result: '0x539' });
    });

    it('treats missing params as an empty list', async () => {
      const reply = await single({ jsonrpc: '2.0', id: 2, method: 'eth_chainId' });
      expect(reply.result).to.equal('0x539');
    });

    it('treats params: null as an empty list', async () => {
      const reply = await single({ jsonrpc: '2.0', id: 2, method: 'eth_chainId', params: null });
      expect(reply.result).to.equal('0x539');
    });

    it('echoes ids exactly: numbers, strings, null', async () => {
      for (const id of [0, 1, -7, 1.5, 2 ** 53 - 1, 'abc', '', 'ünïcødé', '0x1', null]) {
        const reply = await single({ jsonrpc: '2.0', id, method: 'net_version', params: [] });
        expect(reply.id, `id ${JSON.stringify(id)}`).to.deep.equal(id);
        expect(reply.result).to.equal('1337');
      }
    });

    it('echoes the id on errors too', async () => {
      const reply = await single({ jsonrpc: '2.0', id: 'req-9', method: 'no_such_method', params: [] });
      expect(reply.id).to.equal('req-9');
      expect(reply.error?.code).to.equal(-32601);
    });

    it('sends nothing for a notification (no id)', async () => {
      const res = await postJson(url, { jsonrpc: '2.0', method: 'eth_chainId', params: [] });
      expect(res.status).to.equal(200);
      expect(res.body).to.equal('');
    });

    it('sends nothing for a failing notification either', async () => {
      const res = await postJson(url, { jsonrpc: '2.0', method: 'no_such_method', params: [] });
      expect(res.status).to.equal(200);
      expect(res.body).to.equal('');
    });

    it('rejects a wrong or missing jsonrpc version with -32600', async () => {
      for (const jsonrpc of ['1.0', '2', 2, 2.0, null, undefined]) {
        const reply = await single({ jsonrpc, id: 5, method: 'eth_chainId', params: [] });
        expect(reply.error?.code, `jsonrpc ${JSON.stringify(jsonrpc)}`).to.equal(-32600);
        expect(reply.error?.message).to.contain('jsonrpc');
        expect(reply.id).to.equal(5);
        expect(reply).not.to.have.property('result');
      }
    });

    it('rejects a missing or non-string method with -32600', async () => {
      for (const method of [undefined, 5, null, ['eth_chainId'], { name: 'eth_chainId' }, true]) {
        const reply = await single({ jsonrpc: '2.0', id: 6, method, params: [] });
        expect(reply.error?.code, `method ${JSON.stringify(method)}`).to.equal(-32600);
        expect(reply.error?.message).to.contain('method');
        expect(reply.id).to.equal(6);
      }
    });

    it('rejects ids that are neither string, number nor null with -32600 and id null', async () => {
      for (const id of [{}, [], true, [1]]) {
        const reply = await single({ jsonrpc: '2.0', id, method: 'eth_chainId', params: [] });
        expect(reply.error?.code, `id ${JSON.stringify(id)}`).to.equal(-32600);
        expect(reply.id).to.equal(null);
      }
    });

    it('rejects bodies that are not request objects with -32600', async () => {
      for (const body of ['"eth_chainId"', '42', 'null', 'true']) {
        const reply = await single(body);
        expect(reply.error?.code, body).to.equal(-32600);
        expect(reply.id).to.equal(null);
      }
    });

    it('rejects params that are not an array with -32602', async () => {
      for (const params of [{}, { 0: '0x1' }, 'latest', 5, true]) {
        const reply = await single({ jsonrpc: '2.0', id: 7, method: 'eth_blockNumber', params });
        expect(reply.error?.code, `params ${JSON.stringify(params)}`).to.equal(-32602);
      }
    });
  });

  describe('batches over HTTP', () => {
    it('answers in request order, mixing results and errors', async () => {
      const replies = (await rpc([
        { jsonrpc: '2.0', id: 'a', method: 'eth_chainId', params: [] },
        { jsonrpc: '2.0', id: 'b', method: 'no_such_method', params: [] },
        { jsonrpc: '2.0', id: 'c', method: 'net_version', params: [] },
        { jsonrpc: '2.0', id: 'd', method: 'eth_getBalance', params: ['0x1234'] },
        { jsonrpc: '2.0', id: 'e', method: 'eth_getBalance', params: [FIRST_ACCOUNT, 'latest'] },
      ])) as RpcReply[];
      expect(replies).to.be.an('array').with.length(5);
      expect(replies.map((r) => r.id)).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
      expect(replies[0]!.result).to.equal('0x539');
      expect(replies[1]!.error?.code).to.equal(-32601);
      expect(replies[2]!.result).to.equal('1337');
      expect(replies[3]!.error?.code).to.equal(-32602);
      expect(replies[4]!.result).to.equal('0x21e19e0c9bab2400000'); // 10000 ETH
    });

    it('keeps order when a slow call precedes fast ones', async () => {
      const replies = (await rpc([
        { jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ data: revertingInitCode(errorStringPayload('slow')) }] },
        { jsonrpc: '2.0', id: 2, method: 'eth_chainId' },
        { jsonrpc: '2.0', id: 3, method: 'eth_chainId' },
      ])) as RpcReply[];
      expect(replies.map((r) => r.id)).to.deep.equal([1, 2, 3]);
      expect(replies[0]!.error?.code).to.equal(3);
    });

    it('answers an empty batch with one -32600 error object, not an array', async () => {
      const reply = await rpc([]);
      expect(reply).not.to.be.an('array');
      expect((reply as RpcReply).error?.code).to.equal(-32600);
      expect((reply as RpcReply).id).to.equal(null);
    });

    it('answers a batch over maxBatchSize with one -32600 error', async () => {
      const batch = Array.from({ length: MAX_BATCH + 1 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_chainId' }));
      const reply = await rpc(batch);
      expect(reply).not.to.be.an('array');
      expect((reply as RpcReply).error?.code).to.equal(-32600);
      expect((reply as RpcReply).error?.message).to.contain(String(MAX_BATCH));
    });

    it('accepts a batch of exactly maxBatchSize', async () => {
      const batch = Array.from({ length: MAX_BATCH }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_chainId' }));
      const replies = (await rpc(batch)) as RpcReply[];
      expect(replies.map((r) => r.id)).to.deep.equal([0, 1, 2, 3, 4]);
    });

    it('sends an empty HTTP 200 body for a batch of notifications only', async () => {
      const res = await postJson(url, [
        { jsonrpc: '2.0', method: 'eth_chainId' },
        { jsonrpc: '2.0', method: 'no_such_method' },
      ]);
      expect(res.status).to.equal(200);
      expect(res.body).to.equal('');
    });

    it('leaves notifications out of a mixed batch', async () => {
      const replies = (await rpc([
        { jsonrpc: '2.0', method: 'eth_chainId' },
        { jsonrpc: '2.0', id: 9, method: 'eth_chainId' },
        { jsonrpc: '2.0', method: 'eth_chainId' },
      ])) as RpcReply[];
      expect(replies).to.deep.equal([{ jsonrpc: '2.0', id: 9, result: '0x539' }]);
    });

    it('answers invalid members of a batch with -32600 each', async () => {
      const replies = (await rpc([1, 'x', null, [], { jsonrpc: '2.0', id: 1, method: 'eth_chainId' }])) as RpcReply[];
      expect(replies).to.have.length(5);
      for (const reply of replies.slice(0, 4)) {
        expect(reply.error?.code).to.equal(-32600);
        expect(reply.id).to.equal(null);
      }
      expect(replies[4]!.result).to.equal('0x539');
    });
  });

  describe('method lookup', () => {
    it('answers -32601 naming an unknown method', async () => {
      const e = await requestError(provider, 'eth_doesNotExist', []);
      expect(e.error).to.be.instanceOf(ProviderRpcError);
      expect(e.code).to.equal(-32601);
      expect(e.message).to.contain('eth_doesNotExist');
    });

    it('treats Object.prototype names as unknown methods and keeps working', async () => {
      const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf', ''];
      for (const name of names) {
        const e = await requestError(provider, name, []);
        expect(e.code, name).to.equal(-32601);
      }
      for (const name of names) {
        const reply = await single({ jsonrpc: '2.0', id: name, method: name, params: [] });
        expect(reply.error?.code, name).to.equal(-32601);
        expect(reply.id).to.equal(name);
      }
      expect(await provider.request({ method: 'eth_chainId' })).to.equal('0x539');
      expect((await single({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' })).result).to.equal('0x539');
    });

    it('rejects a provider request without a string method with -32600', async () => {
      for (const args of [null, {}, { method: 5 }, 'eth_chainId']) {
        const e = await (async () => {
          try {
            await provider.request(args as never);
          } catch (error) {
            return error as ProviderRpcError;
          }
          throw new Error('expected an error');
        })();
        expect(e).to.be.instanceOf(ProviderRpcError);
        expect(e.code, JSON.stringify(args)).to.equal(-32600);
      }
    });
  });

  describe('disconnect', () => {
    it('after disconnect() a request is refused with 4900 (EIP-1193 Disconnected); a second disconnect() is harmless', async () => {
      const own = createProvider();
      expect(await own.request({ method: 'eth_chainId' })).to.equal('0x539');
      await own.disconnect();
      const e = await own.request({ method: 'eth_chainId' }).then(
        () => expect.fail('answered after disconnect()'),
        (error: unknown) => error as ProviderRpcError,
      );
      expect(e).to.be.instanceOf(ProviderRpcError);
      expect([e.code, e.message]).to.deep.equal([4900, 'the provider is disconnected: disconnect() was called']);
      await own.disconnect();
    });
  });

  describe('parameter count and shape', () => {
    it('rejects params that are not an array with -32602 (provider)', async () => {
      const e = await requestError(provider, 'eth_getBalance', { address: FIRST_ACCOUNT });
      expect(e.code).to.equal(-32602);
      expect(e.message).to.contain('array');
    });

    it('rejects too many params with -32602', async () => {
      const e1 = await requestError(provider, 'eth_blockNumber', ['latest']);
      expect(e1.code).to.equal(-32602);
      expect(e1.message).to.contain('too many arguments, want at most 0');
      const e2 = await requestError(provider, 'eth_getBalance', [FIRST_ACCOUNT, 'latest', 'extra']);
      expect(e2.code).to.equal(-32602);
      expect(e2.message).to.contain('too many arguments, want at most 2');
    });

    it('rejects too few params with -32602 naming the missing argument', async () => {
      const e1 = await requestError(provider, 'eth_getBalance', []);
      expect(e1.code).to.equal(-32602);
      expect(e1.message).to.contain('missing value for required argument 0 (address)');
      const e2 = await requestError(provider, 'eth_getStorageAt', [FIRST_ACCOUNT]);
      expect(e2.code).to.equal(-32602);
      expect(e2.message).to.contain('missing value for required argument 1 (position)');
      const e3 = await requestError(provider, 'eth_getBlockByNumber', ['latest']);
      expect(e3.code).to.equal(-32602);
      expect(e3.message).to.contain('missing value for required argument 1 (fullTransactions)');
    });

    it('accepts omitted and null optional params', async () => {
      const balance = await provider.request({ method: 'eth_getBalance', params: [FIRST_ACCOUNT] });
      expect(await provider.request({ method: 'eth_getBalance', params: [FIRST_ACCOUNT, null] })).to.equal(balance);
      expect(await provider.request({ method: 'eth_getBalance', params: [FIRST_ACCOUNT, 'latest'] })).to.equal(balance);
    });

    it('rejects null for a required param with -32602 naming it', async () => {
      const e = await requestError(provider, 'eth_getBalance', [null]);
      expect(e.code).to.equal(-32602);
      expect(e.message).to.contain('invalid argument 0 (address)');
    });

    it('names the argument position and name of a malformed param', async () => {
      const e = await requestError(provider, 'eth_getBalance', [FIRST_ACCOUNT, '0x01']);
      expect(e.code).to.equal(-32602);
      expect(e.message).to.contain('invalid argument 1 (block)');
      expect(e.message).to.contain('leading zero');
      const e2 = await requestError(provider, 'eth_call', [{ to: FIRST_ACCOUNT, gas: 21000 }]);
      expect(e2.code).to.equal(-32602);
      expect(e2.message).to.contain('invalid argument 0 (transaction).gas');
    });
  });

  describe('handler failures', () => {
    it('maps an unknown block to -32000 "header not found"', async () => {
      const e = await requestError(provider, 'eth_getBalance', [FIRST_ACCOUNT, '0xfffff']);
      expect(e.code).to.equal(-32000);
      expect(e.message).to.equal('header not found');
    });

    it('maps an unknown block hash to -32000', async () => {
      const e = await requestError(provider, 'eth_getBalance', [FIRST_ACCOUNT, { blockHash: `0x${'12'.repeat(32)}` }]);
      expect(e.code).to.equal(-32000);
      expect(e.message).to.contain('not found');
    });

    it('answers null, not an error, for a block getter with an unknown number', async () => {
      expect(await provider.request({ method: 'eth_getBlockByNumber', params: ['0xfffff', false] })).to.equal(null);
    });

    it('maps a revert with Error(string) to code 3 with reason and data', async () => {
      const payload = errorStringPayload('x');
      const e = await requestError(provider, 'eth_call', [{ data: revertingInitCode(payload) }]);
      expect(e.code).to.equal(3);
      expect(e.message).to.equal('execution reverted: x');
      expect(e.data).to.equal(payload);
    });

    it('maps a revert with a longer reason to code 3 over HTTP as well', async () => {
      const reason = 'a reason longer than one thirty-two byte word';
      const payload = errorStringPayload(reason);
      const reply = await single({ jsonrpc: '2.0', id: 3, method: 'eth_call', params: [{ input: revertingInitCode(payload) }, 'latest'] });
      expect(reply.error).to.deep.equal({ code: 3, message: `execution reverted: ${reason}`, data: payload });
    });

    it('maps a revert with non-standard data to code 3 with the raw bytes', async () => {
      const payload = '0xdeadbeef';
      const e = await requestError(provider, 'eth_call', [{ data: revertingInitCode(payload) }]);
      expect(e.code).to.equal(3);
      expect(e.message).to.equal('execution reverted');
      expect(e.data).to.equal(payload);
    });

    it('reports estimateGas of reverting code as a revert too', async () => {
      const payload = errorStringPayload('no gas for you');
      const e = await requestError(provider, 'eth_estimateGas', [{ data: revertingInitCode(payload) }]);
      expect(e.code).to.equal(3);
      expect(e.message).to.equal('execution reverted: no gas for you');
      expect(e.data).to.equal(payload);
    });

    it('passes the legacy sendAsync callback the same error object', async () => {
      const response = await new Promise<{ error: Error | null; response: unknown }>((resolve) => {
        provider.sendAsync({ id: 42, method: 'eth_getBalance', params: [] }, (error, response) => resolve({ error, response }));
      });
      expect((response.error as ProviderRpcError).code).to.equal(-32602);
      expect(response.response).to.deep.include({ jsonrpc: '2.0', id: 42 });
      expect((response.response as RpcReply).error?.code).to.equal(-32602);
    });

    it('still answers after all of the above', async () => {
      expect(await provider.request({ method: 'eth_blockNumber' })).to.match(/^0x[0-9a-f]+$/);
      expect((await single({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' })).result).to.match(/^0x[0-9a-f]+$/);
    });
  });
});
