/**
 * The explorer page's serving (src/server/explorer.ts) over a real socket: GET / and its assets,
 * the security headers, --no-ui, the Host and Origin rules, the lazy read, and the two methods
 * the page needs (chain_accountKeys, chain_identifyContract). The page itself runs in Chromium in
 * test/e2e/explorer.test.ts.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { type ChainSimServer, createServer } from '../../src/index.js';
import { createExplorerFiles } from '../../src/server/explorer.js';
import { FIRST_ACCOUNT, fetchRpc, httpExchange, rpcError } from '../helpers/rpc.js';

/** Whether a WebSocket upgrade with these headers is accepted (true) or refused (the status). */
function upgrade(url: string, headers: Record<string, string>): Promise<true | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url.replace('http', 'ws'), { headers });
    ws.once('open', () => {
      ws.close();
      resolve(true);
    });
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', (error) => reject(error));
  });
}

describe('server: the explorer page', function () {
  this.timeout(30_000);
  let server: ChainSimServer;
  let url: string;
  let port: number;
  before(async () => {
    server = await createServer({ quiet: true });
    ({ url, port } = await server.listen(0, '127.0.0.1'));
  });
  after(() => server.close());

  it('answers GET / with the page, locked down by its headers', async () => {
    const res = await httpExchange(url, { method: 'GET' });
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
    expect(res.body).to.contain('<script type="module" src="/_ui/app.js"></script>');
    expect(res.headers['content-security-policy']).to.contain("frame-ancestors 'none'").and.contain("connect-src 'self'").and.contain("script-src 'self'");
    expect(res.headers['x-frame-options']).to.equal('DENY');
    expect(res.headers['x-content-type-options']).to.equal('nosniff');
  });

  it('serves the script and stylesheet under /_ui/, and HEAD without a body', async () => {
    const script = await httpExchange(url, { method: 'GET', path: '/_ui/app.js' });
    expect(script.status).to.equal(200);
    expect(script.headers['content-type']).to.equal('text/javascript; charset=utf-8');
    expect(script.body.length).to.be.greaterThan(10_000);
    const style = await httpExchange(url, { method: 'GET', path: '/_ui/app.css' });
    expect(style.status).to.equal(200);
    expect(style.headers['content-type']).to.equal('text/css; charset=utf-8');
    const head = await httpExchange(url, { method: 'HEAD', path: '/_ui/app.js' });
    expect(head.status).to.equal(200);
    expect(Number(head.headers['content-length'])).to.equal(Buffer.byteLength(script.body));
    expect(head.body).to.equal('');
  });

  it('answers 404 for any other path: no request reaches another file', async () => {
    for (const path of ['/_ui/nothing.js', '/_ui/../package.json', '/_ui/%2e%2e/package.json', '/_ui/', '/_ui/index.html', '/index.html', '/favicon.ico']) {
      const res = await httpExchange(url, { method: 'GET', path });
      expect(res.status, path).to.equal(404);
    }
  });

  it('keeps JSON-RPC on POST /', async () => {
    expect(await fetchRpc(() => url)('eth_chainId')).to.equal('0x539');
  });

  it('refuses a foreign Host (DNS rebinding) with 403, for the page as for JSON-RPC', async () => {
    const res = await httpExchange(url, { method: 'GET', headers: { host: `evil.example:${port}` } });
    expect(res.status).to.equal(403);
    expect(res.body).to.not.contain('<script');
    expect((await httpExchange(url, { method: 'GET', headers: { host: `localhost:${port}` } })).status).to.equal(200);
  });

  it('lets the page it served open a WebSocket from its own origin, and refuses foreign origins', async () => {
    // The page opened at an address outside the --cors list (the machine's IP, with --host 0.0.0.0) is same-origin.
    const host = `127.0.0.2:${port}`;
    expect(await upgrade(url, { host, origin: `http://${host}` })).to.equal(true);
    expect(await upgrade(url, { origin: `http://127.0.0.1:${port}` })).to.equal(true);
    expect(await upgrade(url, { origin: 'https://evil.example' })).to.equal(403);
    expect(await upgrade(url, { host, origin: `http://evil.example:${port}` })).to.equal(403);
  });

  it('chain_accountKeys answers the node accounts with their keys; the CORS rule withholds them from foreign pages', async () => {
    const keys = await fetchRpc(() => url)<Array<{ address: string; privateKey: string }>>('chain_accountKeys');
    expect(keys).to.have.length(10);
    expect(keys[0]).to.deep.equal({ address: FIRST_ACCOUNT.toLowerCase(), privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' });
    // A foreign page's JSON POST needs a preflight; it gets no permission, so the browser never sends it.
    const preflight = await httpExchange(url, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.headers['access-control-allow-origin']).to.equal(undefined);
  });

  it('chain_identifyContract answers null for an account without code, and the address for code it does not know', async () => {
    const call = fetchRpc(() => url);
    expect(await call('chain_identifyContract', [FIRST_ACCOUNT])).to.equal(null);
    await call('hardhat_setCode', ['0x00000000000000000000000000000000000000c0', '0x6001600055']);
    expect(await call('chain_identifyContract', ['0x00000000000000000000000000000000000000c0'])).to.deep.equal({
      address: '0x00000000000000000000000000000000000000c0',
      contract: null,
    });
    expect((await rpcError(() => call('chain_identifyContract', ['0x12']))).message).to.match(/address/);
  });
});

describe('server: --no-ui', function () {
  this.timeout(30_000);
  let server: ChainSimServer;
  let url: string;
  before(async () => {
    server = await createServer({ quiet: true, ui: false });
    ({ url } = await server.listen(0, '127.0.0.1'));
  });
  after(() => server.close());

  it('answers GET / with 405 as before the explorer, and its assets with 404', async () => {
    const page = await httpExchange(url, { method: 'GET' });
    expect(page.status).to.equal(405);
    expect(JSON.parse(page.body).error.message).to.equal('method GET not allowed: use POST');
    expect((await httpExchange(url, { method: 'GET', path: '/_ui/app.js' })).status).to.equal(404);
  });

  it('keeps the WebSocket to the --cors list alone (no same-origin exception)', async () => {
    const host = `127.0.0.2:${new URL(url).port}`;
    expect(await upgrade(url, { host, origin: `http://${host}` })).to.equal(403);
  });
});

describe('server/explorer: files are read on the first GET, not before', () => {
  it('lists and reads the folder only when a GET asks', async () => {
    const folder = `${mkdtempSync(join(tmpdir(), 'chain-sim-ui-'))}/`;
    try {
      const files = createExplorerFiles(folder);
      // Written after the files object exists: found, so nothing was read when it was made.
      writeFileSync(`${folder}index.html`, '<p>page</p>');
      const http = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
        if (!files.serve((req.url ?? '/').split('?')[0]!, req, res)) {
          res.writeHead(404);
          res.end();
        }
      });
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      const address = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
      const page = await httpExchange(address, { method: 'GET' });
      expect(page.status).to.equal(200);
      expect(page.body).to.equal('<p>page</p>');
      await new Promise((resolve) => http.close(resolve));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
