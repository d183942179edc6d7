import { expect } from 'chai';
import { type ChainSimProvider, createProvider } from '../../src/index.js';
import { expectRpcError } from '../helpers/chain.js';
import { fakeUpstreamBlock } from '../helpers/fakeUpstreamBlock.js';
import { type FaultyUpstream, type JsonRpcCall, startFaultyUpstream } from '../helpers/faultyUpstream.js';

/** Requests naming this address misbehave as `mode` says; everything else is a healthy, empty chain at block 0x64. */
const BAD = '0x00000000000000000000000000000000000000bd';
const BLOCK_HASH = `0x${'ab'.repeat(32)}`;

function answer(call: JsonRpcCall): unknown {
  const result = (() => {
    switch (call.method) {
      case 'eth_chainId':
        return '0x7a69';
      case 'eth_blockNumber':
        return '0x64';
      case 'eth_getBlockByNumber':
        return fakeUpstreamBlock({ hash: BLOCK_HASH });
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

const startFake = (): Promise<FaultyUpstream> => startFaultyUpstream({ badAddress: BAD, answer });

describe('forking: a misbehaving upstream', function () {
  this.timeout(30_000);
  let fake: FaultyUpstream;
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

  it('an answer past --fork-max-response-bytes is abandoned as it streams: -32000 naming the limit, memory given back, no retry', async () => {
    await provider.disconnect();
    provider = createProvider({ quiet: true, forkCache: false, fork: fake.url, forkTimeout: 20_000, forkRetries: 2, forkMaxResponseBytes: 8 * 1024 * 1024 });
    await rpc('eth_blockNumber');
    fake.mode = 'huge';
    fake.hugeBytes = 400 * 1024 * 1024;
    const before = fake.requests;
    const heapBefore = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    const started = Date.now();
    await expectRpcError(
      rpc('eth_getBalance', [BAD, 'latest']),
      -32000,
      /eth_getBalance for account 0x0+bd at block 100 failed: answer larger than 8388608 bytes \(--fork-max-response-bytes 8388608\)/,
    );
    expect(Date.now() - started).to.be.below(5000);
    expect(fake.requests - before).to.equal(1); // a larger answer would come again: not retried
    const heapAfter = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    expect(heapAfter - heapBefore).to.be.below(64 * 1024 * 1024); // never the 400 MB the upstream offered
    await stillServing();
  });

  it('an answer that trickles in is cut by --fork-timeout; one dropped mid-body or with a wrong id fails clearly', async () => {
    fake.mode = 'trickle';
    const started = Date.now();
    await expectRpcError(rpc('eth_getBalance', [BAD, 'latest']), -32000, /timed out after 300 ms \(after 2 attempts, --fork-retries 1\)/);
    expect(Date.now() - started).to.be.below(3000);
    fake.mode = 'dropMidBody';
    await expectRpcError(rpc('eth_getBalance', [BAD, 'latest']), -32000, /eth_getBalance for account 0x0+bd at block 100 failed: unreachable/);
    fake.mode = 'wrongId';
    await expectRpcError(rpc('eth_getBalance', [BAD, 'latest']), -32000, /no answer for this call in the upstream response/);
    await stillServing();
  });

  for (const code of [429, -32005]) {
    it(`a JSON-RPC rate-limit error (${code}) is retried after the backoff, then fails naming the limit`, async () => {
      await provider.disconnect();
      provider = createProvider({ quiet: true, forkCache: false, fork: fake.url, forkRetries: 2, forkRetryBackoff: 200, noRateLimit: true });
      await rpc('eth_blockNumber');
      fake.mode = 'rateError';
      fake.rateCode = code;
      fake.refusals = 2;
      const started = Date.now();
      expect(await rpc('eth_getBalance', [BAD, 'latest'])).to.equal('0xde0b6b3a7640000');
      expect(Date.now() - started).to.be.at.least(200 + 400); // 200 ms, then doubled
      await provider.disconnect(); // a new node, with nothing fetched yet
      provider = createProvider({ quiet: true, forkCache: false, fork: fake.url, forkRetries: 2, forkRetryBackoff: 200, noRateLimit: true });
      await rpc('eth_blockNumber');
      fake.refusals = 10;
      const error = await expectRpcError(rpc('eth_getBalance', [BAD, 'latest']), -32000, /rate limited/);
      expect(error.message).to.match(new RegExp(`rate limited \\(upstream error ${code}: .*\\), 3 times \\(--fork-retries 2\\)`));
      await stillServing();
    });
  }

  it('after a rate limit, --compute-units-per-second spaces the retry so the calls in flight fit the budget', async () => {
    await provider.disconnect();
    // Three calls in flight (one account: balance, nonce, code) and the retry, 20 compute units each, on a budget of 80 a second: a second more.
    provider = createProvider({ quiet: true, forkCache: false, fork: fake.url, forkRetries: 1, forkRetryBackoff: 0, computeUnitsPerSecond: 80 });
    await rpc('eth_blockNumber');
    fake.mode = '429';
    fake.refusals = 1;
    fake.retryAfter = '0';
    const started = Date.now();
    expect(await rpc('eth_getBalance', [BAD, 'latest'])).to.equal('0xde0b6b3a7640000');
    expect(Date.now() - started).to.be.at.least(1000);
  });

  it('refuses bad limits by option name', async () => {
    /** The refusal, whether the provider is refused when made or at its first request. */
    const refusal = async (options: Parameters<typeof createProvider>[0]): Promise<string> => {
      try {
        const refused = createProvider(options);
        await refused.request({ method: 'eth_blockNumber' }).finally(() => refused.disconnect());
      } catch (error) {
        return String((error as Error).message);
      }
      throw new Error('not refused');
    };
    expect(await refusal({ fork: fake.url, forkMaxResponseBytes: 10 })).to.match(/fork-max-response-bytes: expected a number between 1024/);
    expect(await refusal({ fork: fake.url, noRateLimit: true, computeUnitsPerSecond: 5 })).to.match(
      /no-rate-limit: give either --no-rate-limit or --compute-units-per-second, not both/,
    );
    expect(await refusal({ fork: fake.url, forkRetryBackoff: -1 })).to.match(/fork-retry-backoff: expected a number between 0 and 60000/);
  });

  it('a transaction whose execution needs a failing key is refused and leaves the chain as it was', async () => {
    fake.mode = 'timeout';
    const [dev] = await rpc<string[]>('eth_accounts');
    await expectRpcError(rpc('eth_sendTransaction', [{ from: dev, to: BAD, value: '0x1' }]), -32000, /fork upstream/);
    await expectRpcError(rpc('eth_call', [{ from: dev, to: BAD }, 'latest']), -32000, /fork upstream/);
    expect(await rpc('eth_blockNumber')).to.equal('0x64');
    expect(await rpc('eth_getTransactionCount', [dev, 'latest'])).to.equal('0x0');
    // With its gas given the transaction is admitted; its block cannot be built: the send is refused and nothing changes.
    await expectRpcError(rpc('eth_sendTransaction', [{ from: dev, to: BAD, value: '0x1', gas: '0x5208' }]), -32000, /fork upstream.*timed out/);
    expect(await rpc('eth_blockNumber')).to.equal('0x64');
    expect(await rpc('txpool_status')).to.deep.equal({ pending: '0x0', queued: '0x0' });
    expect(await rpc('eth_getTransactionCount', [dev, 'latest'])).to.equal('0x0');
    expect(await rpc('eth_getBalance', [dev, 'latest'])).to.equal('0x21e19e0c9bab2400000');
  });

  describe('while a remote read hangs (issue 35: remote reads are awaited outside the queue)', () => {
    const LOCAL = '0x00000000000000000000000000000000000000aa';

    /** A read of BAD that the upstream never answers (within 10 s), and a way to tell whether it is still pending. */
    function hangingRead(method: string, params: unknown[]): { pending: () => boolean; settled: Promise<unknown> } {
      let done = false;
      const settled = rpc(method, params).then(
        (value) => ((done = true), value),
        (error: unknown) => ((done = true), error),
      );
      return { pending: () => !done, settled };
    }

    beforeEach(async () => {
      await provider.disconnect();
      provider = createProvider({ quiet: true, forkCache: false, fork: fake.url, forkTimeout: 10_000, forkRetries: 0 });
      const [dev] = await rpc<string[]>('eth_accounts');
      // Everything a local transfer touches is fetched first (the coinbase, the recipient).
      await rpc('eth_sendTransaction', [{ from: dev, to: LOCAL, value: '0x1' }]);
      fake.mode = 'timeout';
    });

    for (const [what, method, params] of [
      ['an account read', 'eth_getBalance', [BAD, 'latest']],
      ['a call that needs a remote account', 'eth_call', [{ to: BAD }, 'latest']],
      ['a storage read', 'eth_getStorageAt', [BAD, '0x1', 'latest']],
    ] as const) {
      it(`${what} pending: local reads answer and a local send is mined meanwhile`, async () => {
        const [dev, other] = await rpc<string[]>('eth_accounts');
        const requestsBefore = fake.requests;
        const read = hangingRead(method, [...params]);
        await until(() => fake.requests > requestsBefore); // the upstream has the request (and keeps it)
        expect(await rpc('eth_getBalance', [LOCAL, 'latest'])).to.equal('0x1');
        expect(await rpc('eth_getTransactionCount', [dev, 'latest'])).to.equal('0x1');
        const hash = await rpc<string>('eth_sendTransaction', [{ from: dev, to: other, value: '0x2' }]);
        const receipt = await rpc<{ status: string; blockNumber: string } | null>('eth_getTransactionReceipt', [hash]);
        expect(receipt?.status).to.equal('0x1');
        expect(receipt?.blockNumber).to.equal('0x66');
        expect(read.pending(), 'the remote read is still waiting for its upstream').to.equal(true);
        fake.mode = 'ok';
        fake.release();
        expect(await read.settled).to.not.be.instanceOf(Error);
      });
    }

    it("a send that needs a remote account waits outside the queue; other senders' sends are mined meanwhile", async () => {
      const [dev, other] = await rpc<string[]>('eth_accounts');
      const requestsBefore = fake.requests;
      // Its gas given: admitted at once; its block needs BAD's account, which the upstream keeps.
      const waiting = hangingRead('eth_sendTransaction', [{ from: dev, to: BAD, value: '0x3', gas: '0x5208' }]);
      await until(() => fake.requests > requestsBefore);
      const hash = await rpc<string>('eth_sendTransaction', [{ from: other, to: LOCAL, value: '0x4' }]);
      expect((await rpc<{ status: string; blockNumber: string }>('eth_getTransactionReceipt', [hash])).blockNumber).to.equal('0x66');
      expect(await rpc('eth_getBalance', [LOCAL, 'latest'])).to.equal('0x5');
      expect(waiting.pending(), 'the send waits for its upstream data').to.equal(true);
      expect(await rpc('txpool_status')).to.deep.equal({ pending: '0x0', queued: '0x0' });
      // The upstream answers: the send is mined, after the other one, and answered.
      fake.mode = 'ok';
      fake.release();
      const sent = (await waiting.settled) as string;
      const receipt = await rpc<{ status: string; blockNumber: string }>('eth_getTransactionReceipt', [sent]);
      expect(receipt.status).to.equal('0x1');
      expect(receipt.blockNumber).to.equal('0x67');
      expect(await rpc('eth_getBalance', [BAD, 'latest'])).to.equal('0xde0b6b3a7640003');
    });
  });
});

/** Poll `condition` every 10 ms until it holds (the test's timeout bounds it). */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 10));
}
