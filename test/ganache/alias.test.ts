/**
 * `npm install ganache@npm:chain-sim` installs chain-sim under the name `ganache`: a suite's
 * `require('ganache')` and `import ganache from 'ganache'` then load chain-sim's main entry,
 * which carries Ganache's provider() and server(). Checked with the package linked under
 * that name in a scratch project, run by a separate Node process.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ROOT, runNode } from '../helpers/cli.js';

describe('chain-sim installed as `ganache` (npm alias)', function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chain-sim-alias-'));
    await mkdir(join(dir, 'node_modules'));
    await symlink(ROOT, join(dir, 'node_modules', 'ganache'), 'dir');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("require('ganache') and import ganache from 'ganache' give Ganache's provider and server", async () => {
    await writeFile(
      join(dir, 'suite.cjs'),
      `
      const ganache = require('ganache');
      (async () => {
        const provider = ganache.provider({ wallet: { deterministic: true }, logging: { quiet: true } });
        const [first] = await provider.request({ method: 'eth_accounts', params: [] });
        const server = ganache.server({ logging: { quiet: true }, chain: { networkId: 77 } });
        await server.listen(0);
        const response = await fetch('http://127.0.0.1:' + server.address().port, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'net_version' }) });
        console.log(JSON.stringify({ first, version: (await response.json()).result }));
        await server.close();
        await provider.disconnect();
      })();
    `,
    );
    await writeFile(
      join(dir, 'suite.mjs'),
      `
      import ganache from 'ganache';
      const provider = ganache.provider({ wallet: { totalAccounts: 2 }, logging: { quiet: true } });
      console.log(JSON.stringify({ count: (await provider.request({ method: 'eth_accounts' })).length, client: await provider.request({ method: 'web3_clientVersion' }) }));
      await provider.disconnect();
    `,
    );
    const cjs = await runNode(['suite.cjs'], { cwd: dir });
    expect(cjs.stderr).to.equal('');
    expect(JSON.parse(cjs.stdout)).to.deep.equal({ first: '0x90f8bf6a479f320ead074411a4b0e7944ea8c9c1', version: '77' });
    const esm = await runNode(['suite.mjs'], { cwd: dir });
    expect(esm.stderr).to.equal('');
    const answer = JSON.parse(esm.stdout) as { count: number; client: string };
    expect(answer.count).to.equal(2);
    expect(answer.client).to.match(/^Ganache\/v7\.9\.2\//);
  });
});
