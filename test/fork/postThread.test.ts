import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { PostFailure } from '../../src/fork/httpPost.js';
import { PostThread, upstreamReader } from '../../src/fork/postThread.js';
import { createProvider } from '../../src/index.js';
import { fakeUpstreamBlock } from '../helpers/fakeUpstreamBlock.js';

const LIMITS = { timeoutMs: 2_000, maxResponseBytes: 1024 * 1024 };
const INDEX = fileURLToPath(new URL('../../src/index.js', import.meta.url));
const HELPERS = fileURLToPath(new URL('../helpers/', import.meta.url));
/** The account whose balance the huge upstream answers with 400 MB. */
const HUGE_ACCOUNT = `0x${'00'.repeat(19)}bd`;

/** A script serving test/helpers/faultyUpstream.ts in 'huge' mode on HUGE_ACCOUNT's reads (an empty chain at block 0x64 otherwise), printing its URL. */
const HUGE_UPSTREAM = `
  import { startFaultyUpstream } from ${JSON.stringify(path.join(HELPERS, 'faultyUpstream.js'))};
  import { fakeUpstreamBlock } from ${JSON.stringify(path.join(HELPERS, 'fakeUpstreamBlock.js'))};
  const results = { eth_chainId: '0x7a69', eth_blockNumber: '0x64', eth_getBlockByNumber: fakeUpstreamBlock({ hash: '0x${'ab'.repeat(32)}' }),
    eth_getBalance: '0x0', eth_getTransactionCount: '0x0', eth_getCode: '0x', eth_getStorageAt: '0x${'00'.repeat(32)}' };
  const upstream = await startFaultyUpstream({ badAddress: '${HUGE_ACCOUNT}', answer: (call) => call.method in results
    ? { jsonrpc: '2.0', id: call.id, result: results[call.method] }
    : { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'no ' + call.method } } });
  upstream.mode = 'huge';
  upstream.hugeBytes = 400 * 1024 * 1024;
  // Ends with the test's process, whatever ends that.
  process.on('disconnect', () => process.exit(0));
  console.log(upstream.url);`;

