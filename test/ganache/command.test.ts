/**
 * The `ganache` command of the Ganache drop-in (issue 33): scripts written for Ganache's CLI
 * (`ganache --wallet.totalAccounts 5 ...`, `npx ganache`) run unchanged once chain-sim-ganache is
 * installed as `ganache`, while chain-sim installed under its own name never takes the command.
 * Here the command's script (bin/ganache.js) runs from the checkout; scripts/check-package.mjs
 * installs both packed tarballs and runs it through npx.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { parseCommandLine } from '../../src/cli.js';
import { GANACHE_DETERMINISTIC_MNEMONIC } from '../../src/options.js';
import { GANACHE_BIN, ROOT, type RunningCli, runNode, startCli } from '../helpers/cli.js';

const GANACHE_LISTENING = /RPC Listening on (\S+)/;

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (answer.error) throw new Error(answer.error.message);
  return answer.result;
}

const packageJson = (path: string) => JSON.parse(readFileSync(`${ROOT}${path}`, 'utf8')) as Record<string, unknown>;

describe('the `ganache` command (Ganache drop-in)', function () {
  this.timeout(60_000);
  let cli: RunningCli | undefined;
  afterEach(async () => {
    await cli?.stop();
    cli = undefined;
  });

  it('ganache --wallet.totalAccounts 5 --server.port 0: Ganache’s listening line, 5 accounts of 1000 ether, Ganache’s client version', async () => {
    cli = await startCli(['--wallet.totalAccounts', '5', '--server.port', '0'], { prefix: [GANACHE_BIN], listening: GANACHE_LISTENING });
    expect(cli.output()).to.match(/^RPC Listening on 127\.0\.0\.1:\d+$/m);
    const accounts = (await rpc(cli.url, 'eth_accounts')) as string[];
    expect(accounts).to.have.length(5);
    expect(await rpc(cli.url, 'eth_getBalance', [accounts[0], 'latest'])).to.equal(`0x${(1000n * 10n ** 18n).toString(16)}`);
    expect(await rpc(cli.url, 'web3_clientVersion')).to.match(/^Ganache\/v7\.9\.2\//);
    // Ganache's random mnemonic, not chain-sim's default accounts.
    expect(accounts[0]).to.not.equal('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
  });

  it('ganache-cli 6 short flags: -d -h HOST -p 0 -q (Ganache’s -h is the host)', async () => {
    cli = await startCli(['-d', '-h', '127.0.0.1', '-p', '0', '-q'], { prefix: [GANACHE_BIN], listening: GANACHE_LISTENING });
    expect(cli.output().trim()).to.match(/^RPC Listening on 127\.0\.0\.1:\d+$/);
    expect(((await rpc(cli.url, 'eth_accounts')) as string[])[0]).to.equal('0x90f8bf6a479f320ead074411a4b0e7944ea8c9c1');
  });

  it('refuses an unknown flag with the nearest one, under its own name; -? is help', async () => {
    const refused = await runNode([GANACHE_BIN, '--wallet.totalAcounts', '3']);
    expect(refused.code).to.equal(1);
    expect(refused.stderr.trim()).to.equal("ganache: Unknown argument: wallet.totalAcounts: did you mean '--wallet.totalAccounts'?");
    const help = await runNode([GANACHE_BIN, '-?']);
    expect(help.code).to.equal(0);
    expect(help.stdout).to.match(/^ganache \[options\]/);
  });

  it("parses Ganache's defaults in, under what the command line gives", async () => {
    const { options } = await parseCommandLine(['-h', '0.0.0.0', '--chain.networkId', '7', '-d'], 'ganache');
    expect(options).to.include({ host: '0.0.0.0', networkId: '7', deterministic: true, balance: '1000', compat: 'ganache' });
    expect(options).to.not.have.property('hardhatNode'); // compat 'ganache' gives every client Ganache's forms
    expect(options.mnemonic).to.equal(undefined); // -d: Ganache's deterministic mnemonic, resolved from the switch
    const random = (await parseCommandLine([], 'ganache')).options.mnemonic;
    expect(random).to.be.a('string').and.not.equal(GANACHE_DETERMINISTIC_MNEMONIC);
    // chain-sim's own command: none of Ganache's defaults, and -h stays help.
    expect((await parseCommandLine(['--server.host', '0.0.0.0'])).options).to.deep.equal({ host: '0.0.0.0' });
  });

  it("chain-sim's bin map has no `ganache`; the drop-in package links it, at chain-sim's exact version", () => {
    const chainSim = packageJson('package.json') as { version: string; bin: Record<string, string>; exports: Record<string, unknown> };
    expect(Object.keys(chainSim.bin)).to.deep.equal(['chain-sim']);
    expect(chainSim.exports['./bin/ganache.js']).to.equal('./bin/ganache.js');
    const dropIn = packageJson('ganache-drop-in/package.json') as { version: string; bin: Record<string, string>; dependencies: Record<string, string> };
    expect(dropIn.bin).to.deep.equal({ ganache: 'bin/ganache.js', 'ganache-cli': 'bin/ganache.js' });
    expect(dropIn.version).to.equal(chainSim.version);
    expect(dropIn.dependencies).to.deep.equal({ 'chain-sim': chainSim.version });
  });
});
