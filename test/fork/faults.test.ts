import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { type ChainSimProvider, createProvider } from '../../src/index.js';
import { expectRpcError } from '../helpers/chain.js';

/** Requests naming this address misbehave as `mode` says; everything else is a healthy, empty chain at block 0x64. */
const BAD = '0x00000000000000000000000000000000000000bd';
const BLOCK_HASH = `0x${'ab'.repeat(32)}`;

type Mode = 'ok' | 'timeout' | '429' | '503' | 'malformed' | 'drop' | 'error';

interface FakeUpstream {
  url: string;
  mode: Mode;
  /** With 429 or 503: how many refusals before answering. */
  refusals: number;
  /** With 429: the Retry-After header sent. */
  retryAfter: string;
  requests: number;
  close(): Promise<void>;
}

function answer(call: { id: unknown; method: string; params: unknown[] }): unknown {
  const result = (() => {
    switch (call.method) {
      case 'eth_chainId':
        return '0x7a69';
      case 'eth_blockNumber':
        return '0x64';
      case 'eth_getBlockByNumber':
        return {
          number: '0x64',
          hash: BLOCK_HASH,
          parentHash: `0x${'01'.repeat(32)}`,
          timestamp: '0x6553f100',
          gasLimit: '0x1c9c380',
          gasUsed: '0x0',
          baseFeePerGas: '0x3b9aca00',
          difficulty: '0x0',
          miner: `0x${'00'.repeat(20)}`,
          stateRoot: `0x${'02'.repeat(32)}`,
          transactionsRoot: `0x${'03'.repeat(32)}`,
          receiptsRoot: `0x${'04'.repeat(32)}`,
          logsBloom: `0x${'00'.repeat(256)}`,
          extraData: '0x',
          mixHash: `0x${'05'.repeat(32)}`,
          nonce: '0x0000000000000000',
          sha3Uncles: `0x${'06'.repeat(32)}`,
          withdrawalsRoot: `0x${'07'.repeat(32)}`,
          blobGasUsed: '0x0',
          excessBlobGas: '0x0',
          parentBeaconBlockRoot: `0x${'08'.repeat(32)}`,
          requestsHash: `0x${'09'.repeat(32)}`,
          transactions: [],
        };
      case 'eth_getBalance':
        return call.params[0] === BAD ? '0xde0b6b3a7640000' : '0x0';
      case 'eth_getTransactionCount':
        return '0x0';
      case 'eth_getCode':
        return '0x';
      case 'eth_getStorageAt':
        return `0x${'00'.repeat(32)}`;
      default:
        return undefined;
    }
  })();
  return result === undefined
    ? { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: `no ${call.method}` } }
    : { jsonrpc: '2.0', id: call.id, result };
}

