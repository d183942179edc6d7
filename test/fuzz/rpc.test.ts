/**
 * Property-based fuzzing of the whole method table with fast-check, through the in-process
 * provider and over HTTP. On every case: exactly one well-formed JSON-RPC response per request
 * with the right id (none for a notification), never an internal error, a short error message,
 * the node still up, and a failed request changes nothing (head, state root, pool, filters).
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { bytesToHex } from '@ethereumjs/util';
import { type ChainSimProvider, type ChainSimServer, ProviderRpcError, createProvider, createServer } from '../../src/index.js';
import type { SimNode } from '../../src/startup/node.js';
import { buildMethodTable } from '../../src/rpc/table.js';
import { FIRST_ACCOUNT, SECOND_ACCOUNT, postJson, withTimeout } from '../helpers/rpc.js';
import { blockOverrides, body as bodyArbitrary, call, jsValue, stateOverrides } from './arbitraries.js';

const table = buildMethodTable();
/** Codes a client may see; -32603 would be a bug. */
const CLIENT_CODES = [-32700, -32600, -32601, -32602, -32000, -32005, 3];
/** eth_simulateV1's request-level codes (go-ethereum's). */
const SIMULATE_CODES = [-38010, -38011, -38012, -38013, -38014, -38015, -38020, -38021, -38024, -38025, -38026];
const MAX_MESSAGE = 2000;
const CALL_TIMEOUT_MS = 10_000;
/** Each property runs as many cases as fit in its time budget: the suite's time stays bounded. */
const IN_PROCESS_BUDGET_MS = 3_500;
const HTTP_BUDGET_MS = 5_000;
const MAX_RUNS = 1_000_000;
const MAX_BATCH = 1000;

interface NodeState {
  readonly head: string;
  readonly root: string;
  readonly pool: number;
  readonly filters: number;
}

async function stateOf(node: SimNode): Promise<NodeState> {
  await node.chain.settling; // a send's block is built after its answer
  return {
    head: node.chain.head.hashHex,
    root: bytesToHex(await node.chain.stateRoot()),
    pool: node.chain.pool.size,
    filters: node.filters.size,
  };
}

/**
 * Successful calls may legitimately change anything; two kinds would make later cases slow or
 * racy: mining thousands of blocks (capped here) and interval mining (stopped after each case).
 */
const MINING_RECORDS = new Set(['chain_mine', 'evm_mine', 'hardhat_mine', 'anvil_mine']);

function neutralise(method: unknown, params: unknown): unknown {
  const canonical = typeof method === 'string' ? table.get(method)?.name : undefined;
  // A sync send waits up to 2 s for its block (automine may be off): 1 ms keeps the runs coming.
  if (typeof canonical === 'string' && /TransactionSync$/.test(canonical) && Array.isArray(params) && params.length <= 2) return [params[0], 1];
  // The chain id stays 1337, which the last property checks: a random valid id would outlive the run (seen: 0xfe).
  if (canonical === 'anvil_setChainId' && Array.isArray(params) && params.length === 1) return ['0x539'];
  // Every name that mines a count of blocks: a run of a million reserved blocks is legal, but reading
  // deep into it hashes the run, which would spend the fuzzing budget of the properties after it.
  if (!MINING_RECORDS.has(canonical ?? '') || !Array.isArray(params)) return params;
  const big = (v: unknown) => (typeof v === 'number' && v > 64) || (typeof v === 'string' && /^0x[0-9a-f]+$/i.test(v) && BigInt(v) > 64n);
  const first: unknown = params[0];
  const blocks = typeof first === 'object' && first !== null ? (first as { blocks?: unknown }).blocks : first;
  return big(blocks) ? [] : params;
}

function neutraliseBody(body: unknown): unknown {
  const one = (item: unknown) =>
    typeof item === 'object' && item !== null && !Array.isArray(item) && 'params' in item
      ? { ...item, params: neutralise((item as { method?: unknown }).method, (item as { params?: unknown }).params) }
      : item;
  return Array.isArray(body) ? body.map(one) : one(body);
}

function checkError(error: { code: unknown; message: unknown }, where: string): void {
  expect(Number.isInteger(error.code), `${where}: integer code`).to.equal(true);
  // eth_simulateV1's own codes are answers too (a batch response does not say which method it answers).
  const allowed = /simulateV1|^response$/.test(where) ? [...CLIENT_CODES, ...SIMULATE_CODES] : [...CLIENT_CODES];
  // EIP-7966's timeout of eth_sendTransactionSync and eth_sendRawTransactionSync.
  if (/TransactionSync$|^response$/.test(where)) allowed.push(4);
  expect(allowed, `${where}: code ${String(error.code)} (${String(error.message).slice(0, 200)})`).to.include(error.code);
  expect(typeof error.message, `${where}: message`).to.equal('string');
  expect((error.message as string).length, `${where}: message length`).to.be.within(1, MAX_MESSAGE);
}

