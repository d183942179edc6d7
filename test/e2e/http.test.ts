/**
 * JSON-RPC over a real HTTP socket (src/server/http.ts): routing, content types, body
 * limits, CORS, aborted clients, keep-alive and pipelining.
 */
import { expect } from 'chai';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { type ChainSimServer, createServer } from '../../src/index.js';
import { FIRST_ACCOUNT, httpExchange, postJson } from '../helpers/rpc.js';

const MAX_BODY = 2048;
const CHAIN_ID = { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] };
/** A page served from this machine: the default CORS policy lets it read replies. */
const LOCAL_ORIGIN = 'http://localhost:3000';

/** A request body of exactly `size` bytes that is a valid JSON-RPC request (padded id). */
function bodyOfSize(size: number): string {
  const bare = JSON.stringify({ jsonrpc: '2.0', id: '', method: 'eth_chainId', params: [] });
  return JSON.stringify({ jsonrpc: '2.0', id: 'x'.repeat(size - bare.length), method: 'eth_chainId', params: [] });
}

/**
 * Send raw bytes on a fresh TCP connection and collect what comes back until the server
 * closes, `done(received)` holds, or `ms` pass.
 */
function rawExchange(port: number, payload: string, ms = 1000, done: (received: string) => boolean = () => false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(received);
    }, ms);
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
      if (done(received)) {
        clearTimeout(timer);
        socket.destroy();
        resolve(received);
      }
    });
    socket.on('end', () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.write(payload);
  });
}