/** A server answering by path: /echo the body, /huge 8 MiB without Content-Length, /hang never; everything else as a JSON-RPC chain at block 0x64 (no eth_getProof). */
async function startServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (request.url === '/echo') return response.writeHead(201, { 'x-seen': 'yes' }).end(`echo:${body}`);
      if (request.url === '/hang') return;
      if (request.url === '/huge') {
        response.writeHead(200, { 'content-type': 'application/json' });
        const piece = Buffer.alloc(64 * 1024, 0x61);
        for (let i = 0; i < 128; i++) response.write(piece);
        return response.end();
      }
      const call = JSON.parse(body) as { id: number; method: string } | Array<{ id: number; method: string }>;
      const results: Record<string, unknown> = {
        eth_chainId: '0x7a69',
        eth_blockNumber: '0x64',
        eth_getBlockByNumber: fakeUpstreamBlock({ hash: `0x${'ab'.repeat(32)}` }),
        eth_getBalance: '0x5',
        eth_getTransactionCount: '0x0',
        eth_getCode: '0x',
      };
      const answer = (one: { id: number; method: string }) =>
        one.method in results
          ? { jsonrpc: '2.0', id: one.id, result: results[one.method] }
          : { jsonrpc: '2.0', id: one.id, error: { code: -32601, message: `no ${one.method}` } };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Array.isArray(call) ? call.map(answer) : answer(call)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('forking: the upstream reading thread', function () {
  this.timeout(30_000);
  let url: string;
  let server: Server;
  let thread: PostThread;
  before(async () => ({ url, server } = await startServer()));
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => (thread = new PostThread()));
  afterEach(() => thread.closeWhenIdle());

  it('reads the first requests on the calling thread while it starts, then on its own', async () => {
    const first = await thread.post(new URL(`${url}/echo`), {}, 'first', LIMITS);
    expect(first.text).to.equal('echo:first');
    expect(thread.counts).to.deep.equal({ onThread: 0, inThread: 1 });
    expect(thread.running).to.equal(true);
    await thread.whenReady();
    const later = await thread.post(new URL(`${url}/echo`), {}, 'later', LIMITS);
    expect(later.text).to.equal('echo:later');
    expect(thread.counts).to.deep.equal({ onThread: 1, inThread: 1 });
  });

  it('answers a POST from its thread: status, headers and text as sent', async () => {
    await thread.whenReady();
    const answer = await thread.post(new URL(`${url}/echo`), { 'content-type': 'text/plain' }, 'héllo', LIMITS);
    expect(thread.running).to.equal(true);
    expect(thread.mode).to.equal('thread');
    expect(answer.status).to.equal(201);
    expect(answer.headers['x-seen']).to.equal('yes');
    expect(answer.text).to.equal('echo:héllo');
    expect(thread.counts.onThread).to.equal(1);
  });

  it('hands back each failure as a PostFailure of its kind: too large, timed out, unreachable', async () => {
    await thread.whenReady();
    const failure = (promise: Promise<unknown>) =>
      promise.then(
        () => expect.fail('expected a failure'),
        (error: unknown) => error,
      );
    const tooLarge = await failure(thread.post(new URL(`${url}/huge`), {}, '', LIMITS));
    expect(tooLarge).to.be.instanceOf(PostFailure);
    expect(tooLarge).to.include({ kind: 'tooLarge', message: 'answer larger than 1048576 bytes (--fork-max-response-bytes 1048576)' });
    const timedOut = await failure(thread.post(new URL(`${url}/hang`), {}, '', { ...LIMITS, timeoutMs: 200 }));
    expect(timedOut).to.be.instanceOf(PostFailure);
    expect(timedOut).to.include({ kind: 'timeout', message: 'timed out after 200 ms' });
    const closed = await startServer();
    await new Promise<void>((resolve) => closed.server.close(() => resolve()));
    const unreachable = await failure(thread.post(new URL(closed.url), {}, '', LIMITS));
    expect(unreachable).to.be.instanceOf(PostFailure);
    expect((unreachable as PostFailure).kind).to.equal('unreachable');
    expect((unreachable as PostFailure).message).to.match(/^unreachable \(.*ECONNREFUSED/);
    expect(thread.counts).to.deep.equal({ onThread: 3, inThread: 0 });
  });

  it('ends when closed idle, and a later request starts another', async () => {
    await thread.whenReady();
    await thread.post(new URL(`${url}/echo`), {}, 'one', LIMITS);
    thread.closeWhenIdle();
    expect(thread.running).to.equal(false);
    const answer = await thread.post(new URL(`${url}/echo`), {}, 'two', LIMITS);
    expect(answer.text).to.equal('echo:two');
    expect(thread.running).to.equal(true);
    await thread.whenReady();
    expect((await thread.post(new URL(`${url}/echo`), {}, 'three', LIMITS)).text).to.equal('echo:three');
    expect(thread.counts).to.deep.equal({ onThread: 2, inThread: 1 });
  });

  it('closed while it starts: a later request starts another, and is read on it once ready', async () => {
    await thread.post(new URL(`${url}/echo`), {}, 'starts it', LIMITS);
    thread.closeWhenIdle();
    expect(thread.running).to.equal(false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await thread.post(new URL(`${url}/echo`), {}, 'in thread', LIMITS)).text).to.equal('echo:in thread');
    await thread.whenReady();
    expect((await thread.post(new URL(`${url}/echo`), {}, 'on thread', LIMITS)).text).to.equal('echo:on thread');
    expect(thread.counts).to.deep.equal({ onThread: 1, inThread: 2 });
  });

  it('closed with a request in flight, ends once it is answered', async () => {
    await thread.whenReady();
    const answer = thread.post(new URL(`${url}/echo`), {}, 'late', LIMITS);
    thread.closeWhenIdle();
    expect(thread.running).to.equal(true);
    expect((await answer).text).to.equal('echo:late');
    expect(thread.running).to.equal(false);
  });

  it('a thread that cannot start: said once on stderr, and requests are made on the calling thread instead', async () => {
    const broken = new PostThread(new URL('./no-such-worker.js', import.meta.url));
    const warned = new Promise<Error>((resolve) => process.once('warning', resolve));
    await broken.whenReady();
    const warning = await warned;
    expect(warning).to.include({ code: 'CHAIN_SIM_UPSTREAM_THREAD' });
    expect(warning.message).to.match(/^the fork upstream's reading thread could not start \(.*no-such-worker\.js.*\); answers are read on the main thread$/);
    expect(broken.mode).to.equal('inThread');
    expect(broken.running).to.equal(false);
    const answer = await broken.post(new URL(`${url}/echo`), {}, 'fallback', LIMITS);
    expect(answer.text).to.equal('echo:fallback');
    expect(broken.counts).to.deep.equal({ onThread: 0, inThread: 1 });
  });

  it("a forked provider's reads go through it, and its disconnect ends it", async () => {
    const provider = createProvider({ quiet: true, forkCache: false, fork: url });
    await provider.ready();
    await upstreamReader.whenReady();
    const before = upstreamReader.counts.onThread;
    expect(await provider.request({ method: 'eth_getBalance', params: [`0x${'00'.repeat(19)}77`, 'latest'] })).to.equal('0x5');
    expect(upstreamReader.counts.onThread).to.be.above(before);
    expect(upstreamReader.running).to.equal(true);
    await provider.disconnect();
    expect(upstreamReader.running).to.equal(false);
  });

  it('does not keep a process alive: a script that forks and returns exits by itself', async () => {
    const script = `
      import { createProvider } from ${JSON.stringify(INDEX)};
      const provider = createProvider({ quiet: true, forkCache: false, fork: ${JSON.stringify(url)} });
      console.log(await provider.request({ method: 'eth_getBalance', params: ['0x${'00'.repeat(19)}77', 'latest'] }));`;
    // A file, not --eval: a process running an --eval'd module exited with a thread still holding it open.
    const dir = mkdtempSync(path.join(tmpdir(), 'chain-sim-post-thread-'));
    const file = path.join(dir, 'fork-and-return.mjs');
    writeFileSync(file, script);
    const started = Date.now();
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [file], { timeout: 20_000 }, (error, out) => (error ? reject(error) : resolve(out)));
    }).finally(() => rmSync(dir, { recursive: true, force: true }));
    expect(stdout.trim()).to.equal('0x5');
    // Well before the thread's idle end (10 s): nothing but the thread could hold it open.
    expect(Date.now() - started).to.be.below(8_000);
  });

  it("while a 400 MB answer streams in up to the cap, the node's thread is mostly idle", async () => {
    // The upstream in a process of its own, as it would be on another machine: its writing is not this thread's work.
    const dir = mkdtempSync(path.join(tmpdir(), 'chain-sim-huge-upstream-'));
    const file = path.join(dir, 'huge-upstream.mjs');
    writeFileSync(file, HUGE_UPSTREAM);
    const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    try {
      const hugeUrl = await new Promise<string>((resolve, reject) => {
        child.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
        child.once('exit', (code) => reject(new Error(`the upstream exited (${code})`)));
      });
      const provider = createProvider({ quiet: true, forkCache: false, fork: hugeUrl, forkTimeout: 20_000, forkRetries: 0 });
      try {
        expect(await provider.request({ method: 'eth_blockNumber' })).to.equal('0x64');
        await upstreamReader.whenReady();
        const before = performance.eventLoopUtilization();
        const failure = await provider.request({ method: 'eth_getBalance', params: [HUGE_ACCOUNT, 'latest'] }).then(
          () => expect.fail('expected the answer to be refused'),
          (error: unknown) => error as { code: number; message: string },
        );
        const busy = performance.eventLoopUtilization(before);
        expect(failure.code).to.equal(-32000);
        expect(failure.message).to.match(/answer larger than 67108864 bytes/);
        // Read on this thread, the 64 MiB kept it busy: utilization 0.99-1.0 over the 94-97 ms read (measured with
        // requests forced onto the calling thread); on the reading thread 0.02.
        expect(busy.utilization, `event loop utilization over ${busy.active.toFixed(0)} of ${(busy.idle + busy.active).toFixed(0)} ms`).to.be.below(0.4);
      } finally {
        await provider.disconnect();
      }
    } finally {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