type RequestId = string | number | null;

/** The id each request of a body must be answered with, per the dispatcher's rules; undefined: no answer. */
function expectedIds(body: unknown): { single: boolean; ids: Array<RequestId | undefined> } {
  const idOf = (item: unknown): RequestId | undefined => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return null;
    const fields = item as Record<string, unknown>;
    const hasId = Object.hasOwn(fields, 'id');
    const id = fields.id;
    const validId = id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
    if (hasId && !validId) return null;
    const replyId = hasId ? (id as RequestId) : null;
    if (fields.jsonrpc !== '2.0' || typeof fields.method !== 'string') return replyId;
    return hasId ? replyId : undefined; // a notification gets no answer
  };
  if (!Array.isArray(body) || body.length === 0 || body.length > MAX_BATCH) return { single: true, ids: [Array.isArray(body) ? null : idOf(body)] };
  return { single: false, ids: body.map(idOf) };
}

/** Check a dispatcher answer against the body; true if every answered request failed and none was a notification. */
function checkAnswer(body: unknown, answer: unknown): boolean {
  const { single, ids } = expectedIds(body);
  const answered = ids.filter((id) => id !== undefined);
  const responses: unknown[] = single ? (answer === undefined ? [] : [answer]) : answer === undefined ? [] : (answer as unknown[]);
  if (!single) expect(answer === undefined || Array.isArray(answer), 'a batch answer is an array').to.equal(true);
  expect(
    responses.map((r) => (r as { id: unknown }).id),
    'one response per request, in order, with the right id',
  ).to.deep.equal(answered);
  let allFailed = true;
  for (const response of responses) {
    const r = response as Record<string, unknown>;
    expect(r.jsonrpc).to.equal('2.0');
    const keys = Object.keys(r).sort();
    if ('error' in r) {
      expect(keys).to.deep.equal(['error', 'id', 'jsonrpc']);
      const error = r.error as { code: unknown; message: unknown; data?: unknown };
      expect(Object.keys(error).every((k) => ['code', 'message', 'data'].includes(k))).to.equal(true);
      checkError(error, 'response');
      // EIP-7966: a sync send's timeout (code 4) leaves its transaction pooled: an answer, not a failure.
      if (error.code === 4) allFailed = false;
    } else {
      expect(keys).to.deep.equal(['id', 'jsonrpc', 'result']);
      allFailed = false;
    }
  }
  return allFailed && ids.every((id) => id !== undefined);
}

