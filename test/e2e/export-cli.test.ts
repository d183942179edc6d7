import { readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import { callRpc } from '../../src/cli/rpcClient.js';
import { ADDRESSES, newNode } from '../helpers/chain.js';
import { type RunningCli, runCli, startCli } from '../helpers/cli.js';
import { tempDir } from '../import/chain.js';

/** A port nothing listens on (fetch refuses well-known ones such as 1). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('chain-sim export FILE against a running npx chain-sim, then --import FILE', function () {
  this.timeout(120_000);
  let dir: string;
  let fixture: string;
  let source: RunningCli;
  const rpc = (method: string, params: unknown[] = []) => callRpc(source.url, method, params);

  before(async () => {
    dir = tempDir();
    // Same genesis for every instance: a fixture with a genesis timestamp.
    fixture = join(dir, 'genesis.json');
    writeFileSync(fixture, JSON.stringify({ timestamp: '0x6b49d200', alloc: {} }));
    source = await startCli(['chain-sim', '--port', '0', '--quiet', '--fixture', fixture], { command: 'npx', prefix: ['--no-install'] });
    for (let i = 0; i < 3; i++) await rpc('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x1' }]);
    // More blocks than one request of `chain-sim export` fetches (1024), so it works in ranges.
    await rpc('chain_mine', ['0x400']);
  });
  after(() => source.stop());

  it('writes exactly what chain_exportChain answers, and a node started with --import serves the same chain', async () => {
    const file = join(dir, 'chain.rlp');
    const result = await runCli(['export', file, '--rpc-url', source.url]);
    expect(result.stderr).to.equal('');
    expect(result.code).to.equal(0);
    expect(result.stdout.trim()).to.match(new RegExp(`^Exported blocks 1\\.\\.1027 \\(\\d+ bytes\\) to ${file}$`));
    const whole = (await rpc('chain_exportChain')) as string;
    expect(`0x${readFileSync(file).toString('hex')}`).to.equal(whole);

    expect(JSON.parse(readFileSync(`${file}.genesis.json`, 'utf8'))).to.deep.equal(await rpc('chain_exportGenesis'));
    const imported = await startCli(['--port', '0', '--quiet', '--fixture', fixture, '--import', file]);
    try {
      const head = await callRpc(imported.url, 'eth_getBlockByNumber', ['latest', false]);
      expect(head).to.deep.equal(await rpc('eth_getBlockByNumber', ['latest', false]));
      expect(await callRpc(imported.url, 'eth_getBalance', [ADDRESSES[1], '0x2'])).to.equal(await rpc('eth_getBalance', [ADDRESSES[1], '0x2']));
    } finally {
      await imported.stop();
    }
  });

  it('a range with --first/--last imports into a node that has the blocks before it', async () => {
    const first = join(dir, 'first.rlp');
    const rest = join(dir, 'rest.rlp');
    expect((await runCli(['export', first, '--rpc-url', source.url, '--last', '2'])).code).to.equal(0);
    expect((await runCli(['export', rest, '--rpc-url', source.url, '--first', '3', '--last', '3'])).code).to.equal(0);
    const { provider, rpc: local } = newNode({ quiet: true, hardfork: undefined, fixtures: [fixture], import: first });
    const { chain } = await provider.ready();
    const { readChainFile } = await import('../../src/startup/chainFile.js');
    expect(await chain.importBlocks(readChainFile(rest))).to.deep.equal({ imported: 1, known: 0, transactions: 1 });
    expect(await local('eth_getBlockByNumber', ['0x3', true])).to.deep.equal(await rpc('eth_getBlockByNumber', ['0x3', true]));
  });

  it('errors: one line on stderr, exit code 1, no file left behind', async () => {
    const file = join(dir, 'never.rlp');
    const past = await runCli(['export', file, '--rpc-url', source.url, '--last', '5000']);
    expect(past.code).to.equal(1);
    expect(past.stderr).to.equal("chain-sim: export: --last 5000 is after the node's head 1027\n");
    const reversed = await runCli(['export', file, '--rpc-url', source.url, '--first', '3', '--last', '2']);
    expect(reversed.stderr).to.equal('chain-sim: export: --first 3 is after --last 2\n');
    const port = await closedPort();
    const closed = await runCli(['export', file, '--rpc-url', `http://127.0.0.1:${port}`]);
    expect(closed.code).to.equal(1);
    expect(closed.stderr).to.equal(`chain-sim: export: cannot reach http://127.0.0.1:${port}: ECONNREFUSED\n`);
    const noFile = await runCli(['export']);
    expect(noFile.stderr).to.equal('chain-sim: export: expected one FILE\n');
    expect(() => readFileSync(file)).to.throw(/ENOENT/);
  });
});