describe('e2e: JSON-RPC over HTTP', function () {
  this.timeout(30_000);

  let server: ChainSimServer;
  let url: string;
  let port: number;

  before(async () => {
    // --no-ui: GET is refused as any method but POST (test/server/explorer.test.ts serves the page).
    server = await createServer({ quiet: true, maxBodyBytes: MAX_BODY, ui: false });
    const info = await server.listen(0, '127.0.0.1');
    url = info.url;
    port = info.port;
    expect(info.host).to.equal('127.0.0.1');
    expect(url).to.equal(`http://127.0.0.1:${port}`);
  });

  after(async () => {
    await server?.close();
  });

  async function stillServes(): Promise<void> {
    const res = await postJson(url, CHAIN_ID);
    expect(res.status).to.equal(200);
    expect(JSON.parse(res.body)).to.deep.equal({ jsonrpc: '2.0', id: 1, result: '0x539' });
  }

  describe('POST /', () => {
    it('answers a JSON-RPC request with fetch', async () => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(CHAIN_ID) });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(await res.json()).to.deep.equal({ jsonrpc: '2.0', id: 1, result: '0x539' });
    });

    it('sets an exact Content-Length', async () => {
      const res = await postJson(url, { jsonrpc: '2.0', id: 'ü', method: 'web3_clientVersion', params: [] });
      expect(Number(res.headers['content-length'])).to.equal(Buffer.byteLength(res.body));
      expect(JSON.parse(res.body).id).to.equal('ü');
    });

    it('reads state through the socket', async () => {
      const res = await postJson(url, { jsonrpc: '2.0', id: 2, method: 'eth_getBalance', params: [FIRST_ACCOUNT, 'latest'] });
      expect(JSON.parse(res.body).result).to.equal('0x21e19e0c9bab2400000');
    });

    it('ignores a query string on /', async () => {
      const res = await httpExchange(url, {
        path: '/?client=test',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(CHAIN_ID),
      });
      expect(res.status).to.equal(200);
      expect(JSON.parse(res.body).result).to.equal('0x539');
    });

    it('answers invalid JSON with HTTP 200 and -32700', async () => {
      for (const body of ['{', '{"jsonrpc":"2.0",', 'not json', '[1,2', '\u0000']) {
        const res = await postJson(url, body);
        expect(res.status, body).to.equal(200);
        const reply = JSON.parse(res.body);
        expect(reply.error.code, body).to.equal(-32700);
        expect(reply.id).to.equal(null);
      }
    });

    it('answers an empty body with -32700', async () => {
      const res = await httpExchange(url, { headers: { 'content-type': 'application/json', 'content-length': 0 } });
      expect(res.status).to.equal(200);
      expect(JSON.parse(res.body).error.code).to.equal(-32700);
    });

    it('answers a notification with HTTP 200 and an empty body', async () => {
      const res = await postJson(url, { jsonrpc: '2.0', method: 'eth_chainId' });
      expect(res.status).to.equal(200);
      expect(res.body).to.equal('');
    });
  });

  describe('content types', () => {
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON;charset=UTF-8',
      'application/json-rpc',
      'application/jsonrequest',
    ]) {
      it(`accepts ${type}`, async () => {
        const res = await postJson(url, CHAIN_ID, { 'content-type': type });
        expect(res.status).to.equal(200);
        expect(JSON.parse(res.body).result).to.equal('0x539');
      });
    }

    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx']) {
      it(`answers 415 to ${type}`, async () => {
        const res = await postJson(url, CHAIN_ID, { 'content-type': type, origin: LOCAL_ORIGIN });
        expect(res.status).to.equal(415);
        expect(res.headers['access-control-allow-origin']).to.equal(LOCAL_ORIGIN);
      });
    }

    it('answers 415 when Content-Type is missing', async () => {
      const body = JSON.stringify(CHAIN_ID);
      const res = await httpExchange(url, { headers: { 'content-length': Buffer.byteLength(body) }, body });
      expect(res.status).to.equal(415);
    });
  });

  describe('methods and paths', () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      it(`answers ${method} / with 405 and an Allow header`, async () => {
        const headers = { origin: LOCAL_ORIGIN, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) };
        const res = await httpExchange(url, { method, headers });
        expect(res.status).to.equal(405);
        expect(String(res.headers.allow)).to.contain('POST');
        expect(res.headers['access-control-allow-origin']).to.equal(LOCAL_ORIGIN);
      });
    }

    it('answers HEAD / with 405 and no body', async () => {
      const res = await httpExchange(url, { method: 'HEAD' });
      expect(res.status).to.equal(405);
      expect(String(res.headers.allow)).to.contain('POST');
      expect(res.body).to.equal('');
    });

    for (const path of ['/rpc', '/favicon.ico', '//', '/%2e%2e/', '/index.html?x=1']) {
      it(`answers POST ${path} with 404`, async () => {
        const res = await httpExchange(url, { path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(CHAIN_ID) });
        expect(res.status).to.equal(404);
      });
    }

    it('answers GET /other with 404', async () => {
      const res = await httpExchange(url, { method: 'GET', path: '/other' });
      expect(res.status).to.equal(404);
    });
  });

  describe('CORS', () => {
    it('answers an OPTIONS preflight with 204 and CORS headers', async () => {
      const res = await httpExchange(url, {
        method: 'OPTIONS',
        headers: {
          origin: LOCAL_ORIGIN,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(res.status).to.equal(204);
      expect(res.body).to.equal('');
      expect(res.headers['access-control-allow-origin']).to.equal(LOCAL_ORIGIN);
      expect(String(res.headers['access-control-allow-methods'])).to.contain('POST');
      expect(String(res.headers['access-control-allow-headers']).toLowerCase()).to.contain('content-type');
    });

    it('sends the CORS header on normal responses', async () => {
      const res = await postJson(url, CHAIN_ID, { origin: LOCAL_ORIGIN });
      expect(res.status).to.equal(200);
      expect(res.headers['access-control-allow-origin']).to.equal(LOCAL_ORIGIN);
    });

    it('gives a foreign origin no CORS header (a browser keeps the reply from the page)', async () => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://app.example' },
        body: JSON.stringify(CHAIN_ID),
      });
      expect(res.headers.get('access-control-allow-origin')).to.equal(null);
      // Clients that are not browsers (this one) are not subject to CORS and still get the answer.
      expect(((await res.json()) as { result: string }).result).to.equal('0x539');
    });
  });

  describe('body size limit', () => {
    it('accepts a body of exactly maxBodyBytes', async () => {
      const body = bodyOfSize(MAX_BODY);
      expect(Buffer.byteLength(body)).to.equal(MAX_BODY);
      const res = await postJson(url, body);
      expect(res.status).to.equal(200);
      expect(JSON.parse(res.body).result).to.equal('0x539');
    });

    it('answers 413 to a declared body one byte over and keeps serving', async () => {
      const body = bodyOfSize(MAX_BODY + 1);
      const res = await postJson(url, body, { origin: LOCAL_ORIGIN });
      expect(res.status).to.equal(413);
      expect(res.headers['access-control-allow-origin']).to.equal(LOCAL_ORIGIN);
      await stillServes();
    });

    it('answers 413 to a large declared body and keeps serving', async () => {
      const res = await postJson(url, bodyOfSize(64 * 1024));
      expect(res.status).to.equal(413);
      await stillServes();
    });

    it('answers 413 to an oversized chunked body (no Content-Length) and keeps serving', async () => {
      const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, method: 'POST', path: '/', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
          (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => {
              text += chunk.toString();
            });
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
          },
        );
        // The server may answer and close before all chunks are written; that is fine.
        req.on('error', (error: NodeJS.ErrnoException) => {
          if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
        });
        const chunk = 'x'.repeat(512);
        for (let i = 0; i < 10; i++) req.write(chunk);
        req.end();
      });
      expect(res.status).to.equal(413);
      await stillServes();
    });
  });

  describe('misbehaving clients', () => {
    /** Write part of a request, then drop the connection 20 ms later. */
    const sendAndHangUp = (partial: string) =>
      new Promise<void>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(partial);
          setTimeout(() => {
            socket.destroy();
            resolve();
          }, 20);
        });
        socket.on('error', reject);
      });

    it('survives a client that sends part of a body and disconnects', async () => {
      for (let i = 0; i < 5; i++) {
        await sendAndHangUp('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":"2.0",');
      }
      await stillServes();
    });

    it('survives a client that disconnects in the middle of the headers', async () => {
      await sendAndHangUp('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty');
      await stillServes();
    });

    it('answers garbage on the socket with an HTTP error and keeps serving', async () => {
      const reply = await rawExchange(port, 'NOT HTTP AT ALL\r\n\r\n', 2000);
      expect(reply).to.match(/^HTTP\/1\.1 4\d\d /);
      await stillServes();
    });
  });

  describe('connections', () => {
    it('serves 200 keep-alive requests over one connection', async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        let reused = 0;
        for (let i = 0; i < 200; i++) {
          const body = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'eth_blockNumber', params: [] });
          const res = await httpExchange(url, {
            agent,
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
            body,
          });
          expect(res.status).to.equal(200);
          expect(JSON.parse(res.body).id).to.equal(i);
          if (res.reusedSocket) reused++;
        }
        expect(reused).to.equal(199);
      } finally {
        agent.destroy();
      }
    });

    it('keeps an idle keep-alive socket past a client pause of several seconds (no "socket hang up")', async function () {
      this.timeout(20_000);
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const ask = (id: number) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_chainId', params: [] });
        return httpExchange(url, { agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }, body });
      };
      try {
        expect((await ask(1)).status).to.equal(200);
        // A client busy for 6 s (signing, compiling) cannot see the server close the socket
        // meanwhile: it writes its next request straight into the kept-alive socket.
        const until = Date.now() + 6_000;
        while (Date.now() < until);
        const res = await ask(2);
        expect(res.status).to.equal(200);
        expect(res.reusedSocket).to.equal(true);
      } finally {
        agent.destroy();
      }
    });

    it('answers pipelined requests on one socket in order', async () => {
      const requests = [1, 2, 3]
        .map((id) => {
          const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_chainId', params: [] });
          return `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
        })
        .join('');
      const reply = await rawExchange(port, requests, 2000, (text) => (text.match(/"id":\d+/g) ?? []).length === 3);
      const ids = [...reply.matchAll(/"id":(\d+)/g)].map((m) => Number(m[1]));
      expect(reply.match(/HTTP\/1\.1 200 /g)).to.have.length(3);
      expect(ids).to.deep.equal([1, 2, 3]);
    });

    it('serves concurrent clients', async () => {
      const replies = await Promise.all(Array.from({ length: 50 }, (_, id) => postJson(url, { jsonrpc: '2.0', id, method: 'eth_chainId', params: [] })));
      expect(replies.map((r) => JSON.parse(r.body).id)).to.deep.equal(Array.from({ length: 50 }, (_, id) => id));
    });
  });
});

describe('e2e: HTTP server lifecycle', function () {
  this.timeout(30_000);

  it('closes with an idle keep-alive connection open and frees the port', async () => {
    const server = await createServer({ quiet: true });
    const info = await server.listen(0, '127.0.0.1');
    const agent = new Agent({ keepAlive: true });
    try {
      const body = JSON.stringify(CHAIN_ID);
      const res = await httpExchange(info.url, { agent, headers: { 'content-type': 'application/json' }, body });
      expect(res.status).to.equal(200);
      const started = performance.now();
      await server.close();
      expect(performance.now() - started).to.be.below(2000);
      const refused = await fetch(info.url, { method: 'POST', body: '{}' }).then(
        () => false,
        () => true,
      );
      expect(refused).to.equal(true);
    } finally {
      agent.destroy();
    }
  });

  it('refuses to listen twice', async () => {
    const server = await createServer({ quiet: true });
    await server.listen(0, '127.0.0.1');
    try {
      let failed = false;
      try {
        await server.listen(0, '127.0.0.1');
      } catch {
        failed = true;
      }
      expect(failed).to.equal(true);
    } finally {
      await server.close();
    }
  });
});