describe('fuzz: the whole method table with hostile input', function () {
  this.timeout(60_000);

  let internalErrors: unknown[];
  const originalConsoleError = console.error;
  beforeEach(() => {
    internalErrors = [];
    // The node logs internal errors with console.error: count them as failures instead of printing.
    console.error = (...args: unknown[]) => internalErrors.push(args);
  });
  afterEach(() => {
    console.error = originalConsoleError;
    expect(internalErrors, 'internal errors logged').to.deep.equal([]);
  });

  describe('in process', () => {
    let provider: ChainSimProvider;
    let node: SimNode;

    before(async () => {
      provider = createProvider({ quiet: true });
      node = await provider.ready();
    });
    after(() => provider?.disconnect());

    it('provider.request: a result or a well-formed error, and a failed call changes nothing', async () => {
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(call(table, jsValue), async ({ method, params }) => {
          runs++;
          const args = { method, params: neutralise(method, params) } as { method: string; params?: readonly unknown[] };
          const before = await stateOf(node);
          let failed = false;
          try {
            const result = await withTimeout(provider.request(args), CALL_TIMEOUT_MS, method);
            expect(() => JSON.stringify(result), 'the result is JSON').to.not.throw();
          } catch (error) {
            expect(error, String(error)).to.be.instanceOf(ProviderRpcError);
            // EIP-7966: a sync send that was not mined in time answers code 4 with its transaction
            // pooled, as a plain send with automine off would: an answer, not a failed call.
            checkError(error as ProviderRpcError, method);
            failed = !(/TransactionSync$/.test(method) && (error as ProviderRpcError).code === 4);
          } finally {
            await node.chain.setIntervalMining(0);
          }
          if (failed) expect(await stateOf(node), `state after failed ${method}`).to.deep.equal(before);
        }),
        { numRuns: MAX_RUNS, interruptAfterTimeLimit: IN_PROCESS_BUDGET_MS, markInterruptAsFailure: false },
      );
      expect(runs).to.be.greaterThan(100);
    });

    it('state and block overrides never leak: head, state root, pool, filters and the overridden accounts unchanged', async () => {
      let runs = 0;
      const methods = ['eth_call', 'chain_call', 'eth_estimateGas', 'eth_createAccessList', 'eth_simulateV1'];
      const request = fc.record({
        method: fc.constantFrom(...methods),
        to: fc.constantFrom(SECOND_ACCOUNT, '0x0000000000000000000000000000000000000002', '0x00000000000000000000000000000000000000c1'),
        block: fc.constantFrom('latest', 'pending', '0x0'),
        state: stateOverrides(jsValue),
        header: fc.option(blockOverrides(jsValue), { nil: undefined }),
      });
      await fc.assert(
        fc.asyncProperty(request, async ({ method, to, block, state, header }) => {
          runs++;
          const params =
            method === 'eth_simulateV1'
              ? [
                  {
                    blockStateCalls: [
                      { stateOverrides: state, blockOverrides: header, calls: [{ from: FIRST_ACCOUNT, to, value: '0x1' }] },
                      { calls: [{ to }] },
                    ],
                    traceTransfers: true,
                  },
                  block,
                ]
              : method === 'eth_createAccessList' || header === undefined
                ? [{ from: FIRST_ACCOUNT, to }, block, state]
                : [{ from: FIRST_ACCOUNT, to }, block, state, header];
          const accounts = Object.keys(state as object);
          const look = () =>
            Promise.all(
              accounts.flatMap((a) => [
                provider.request({ method: 'eth_getBalance', params: [a, 'latest'] }),
                provider.request({ method: 'eth_getCode', params: [a, 'latest'] }),
                provider.request({ method: 'eth_getStorageAt', params: [a, '0x0', 'latest'] }),
              ]),
            );
          const before = await stateOf(node);
          const seen = await look();
          try {
            await withTimeout(provider.request({ method, params }), CALL_TIMEOUT_MS, method);
          } catch (error) {
            expect(error, String(error)).to.be.instanceOf(ProviderRpcError);
            checkError(error as ProviderRpcError, method);
          }
          expect(await stateOf(node), `state after ${method}`).to.deep.equal(before);
          expect(await look(), `overridden accounts after ${method}`).to.deep.equal(seen);
          // The precompiles are where they were for the next call: sha256("") at 0x02.
          expect(await provider.request({ method: 'eth_call', params: [{ to: '0x0000000000000000000000000000000000000002' }] })).to.equal(
            '0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
          );
        }),
        { numRuns: MAX_RUNS, interruptAfterTimeLimit: IN_PROCESS_BUDGET_MS, markInterruptAsFailure: false },
      );
      expect(runs).to.be.greaterThan(20);
    });

    it('dispatcher.handle: envelopes and batches get one well-formed response each with the right id', async () => {
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(bodyArbitrary(table), async (raw) => {
          runs++;
          const body = neutraliseBody(raw);
          const before = await stateOf(node);
          let allFailed: boolean;
          try {
            allFailed = checkAnswer(body, await withTimeout(node.dispatcher.handle(body), CALL_TIMEOUT_MS, 'handle'));
          } finally {
            await node.chain.setIntervalMining(0);
          }
          if (allFailed) expect(await stateOf(node), 'state after a failed body').to.deep.equal(before);
        }),
        { numRuns: MAX_RUNS, interruptAfterTimeLimit: IN_PROCESS_BUDGET_MS, markInterruptAsFailure: false },
      );
      expect(runs).to.be.greaterThan(100);
      expect(await provider.request({ method: 'eth_chainId' })).to.equal('0x539');
    });
  });

  describe('over HTTP', () => {
    let server: ChainSimServer;
    let url: string;

    before(async () => {
      // Room for the 10 MB strings below; the 413 for larger bodies is tested in e2e/http.
      server = await createServer({ quiet: true, maxBodyBytes: 32 * 1024 * 1024 });
      ({ url } = await server.listen(0, '127.0.0.1'));
    });
    after(() => server?.close());

    it('every body gets HTTP 200 and one well-formed response per request with the right id', async () => {
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(bodyArbitrary(table), async (raw) => {
          runs++;
          const text = JSON.stringify(neutraliseBody(raw)) ?? 'null';
          const sent: unknown = JSON.parse(text); // what the server sees (-0 is 0, NaN is null, ...)
          const before = await stateOf(server.node);
          let allFailed: boolean;
          try {
            const res = await withTimeout(postJson(url, text), CALL_TIMEOUT_MS, 'POST');
            expect(res.status).to.equal(200);
            expect(res.headers['content-type']).to.equal('application/json');
            allFailed = checkAnswer(sent, res.body === '' ? undefined : JSON.parse(res.body));
          } finally {
            await server.node.chain.setIntervalMining(0);
          }
          if (allFailed) expect(await stateOf(server.node), 'state after a failed body').to.deep.equal(before);
        }),
        { numRuns: MAX_RUNS, interruptAfterTimeLimit: HTTP_BUDGET_MS, markInterruptAsFailure: false },
      );
      expect(runs).to.be.greaterThan(100);
    });

    it('10 MB strings in any parameter: a short error or a result, over HTTP and in process', async () => {
      const huge = 'z'.repeat(10 * 1024 * 1024);
      const hugeHex = `0x${'ab'.repeat(5 * 1024 * 1024)}`;
      const cases: Array<[string, unknown[]]> = [
        ['eth_sendRawTransaction', [hugeHex]],
        ['eth_getBalance', [huge, 'latest']],
        ['eth_call', [{ to: FIRST_ACCOUNT, data: hugeHex }, 'latest']],
        ['chain_compileSerpent', [huge]],
        ['chain_loadState', [hugeHex]],
        ['eth_getLogs', [{ address: huge }]],
        ['web3_sha3', [hugeHex]],
        ['eth_sign', [FIRST_ACCOUNT, huge]],
      ];
      const before = await stateOf(server.node);
      for (const [method, params] of cases) {
        const res = await withTimeout(postJson(url, { jsonrpc: '2.0', id: method, method, params }), CALL_TIMEOUT_MS, method);
        expect(res.status, method).to.equal(200);
        expect(res.body.length, `${method}: the answer does not echo the input`).to.be.below(MAX_MESSAGE + 200);
        const reply = JSON.parse(res.body) as { id: string; error?: { code: number; message: string } };
        expect(reply.id).to.equal(method);
        if (reply.error) checkError(reply.error, method);
        expect(await stateOf(server.node), method).to.deep.equal(before);
      }
      const provider = createProvider({ quiet: true });
      try {
        for (const [method, params] of cases) {
          try {
            await withTimeout(provider.request({ method, params }), CALL_TIMEOUT_MS, method);
          } catch (error) {
            checkError(error as ProviderRpcError, method);
          }
        }
      } finally {
        await provider.disconnect();
      }
    });
  });
});

