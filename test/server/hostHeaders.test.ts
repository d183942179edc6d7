/**
 * Host headers over real sockets (issue 25, item 8): requests written byte for byte with
 * net.Socket, since HTTP clients neither send two Host headers nor malformed ones. Node's
 * parser keeps the first Host of several and drops the rest; the server must refuse such a
 * request rather than serve whichever name the check happened to see.
 */
import { connect } from 'node:net';
import { expect } from 'chai';
import { type ChainSimServer, createServer } from '../../src/index.js';

const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });

/** Send `head` (the request line and headers, without the final blank line) and read the answer until the server closes or 2 s pass. */
function exchange(port: number, head: string[], body = BODY): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const done = () => {
      socket.destroy();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, text });
    };
    const timer = setTimeout(done, 2000);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      // A whole JSON answer or an empty 403/400 body: enough to judge.
      if (/\r\n\r\n/.test(text) && (/"jsonrpc"/.test(text) || /Content-Length: 0/i.test(text))) {
        clearTimeout(timer);
        done();
      }
    });
    socket.on('end', () => {
      clearTimeout(timer);
      done();
    });
    socket.on('error', reject);
    socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
  });
}

const post = (...headers: string[]) => ['POST / HTTP/1.1', ...headers, 'Content-Type: application/json', `Content-Length: ${BODY.length}`];
const upgrade = (...headers: string[]) => [
  'GET / HTTP/1.1',
  ...headers,
  'Connection: Upgrade',
  'Upgrade: websocket',
  'Sec-WebSocket-Version: 13',
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
];

describe('server: Host headers over raw sockets', function () {
  this.timeout(30_000);
  let server: ChainSimServer;
  let port: number;
  before(async () => {
    server = await createServer({ quiet: true, port: 0 });
    port = (await server.listen()).port;
  });
  after(() => server.close());

  it('serves a well-formed allowed Host (the control case)', async () => {
    for (const host of ['localhost:8545', '127.0.0.1', '[::1]:8545', '[::1]', 'LOCALHOST']) {
      const { status, text } = await exchange(port, post(`Host: ${host}`));
      expect(status, `${host}: ${text}`).to.equal(200);
      expect(text).to.contain('"result":"0x539"');
    }
  });

  for (const host of [
    '[::1]evil.com',
    '[::1]evil.com:8545',
    '[::1]:8545evil.com',
    'localhost:8545evil',
    '127.0.0.1:80:80',
    '[evil.com]',
    '[::1',
    'local host',
    'localhost/x',
  ]) {
    it(`refuses the malformed Host ${JSON.stringify(host)} with 400, over HTTP and WebSocket`, async () => {
      const http = await exchange(port, post(`Host: ${host}`));
      expect(http.status, http.text).to.equal(400);
      expect(http.text).to.not.contain('0x539');
      const ws = await exchange(port, upgrade(`Host: ${host}`), '');
      expect(ws.status, ws.text).to.equal(400);
    });
  }

  for (const [label, headers] of [
    ['an allowed one then a foreign one', ['Host: localhost', 'Host: evil.example']],
    ['a foreign one then an allowed one', ['Host: evil.example', 'Host: localhost']],
    ['the same allowed one twice', ['Host: localhost', 'Host: localhost']],
    ['two spellings of the header name', ['Host: 127.0.0.1', 'HOST: evil.example']],
  ] as const) {
    it(`refuses two Host headers (${label}) with 400 and closes the connection, over HTTP and WebSocket`, async () => {
      const http = await exchange(port, post(...headers));
      expect(http.status, http.text).to.equal(400);
      expect(http.text).to.match(/too many Host headers/);
      expect(http.text).to.match(/connection: close/i);
      expect(http.text).to.not.contain('0x539');
      const ws = await exchange(port, upgrade(...headers), '');
      expect(ws.status, ws.text).to.equal(400);
    });
  }

  it('still answers 403 for a well-formed name outside the allowlist, and upgrades an allowed WebSocket', async () => {
    expect((await exchange(port, post('Host: evil.example:8545'))).status).to.equal(403);
    expect((await exchange(port, upgrade('Host: evil.example'), '')).status).to.equal(403);
    const ws = await exchange(port, upgrade('Host: localhost'), '');
    expect(ws.status, ws.text).to.equal(101);
  });
});
