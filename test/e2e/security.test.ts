/**
 * Security over HTTP: loopback binding by default, the warning for other addresses, the
 * Host-header allowlist (DNS rebinding), CORS origins, and sending/signing only for owned
 * or impersonated accounts.
 */
import { expect } from 'chai';
import { type ChainSimServer, createServer } from '../../src/index.js';
import { startCli } from '../helpers/cli.js';
import { FIRST_ACCOUNT, httpExchange, postJson } from '../helpers/rpc.js';

const CHAIN_ID = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
const STRANGER = '0x000000000000000000000000000000000000dEaD';

function post(url: string, host: string, headers: Record<string, string> = {}) {
  return httpExchange(url, { headers: { host, 'content-type': 'application/json', ...headers }, body: CHAIN_ID });
}

async function rpc(url: string, method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const res = await postJson(url, { jsonrpc: '2.0', id: 1, method, params });
  expect(res.status).to.equal(200);
  return JSON.parse(res.body) as { result?: unknown; error?: { code: number; message: string } };
}

describe('e2e: security', function () {
  this.timeout(30_000);

  describe('binding', () => {
    it('binds 127.0.0.1 by default', async () => {
      const server = await createServer({ quiet: true, port: 0 });
      try {
        const info = await server.listen();
        expect(info.host).to.equal('127.0.0.1');
      } finally {
        await server.close();
      }
    });

    it('the CLI listens on 127.0.0.1 without a warning by default', async () => {
      const cli = await startCli(['--port', '0', '--quiet']);
      try {
        expect(cli.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
        expect(cli.output()).to.not.contain('Warning');
      } finally {
        await cli.stop();
      }
    });

    it('the CLI warns that unlocked accounts are exposed when binding another address', async () => {
      const cli = await startCli(['--port', '0', '--quiet', '--host', '0.0.0.0']);
      try {
        // The warning follows the listening line on stderr.
        for (let i = 0; i < 50 && !cli.output().includes('Warning'); i++) await new Promise((r) => setTimeout(r, 20));
        expect(cli.output()).to.match(/Warning: listening on 0\.0\.0\.0: the unlocked accounts can be used by anyone/);
      } finally {
        await cli.stop();
      }
    });
  });

  describe('Host allowlist', () => {
    let server: ChainSimServer;
    let url: string;
    let port: number;

    before(async () => {
      server = await createServer({ quiet: true });
      ({ url, port } = await server.listen(0, '127.0.0.1'));
    });
    after(() => server?.close());

    it('answers localhost, 127.0.0.1, [::1] and IP addresses', async () => {
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'LOCALHOST', `10.1.2.3:${port}`]) {
        const res = await post(url, host);
        expect(res.status, host).to.equal(200);
        expect(JSON.parse(res.body).result).to.equal('0x539');
      }
    });

    it('refuses any other name with 403 and a JSON-RPC error body (DNS rebinding)', async () => {
      for (const host of [`evil.example:${port}`, 'localhost.evil.example', `rebind.127.0.0.1.nip.io:${port}`]) {
        const res = await post(url, host);
        expect(res.status, host).to.equal(403);
        expect(JSON.parse(res.body)).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid host specified' } });
      }
      const preflight = await httpExchange(url, { method: 'OPTIONS', headers: { host: 'evil.example', origin: 'http://evil.example' } });
      expect(preflight.status).to.equal(403);
    });

    it('takes --allowed-hosts (a list replacing the default, or *), and the bound host name', async () => {
      const custom = await createServer({ quiet: true, allowedHosts: 'chain.test, other.test' });
      const any = await createServer({ quiet: true, allowedHosts: ['*'] });
      try {
        const customUrl = (await custom.listen(0, 'localhost')).url;
        expect((await post(customUrl, 'chain.test:1')).status).to.equal(200);
        expect((await post(customUrl, 'other.test')).status).to.equal(200);
        expect((await post(customUrl, 'evil.example')).status).to.equal(403);
        // Bound to "localhost": that name stays answerable even though the list does not name it.
        expect((await post(customUrl, 'localhost')).status).to.equal(200);
        const anyUrl = (await any.listen(0, '127.0.0.1')).url;
        expect((await post(anyUrl, 'evil.example')).status).to.equal(200);
      } finally {
        await custom.close();
        await any.close();
      }
    });

    it('the CLI takes --allowed-hosts and --cors', async () => {
      const cli = await startCli(['--port', '0', '--quiet', '--allowed-hosts', 'chain.test', '--cors', 'https://app.example']);
      try {
        expect((await post(cli.url, 'chain.test')).status).to.equal(200);
        expect((await post(cli.url, 'localhost')).status).to.equal(403);
        const res = await post(cli.url, 'chain.test', { origin: 'https://app.example' });
        expect(res.headers['access-control-allow-origin']).to.equal('https://app.example');
      } finally {
        await cli.stop();
      }
    });
  });

  describe('CORS', () => {
    it('lets loopback pages read replies by default and no one else', async () => {
      const server = await createServer({ quiet: true });
      try {
        const { url } = await server.listen(0, '127.0.0.1');
        const local = await post(url, 'localhost', { origin: 'http://127.0.0.1:5173' });
        expect(local.headers['access-control-allow-origin']).to.equal('http://127.0.0.1:5173');
        expect(local.headers.vary).to.match(/origin/i);
        const foreign = await post(url, 'localhost', { origin: 'https://app.example' });
        expect(foreign.headers['access-control-allow-origin']).to.equal(undefined);
        const preflight = await httpExchange(url, {
          method: 'OPTIONS',
          headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
        });
        expect(preflight.status).to.equal(204);
        expect(preflight.headers['access-control-allow-origin']).to.equal(undefined);
        expect(preflight.headers['access-control-allow-methods']).to.equal(undefined);
      } finally {
        await server.close();
      }
    });

    it('--cors * allows every origin', async () => {
      const server = await createServer({ quiet: true, cors: '*' });
      try {
        const { url } = await server.listen(0, '127.0.0.1');
        const res = await post(url, 'localhost', { origin: 'https://app.example' });
        expect(res.headers['access-control-allow-origin']).to.equal('*');
      } finally {
        await server.close();
      }
    });

    it('refuses malformed --cors and --allowed-hosts entries', async () => {
      for (const options of [{ cors: 'localhost:3000' }, { cors: 'http://a/b' }, { allowedHosts: 'a b' }, { allowedHosts: '' }]) {
        let message = '';
        try {
          await createServer({ quiet: true, ...options });
        } catch (error) {
          message = (error as Error).message;
        }
        expect(message, JSON.stringify(options)).to.match(/^invalid value for (cors|allowed-hosts): /);
      }
    });
  });

  describe('accounts', () => {
    let server: ChainSimServer;
    let url: string;

    before(async () => {
      server = await createServer({ quiet: true });
      ({ url } = await server.listen(0, '127.0.0.1'));
    });
    after(() => server?.close());

    it('sends and signs for owned accounts', async () => {
      expect((await rpc(url, 'eth_sendTransaction', [{ from: FIRST_ACCOUNT, to: STRANGER, value: '0x1' }])).result).to.match(/^0x[0-9a-f]{64}$/);
      expect((await rpc(url, 'eth_sign', [FIRST_ACCOUNT, '0x1234'])).result).to.match(/^0x[0-9a-f]{130}$/);
    });

    it('refuses to send or sign for any other account with -32000', async () => {
      const calls: Array<[string, unknown[]]> = [
        ['eth_sendTransaction', [{ from: STRANGER, to: FIRST_ACCOUNT, value: '0x1' }]],
        ['chain_sendTransaction', [{ from: STRANGER, to: FIRST_ACCOUNT }]],
        ['eth_sign', [STRANGER, '0x1234']],
        ['chain_sign', [STRANGER, '0x1234']],
        ['personal_sign', ['0x1234', STRANGER]],
        ['eth_signTypedData_v4', [STRANGER, { types: { EIP712Domain: [] }, primaryType: 'EIP712Domain', domain: {}, message: {} }]],
      ];
      for (const [method, params] of calls) {
        const reply = await rpc(url, method, params);
        expect(reply.error?.code, method).to.equal(-32000);
        expect(reply.error?.message, method).to.match(/^unknown account 0x000000000000000000000000000000000000dead$/i);
      }
    });

    it('sends for an impersonated account only while impersonated, and never signs for it', async () => {
      await rpc(url, 'hardhat_setBalance', [STRANGER, '0xde0b6b3a7640000']);
      expect((await rpc(url, 'hardhat_impersonateAccount', [STRANGER])).result).to.equal(true);
      expect((await rpc(url, 'eth_sendTransaction', [{ from: STRANGER, to: FIRST_ACCOUNT, value: '0x1' }])).result).to.match(/^0x[0-9a-f]{64}$/);
      // No key, so no signature: impersonation lets the node send, not forge signatures.
      expect((await rpc(url, 'eth_sign', [STRANGER, '0x1234'])).error?.code).to.equal(-32000);
      expect((await rpc(url, 'hardhat_stopImpersonatingAccount', [STRANGER])).result).to.equal(true);
      const after = await rpc(url, 'eth_sendTransaction', [{ from: STRANGER, to: FIRST_ACCOUNT, value: '0x1' }]);
      expect(after.error?.code).to.equal(-32000);
      expect(after.error?.message).to.match(/unknown account/);
    });
  });
});