/** Failures the fuzzer found, pinned down (each once changed state or answered -32603). */
describe('fuzz: regressions', () => {
  let provider: ChainSimProvider;
  let node: SimNode;

  beforeEach(async () => {
    provider = createProvider({ quiet: true });
    node = await provider.ready();
  });
  afterEach(() => provider.disconnect());

  async function failsWithoutChange(method: string, params: unknown[], code: number): Promise<void> {
    const before = await stateOf(node);
    let caught: unknown;
    try {
      await provider.request({ method, params });
    } catch (error) {
      caught = error;
    }
    expect(caught, `${method} must fail`).to.be.instanceOf(ProviderRpcError);
    expect((caught as ProviderRpcError).code, (caught as Error).message).to.equal(code);
    expect(await stateOf(node), `state after failed ${method}`).to.deep.equal(before);
  }

  it('hardhat_mine whose later blocks would overflow the timestamp mines nothing', async () => {
    await failsWithoutChange('hardhat_mine', ['0x2', '0xffffffffffffffff'], -32602);
  });

  it('a send refused because the clock is at 2^64-1 leaves the pool as it was', async () => {
    await provider.request({ method: 'evm_setTime', params: ['0xfffffffffffffffe'] });
    await provider.request({ method: 'evm_mine' });
    await provider.request({ method: 'eth_sendTransaction', params: [{ from: FIRST_ACCOUNT, to: FIRST_ACCOUNT }] }); // mined at 2^64-1
    await failsWithoutChange('eth_sendTransaction', [{ from: FIRST_ACCOUNT, to: FIRST_ACCOUNT }], -32000);
  });

  it('chain_loadState with 10 MB of hex is -32602, not a stack overflow', async () => {
    await failsWithoutChange('chain_loadState', [`0x${'ab'.repeat(5 * 1024 * 1024)}`], -32602);
  });

  it('eth_call whose gas * maxFeePerGas exceeds 2^256-1 is -32602, not an internal error', async () => {
    const huge = `0x${'f'.repeat(64)}`;
    await failsWithoutChange('eth_call', [{ to: FIRST_ACCOUNT, maxFeePerGas: huge, gas: '0x5208' }, 'latest'], -32602);
    await failsWithoutChange('eth_call', [{ to: FIRST_ACCOUNT, gasPrice: huge, gas: '0x5208' }, 'latest'], -32602);
  });

  it('chain_loadState with a bigint field (in process) is -32602, not a serialisation crash', async () => {
    await failsWithoutChange('chain_loadState', [{ alloc: {}, chainId: 0n }], -32602);
  });
});
