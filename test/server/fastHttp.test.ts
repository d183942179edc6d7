/**
 * The fast way in (src/server/fastHttp.ts): real clients' requests are answered on it, requests
 * split, pipelined or of any other shape get the same answers as before, a connection handed to
 * Node's server mid-way keeps working, and closing the server closes its idle connections.
 */
import { expect } from 'chai';
import { type Socket, connect } from 'node:net';
import { createPublicClient, http } from 'viem';
import { JsonRpcProvider } from 'ethers';
import { startNode } from '../../src/startup/node.js';
import { type RpcHttpServer, createRpcHttpServer, listen } from '../../src/server/http.js';
import { parseSimpleRequest } from '../../src/server/simpleRequest.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { type HttpNode, startHttpNode } from '../helpers/httpNode.js';

const TIMEOUTS = { headersMs: 400, requestMs: 800, keepAliveMs: 300, checkIntervalMs: 100 };
const MAX_BODY = 64 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function post(body: string, extraHeaders = ''): string {
  return `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${extraHeaders}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

const call = (id: number, method = 'eth_chainId', params: unknown[] = []) => JSON.stringify({ jsonrpc: '2.0', id, method, params });

/** A raw connection that collects what the server sends; `answers(n)` waits for n complete HTTP answers and parses them. */
class RawClient {
  private text = '';
  readonly closed: Promise<void>;
  constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => (this.text += chunk.toString('utf8')));
    socket.on('error', () => {});
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  static open(port: number): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  async answers(count: number, withinMs = 5_000): Promise<{ status: number; headers: Record<string, string>; body: string }[]> {
    const started = performance.now();
    for (;;) {
      const parsed = parseAnswers(this.text);
      if (parsed.length >= count) return parsed;
      if (performance.now() - started > withinMs) throw new Error(`got ${parsed.length} of ${count} answers: ${JSON.stringify(this.text.slice(0, 500))}`);
      await sleep(10);
    }
  }
}

/** Complete HTTP/1.1 answers in `text` (content-length or chunked bodies). */
function parseAnswers(text: string): { status: number; headers: Record<string, string>; body: string }[] {
  const out = [];
  let rest = text;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) return out;
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    let body = '';
    let next = end + 4;
    if (headers['transfer-encoding'] === 'chunked') {
      for (;;) {
        const lineEnd = rest.indexOf('\r\n', next);
        if (lineEnd < 0) return out;
        const size = Number.parseInt(rest.slice(next, lineEnd), 16);
        if (rest.length < lineEnd + 2 + size + 2) return out;
        body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
        next = lineEnd + 2 + size + 2;
        if (size === 0) break;
      }
    } else {
      const length = Number(headers['content-length'] ?? 0);
      if (Buffer.byteLength(rest.slice(next)) < length) return out;
      body = Buffer.from(rest.slice(next)).subarray(0, length).toString('utf8');
      next += body.length;
    }
    out.push({ status: Number(statusLine!.split(' ')[1]), headers, body });
    rest = rest.slice(next);
  }
}

describe('server: the fast way in for simple JSON-RPC requests', function () {
  this.timeout(30_000);

  let served: HttpNode;
  let server: RpcHttpServer;
  let port: number;
  let url: string;

  before(async () => {
    served = await startHttpNode({ maxBodyBytes: MAX_BODY, timeouts: TIMEOUTS });
    ({ server, port, url } = served);
  });

  after(() => served.close());

  const counts = () => ({ ...server.fast.counts });

  it("answers viem's, ethers' and fetch's requests on the fast path, none handed to Node's server", async () => {
    const before = counts();
    const viem = createPublicClient({ transport: http(url) });
    expect(await viem.getChainId()).to.equal(1337);
    const ethers = new JsonRpcProvider(url, undefined, { staticNetwork: true });
    expect(await ethers.getBlockNumber()).to.equal(0);
    ethers.destroy();
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: call(7, 'eth_blockNumber') });
    expect(await res.json()).to.deep.equal({ jsonrpc: '2.0', id: 7, result: '0x0' });
    const after = counts();
    expect(after.answered - before.answered).to.be.at.least(3);
    expect(after.handedOff).to.equal(before.handedOff);
  });

  it('answers pipelined requests in order, and a request whose body arrives later', async () => {
    const client = await RawClient.open(port);
    const before = counts();
    client.socket.write(post(call(1)) + post(call(2, 'eth_blockNumber')) + post(call(3, 'net_version')));
    const body = call(4, 'web3_sha3', ['0x68656c6c6f']);
    const whole = post(body);
    client.socket.write(whole.slice(0, whole.length - body.length + 5));
    await sleep(50);
    client.socket.write(whole.slice(whole.length - body.length + 5));
    const answers = await client.answers(4);
    expect(answers.map((a) => JSON.parse(a.body).id)).to.deep.equal([1, 2, 3, 4]);
    expect(JSON.parse(answers[0]!.body).result).to.equal('0x539');
    expect(JSON.parse(answers[3]!.body).result).to.equal('0x1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8');
    expect(answers.every((a) => a.status === 200 && a.headers.connection === 'keep-alive')).to.equal(true);
    expect(counts().answered - before.answered).to.equal(4);
    client.socket.destroy();
  });

  it('reads a large body that arrives in many pieces, on the fast path', async () => {
    const client = await RawClient.open(port);
    const before = counts();
    // web3_sha3 of 30,000 bytes: a 60 KB body (under the server's 64 KiB limit), written 1 KB at a time.
    const data = `0x${'ab'.repeat(30_000)}`;
    const whole = post(call(6, 'web3_sha3', [data]));
    for (let at = 0; at < whole.length; at += 1024) {
      client.socket.write(whole.slice(at, at + 1024));
      if (at % (16 * 1024) === 0) await sleep(5);
    }
    const [answer] = await client.answers(1);
    expect(JSON.parse(answer!.body)).to.deep.equal({ jsonrpc: '2.0', id: 6, result: `0x${bytesToHex(keccak_256(hexToBytes(data.slice(2))))}` });
    expect(counts().answered - before.answered).to.equal(1);
    expect(counts().handedOff).to.equal(before.handedOff);
    client.socket.destroy();
  });

  it('counts the body in bytes: a multi-byte UTF-8 body is read whole', async () => {
    const client = await RawClient.open(port);
    // An unknown method's error message names it: the text must survive as sent.
    client.socket.write(post(call(5, 'eth_ünïcødé_✓')));
    const [answer] = await client.answers(1);
    expect(JSON.parse(answer!.body).error.message).to.include('eth_ünïcødé_✓');
    client.socket.destroy();
  });

  it("hands other shapes to Node's server, which answers them as before", async () => {
    const cases: { request: string; status: number; check?: (a: { headers: Record<string, string>; body: string }) => void }[] = [
      { request: 'GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', status: 404 },
      {
        request: post(call(1), 'Origin: http://localhost:3000\r\n'),
        status: 200,
        check: (a) => expect(a.headers['access-control-allow-origin']).to.equal('http://localhost:3000'),
      },
      { request: post(call(1)).replace('Host: 127.0.0.1', 'Host: evil.example'), status: 403 },
      { request: post(call(1)).replace('application/json', 'text/plain'), status: 415 },
      { request: post('{"jsonrpc":'), status: 200, check: (a) => expect(JSON.parse(a.body).error.code).to.equal(-32700) },
      { request: post(' '.repeat(MAX_BODY + 1)), status: 413 },
      {
        request: `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${call(9).length.toString(16)}\r\n${call(9)}\r\n0\r\n\r\n`,
        status: 200,
        check: (a) => expect(JSON.parse(a.body)).to.deep.equal({ jsonrpc: '2.0', id: 9, result: '0x539' }),
      },
    ];
    for (const { request, status, check } of cases) {
      const before = counts();
      const client = await RawClient.open(port);
      client.socket.write(request);
      const [answer] = await client.answers(1);
      expect(answer!.status, request.split('\r\n')[0]).to.equal(status);
      check?.(answer!);
      expect(counts().handedOff - before.handedOff).to.equal(1);
      client.socket.destroy();
    }
  });

  it("keeps a connection working after handing it to Node's server mid-way", async () => {
    const client = await RawClient.open(port);
    const before = counts();
    client.socket.write(post(call(1)));
    await client.answers(1);
    // A preflight, then simple requests again: all on the same socket, answered in order.
    client.socket.write(
      `OPTIONS / HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://localhost:5173\r\nAccess-Control-Request-Method: POST\r\n\r\n${post(call(2))}`,
    );
    client.socket.write(post(call(3)));
    const answers = await client.answers(4);
    expect(answers.map((a) => a.status)).to.deep.equal([200, 204, 200, 200]);
    expect(answers[1]!.headers['access-control-allow-origin']).to.equal('http://localhost:5173');
    expect(answers.filter((a) => a.body.length > 0).map((a) => JSON.parse(a.body).id)).to.deep.equal([1, 2, 3]);
    expect(counts().answered - before.answered).to.equal(1);
    expect(counts().handedOff - before.handedOff).to.equal(1);
    client.socket.destroy();
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const client = await RawClient.open(port);
    client.socket.write(post(call(1)));
    await client.answers(1);
    const started = performance.now();
    await client.closed;
    expect(performance.now() - started).to.be.within(TIMEOUTS.keepAliveMs - 50, TIMEOUTS.keepAliveMs + 1_000);
  });

  it('a server closing closes its idle fast-path connections at once; a request sent just before is answered, then its connection closed', async () => {
    const other = await startNode({ quiet: true });
    const closing = createRpcHttpServer(other.dispatcher, {
      maxBodyBytes: MAX_BODY,
      hostCheck: () => true,
      cors: () => ({}),
      timeouts: { keepAliveMs: 60_000 },
    });
    const { port: otherPort } = await listen(closing, 0, '127.0.0.1');
    const idle = await RawClient.open(otherPort);
    idle.socket.write(post(call(1)));
    await idle.answers(1);
    const busy = await RawClient.open(otherPort);
    busy.socket.write(post(call(2, 'evm_mine')));
    await sleep(1);
    const started = performance.now();
    await new Promise((resolve) => closing.close(resolve));
    await idle.closed;
    expect(performance.now() - started).to.be.below(1_000);
    const [answer] = await busy.answers(1);
    expect(JSON.parse(answer!.body).id).to.equal(2);
    await busy.closed;
    other.close();
  });
});