async function startFake(): Promise<FakeUpstream> {
  const fake: FakeUpstream = { url: '', mode: 'ok', refusals: 0, retryAfter: '1', requests: 0, close: async () => {} };
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      fake.requests++;
      const parsed = JSON.parse(body) as unknown;
      const calls = (Array.isArray(parsed) ? parsed : [parsed]) as Array<{ id: unknown; method: string; params: unknown[] }>;
      const bad = JSON.stringify(calls).includes(BAD);
      const mode = bad ? fake.mode : 'ok';
      if (mode === 'timeout') return; // never answers
      if (mode === 'drop') return request.socket.destroy();
      if (mode === '429' && fake.refusals > 0) {
        fake.refusals--;
        response.writeHead(429, { 'retry-after': fake.retryAfter });
        return response.end('slow down');
      }
      if (mode === '503' && fake.refusals > 0) {
        fake.refusals--;
        response.writeHead(503);
        return response.end('unavailable');
      }
      if (mode === 'malformed') {
        response.writeHead(200, { 'content-type': 'application/json' });
        return response.end('{"jsonrpc":"2.0","id":0,"resu');
      }
      if (mode === 'error') {
        response.writeHead(200, { 'content-type': 'application/json' });
        const errors = calls.map((call) => ({ jsonrpc: '2.0', id: call.id, error: { code: -32000, message: 'missing trie node (state is pruned)' } }));
        return response.end(JSON.stringify(Array.isArray(parsed) ? errors : errors[0]));
      }
      const answers = calls.map(answer);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://user:secret@127.0.0.1:${(server.address() as AddressInfo).port}/`;
  fake.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

describe('forking: a misbehaving upstream', function () {
  this.timeout(30_000);
  let fake: FakeUpstream;
  let provider: ChainSimProvider;
  const rpc = <T = unknown>(method: string, params: unknown[] = []) => provider.request({ method, params }) as Promise<T>;

  beforeEach(async () => {
    fake = await startFake();
    provider = createProvider({ quiet: true, forkCache: false, fork: fake.url, forkTimeout: 300, forkRetries: 1 });
    expect(await rpc('eth_blockNumber')).to.equal('0x64');
  });
  afterEach(async () => {
    await provider.disconnect();
    await fake.close();
  });

  /** The node still answers what it has, and a healthy key works, after the failure. */
  async function stillServing(): Promise<void> {
    expect(await rpc('eth_blockNumber')).to.equal('0x64');
    const [dev] = await rpc<string[]>('eth_accounts');
    expect(await rpc('eth_getBalance', [dev, 'latest'])).to.equal('0x21e19e0c9bab2400000');
    const hash = await rpc<string>('eth_sendTransaction', [{ from: dev, to: '0x00000000000000000000000000000000000000aa', value: '0x1' }]);
    expect((await rpc<{ status: string }>('eth_getTransactionReceipt', [hash])).status).to.equal('0x1');
    expect(await rpc('eth_blockNumber')).to.equal('0x65');
  }

  it('a timeout fails the request with -32000 naming the upstream (masked), method and key', async () => {
    fake.mode = 'timeout';
    const before = fake.requests;
    const error = await expectRpcError(rpc('eth_getBalance', [BAD, 'latest']), -32000, /timed out after 300 ms/);
    expect(fake.requests - before).to.equal(2); // --fork-retries 1: one retry
    expect(error.message).to.include('eth_getBalance');
    expect(error.message).to.include(BAD);
    expect(error.message).to.include('http://***:***@127.0.0.1');
    expect(error.message).to.not.include('secret');
    await stillServing();
  });

  it('a dropped connection and a malformed answer fail the request, not the node; a later read retries', async () => {
    fake.mode = 'drop';
    await expectRpcError(rpc('eth_getBalance', [BAD, 'latest']), -32000, /unreachable/);
    fake.mode = 'malformed';
    await expectRpcError(rpc('eth_getBalance', [BAD, 'latest']), -32000, /malformed answer/);
    fake.mode = 'error';
    await expectRpcError(rpc('eth_getBalance', [BAD, 'latest']), -32000, /upstream error -32000: missing trie node/);
    await stillServing();
    fake.mode = 'ok';
    expect(await rpc('eth_getBalance', [BAD, 'latest'])).to.equal('0xde0b6b3a7640000');
  });

  it('--fork-requests-per-second spaces upstream requests', async () => {
    await provider.disconnect();
    provider = createProvider({ quiet: true, forkCache: false, fork: fake.url, forkRequestsPerSecond: 5 });
    await rpc('eth_blockNumber');
    const started = Date.now();
    for (let i = 0; i < 3; i++) await rpc('eth_getBalance', [`0x${(0xc000 + i).toString(16).padStart(40, '0')}`, 'latest']);
    expect(Date.now() - started).to.be.at.least(400); // three requests at most five a second, after the start-up ones
  });

  it('a reset to an upstream that cannot be reached fails with -32000 and leaves the chain as it was', async () => {
    const [dev] = await rpc<string[]>('eth_accounts');
    await rpc('eth_sendTransaction', [{ from: dev, to: '0x00000000000000000000000000000000000000bb', value: '0x2' }]);
    expect(await rpc('eth_blockNumber')).to.equal('0x65');
    await expectRpcError(rpc('hardhat_reset', [{ forking: { jsonRpcUrl: 'http://127.0.0.1:1/', blockNumber: 5 } }]), -32000, /127\.0\.0\.1:1.*unreachable/);
    // Not reset: the local block and its state stay, and the old upstream still serves.
    expect(await rpc('eth_blockNumber')).to.equal('0x65');
    expect(await rpc('eth_getBalance', ['0x00000000000000000000000000000000000000bb', 'latest'])).to.equal('0x2');
    expect(await rpc('eth_getBalance', [BAD, 'latest'])).to.equal('0xde0b6b3a7640000');
  });

  it('HTTP 429: waits Retry-After and retries', async () => {
    fake.mode = '429';
    fake.refusals = 1;
    const started = Date.now();
    expect(await rpc('eth_getBalance', [BAD, 'latest'])).to.equal('0xde0b6b3a7640000');
    expect(Date.now() - started).to.be.at.least(900);
  });

  it('HTTP 429 with a Retry-After beyond 30 s fails at once, naming the wait; the node keeps serving', async () => {
    fake.mode = '429';
    fake.refusals = 5;
    fake.retryAfter = '120';
    const before = fake.requests;
    const started = Date.now();
    await expectRpcError(rpc('eth_getBalance', [BAD, 'latest']), -32000, /HTTP 429.*Retry-After 120 s is longer than 30 s/);
    expect(Date.now() - started).to.be.below(5000);
    expect(fake.requests - before).to.equal(1); // no retry
    await stillServing();
  });

  it('HTTP 5xx: retried, failing with the status once the retries are spent; nothing failed is kept', async () => {
    fake.mode = '503';
    fake.refusals = 5;
    const before = fake.requests;
    await expectRpcError(rpc('eth_getBalance', [BAD, 'latest']), -32000, /HTTP 503/);
    expect(fake.requests - before).to.equal(2); // --fork-retries 1
    await stillServing();
    fake.refusals = 1; // the retry gets the answer
    expect(await rpc('eth_getBalance', [BAD, 'latest'])).to.equal('0xde0b6b3a7640000');
  });

  it('a transaction whose execution needs a failing key is refused and leaves the chain as it was', async () => {
    fake.mode = 'timeout';
    const [dev] = await rpc<string[]>('eth_accounts');
    await expectRpcError(rpc('eth_sendTransaction', [{ from: dev, to: BAD, value: '0x1' }]), -32000, /fork upstream/);
    await expectRpcError(rpc('eth_call', [{ from: dev, to: BAD }, 'latest']), -32000, /fork upstream/);
    expect(await rpc('eth_blockNumber')).to.equal('0x64');
    expect(await rpc('eth_getTransactionCount', [dev, 'latest'])).to.equal('0x0');
    // With its gas given the transaction is admitted; the block builder then cannot run it: it leaves the pool, nothing else changes.
    const quiet = console.error;
    console.error = () => {};
    try {
      await rpc('eth_sendTransaction', [{ from: dev, to: BAD, value: '0x1', gas: '0x5208' }]);
      expect(await rpc('eth_blockNumber')).to.equal('0x65'); // an empty block: the transaction was dropped
    } finally {
      console.error = quiet;
    }
    expect(await rpc('eth_getTransactionCount', [dev, 'latest'])).to.equal('0x0');
    expect(await rpc('eth_getBalance', [dev, 'latest'])).to.equal('0x21e19e0c9bab2400000');
  });
});