describe('server: parseSimpleRequest', () => {
  const limits = { maxBodyBytes: 100, hostAllowed: (host: string) => host === 'localhost:8545' };
  const parse = (text: string) => parseSimpleRequest(Buffer.from(text, 'latin1'), limits);
  const simple = (headers: string, body = '{}') => `POST / HTTP/1.1\r\nHost: localhost:8545\r\n${headers}Content-Length: ${body.length}\r\n\r\n${body}`;

  it('takes the simple shape, with lower-case header names and the bytes it used', () => {
    const text = simple('Content-Type: application/json; charset=utf-8\r\nUser-Agent: hardhat 2.29.1\r\n');
    const parsed = parse(`${text}POST`);
    expect(parsed).to.deep.equal({
      kind: 'request',
      headers: { host: 'localhost:8545', 'content-type': 'application/json; charset=utf-8', 'user-agent': 'hardhat 2.29.1', 'content-length': '2' },
      body: '{}',
      length: text.length,
    });
  });

  it('waits for more bytes while a simple request is still arriving', () => {
    const text = simple('Content-Type: application/json\r\n', '{"a":1}');
    for (const cut of [1, 10, text.indexOf('\r\n\r\n') + 2, text.length - 1]) expect(parse(text.slice(0, cut)).kind, `cut at ${cut}`).to.equal('incomplete');
    // Once the head is whole, the request's length is known: the reader waits for that many bytes.
    expect(parse(text.slice(0, text.length - 1))).to.deep.equal({ kind: 'incomplete', length: text.length });
  });

  it('leaves every other shape to Node', () => {
    const json = 'Content-Type: application/json\r\n';
    const others = [
      'GET / HTTP/1.1\r\n',
      'POST /x HTTP/1.1\r\nHost: localhost:8545\r\n\r\n',
      'POST / HTTP/1.0\r\nHost: localhost:8545\r\nContent-Length: 0\r\n\r\n',
      simple(json).replace('localhost:8545', 'evil:8545'),
      simple(''),
      simple(`${json}Transfer-Encoding: chunked\r\n`),
      simple(`${json}Expect: 100-continue\r\n`),
      simple(`${json}Origin: http://localhost\r\n`),
      simple(`${json}Connection: close\r\n`),
      simple(`${json}Host: localhost:8545\r\n`),
      simple(`${json}X-Folded: a\r\n b\r\n`),
      simple(`${json}X-Bad: a\x01b\r\n`),
      simple(`${json}Bad Name: a\r\n`),
      simple(json, 'x'.repeat(101)),
      `POST / HTTP/1.1\r\nHost: localhost:8545\r\n${json}Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}`,
      `POST / HTTP/1.1\r\nHost: localhost:8545\r\n${json}Content-Length: -2\r\n\r\n{}`,
      `POST / HTTP/1.1\r\nHost: localhost:8545\r\n${json}X-Long: ${'a'.repeat(9000)}\r\n`,
    ];
    for (const text of others) expect(parse(text).kind, JSON.stringify(text.slice(0, 120))).to.equal('other');
  });
});
