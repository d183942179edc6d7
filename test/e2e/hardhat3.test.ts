import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ROOT, type RunningCli, runNode, startCli } from '../helpers/cli.js';

const PROJECT = fileURLToPath(new URL('../../../test/e2e/hardhat3-project/', import.meta.url));
const INSTALL = fileURLToPath(new URL('../../../scripts/install-hardhat3.mjs', import.meta.url));

/** What scripts/install-hardhat3.mjs recorded: the Node (>= 22.13) that runs Hardhat 3 (a path relative to the project, or absolute). */
interface InstallStamp {
  readonly node: string;
  readonly hardhat: string;
}

/** Mocha's spec reporter's summary lines ("9 passing (1s)", "1 failing", "2 pending"), colours stripped. */
function mochaCounts(output: string): { passing: number; failing: number; pending: number } {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
  const count = (word: string) => Number(new RegExp(`^\\s*(\\d+) ${word}\\b`, 'm').exec(plain)?.[1] ?? 0);
  return { passing: count('passing'), failing: count('failing'), pending: count('pending') };
}

/** The `it(...)` calls of the project's test folders, so that a test lost on the way (not loaded, not run) fails this one. */
function declaredTests(...folders: string[]): number {
  return folders.reduce((sum, folder) => {
    const dir = join(PROJECT, folder);
    return (
      sum +
      readdirSync(dir)
        .filter((file) => file.endsWith('.ts'))
        .reduce((count, file) => count + (readFileSync(join(dir, file), 'utf8').match(/^\s*it\(/gm)?.length ?? 0), 0)
    );
  }, 0);
}

/** Run `command` in the Hardhat 3 project to completion, stdout and stderr together. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: PROJECT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => done({ code, output }));
  });
}

/**
 * A Hardhat 3 project (test/e2e/hardhat3-project: `defineConfig`, a network of `type: "http"`,
 * hardhat-ethers, the ethers chai matchers, hardhat-mocha and the network helpers) runs its Mocha
 * tests with `hardhat test mocha --network chainsim` against `node bin/chain-sim.js`, on the Node 22
 * binary the project installs (Hardhat 3 refuses Node 20). Its Solidity compiles with solc-js
 * (`solidity.path`), offline.
 */
describe('Hardhat 3 over HTTP against chain-sim', function () {
  this.timeout(180_000);
  let stamp: InstallStamp;
  let node: RunningCli | undefined;
  let out: string | undefined;

  before(async function () {
    const check = await runNode([INSTALL, '--check'], { cwd: ROOT });
    if (check.code !== 0) {
      console.warn(
        '      skipping: the Hardhat 3 example project is not installed or out of date (test/e2e/hardhat3-project/node_modules). ' +
          '`npm test` installs it (its pretest runs scripts/install-hardhat3.mjs); or run `node scripts/install-hardhat3.mjs`.',
      );
      this.skip();
    }
    stamp = JSON.parse(readFileSync(join(PROJECT, 'node_modules/.chain-sim-install.json'), 'utf8')) as InstallStamp;
    node = await startCli(['--port', '0']);
    out = mkdtempSync(join(tmpdir(), 'chain-sim-hardhat3-'));
  });
  after(async () => {
    await node?.stop();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it("runs the project's Mocha tests (hardhat-ethers, chai matchers, network helpers) and all pass", async () => {
    const result = await run(resolve(PROJECT, stamp.node), ['node_modules/hardhat/dist/src/cli.js', 'test', 'mocha', '--network', 'chainsim'], {
      CHAIN_SIM_URL: node!.url,
      HARDHAT_OUT: out,
    });
    const counts = mochaCounts(result.output);
    const declared = declaredTests('test');
    expect(declared, 'it() calls in test/e2e/hardhat3-project/test').to.be.greaterThan(0);
    expect(result.output, 'compiled offline with solc-js').to.match(/Compiled 1 Solidity file with solc 0\.8\.30/);
    expect(counts, result.output).to.deep.equal({ passing: declared, failing: 0, pending: 0 });
    expect(result.code, result.output).to.equal(0);
  });
});

/**
 * The same project with chain-sim serving Hardhat 3's simulated networks in process
 * (hardhat.chain-sim.config.ts: chainSim first in `plugins`): `hardhat test mocha` without
 * --network runs on the `default` network, each connection a chain-sim chain of its own
 * (test-in-process/connections.ts), and Lock.ts's tests pass there as they do over HTTP.
 */
describe('Hardhat 3 in process: chain-sim/hardhat serves the simulated networks', function () {
  this.timeout(180_000);
  let stamp: InstallStamp;
  let out: string | undefined;
  const mocha = (env: NodeJS.ProcessEnv = {}) =>
    run(
      resolve(PROJECT, stamp.node),
      ['node_modules/hardhat/dist/src/cli.js', 'test', 'mocha', '--config', 'hardhat.chain-sim.config.ts', 'test/Lock.ts', 'test-in-process/connections.ts'],
      { HARDHAT_OUT: out, ...env },
    );

  before(async function () {
    const check = await runNode([INSTALL, '--check'], { cwd: ROOT });
    if (check.code !== 0) {
      console.warn('      skipping: the Hardhat 3 example project is not installed or out of date (see above).');
      this.skip();
    }
    stamp = JSON.parse(readFileSync(join(PROJECT, 'node_modules/.chain-sim-install.json'), 'utf8')) as InstallStamp;
    // As scripts/install-hardhat3.mjs links it: this checkout as the project's chain-sim.
    const link = join(PROJECT, 'node_modules/chain-sim');
    if (!existsSync(link)) symlinkSync('../../../..', link, 'dir');
    out = mkdtempSync(join(tmpdir(), 'chain-sim-hardhat3-inproc-'));
  });
  after(() => {
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it('runs the Mocha tests on chain-sim in process, a chain per connection, and all pass', async () => {
    const result = await mocha();
    const counts = mochaCounts(result.output);
    const declared = declaredTests('test', 'test-in-process');
    expect(result.output).to.contain('Hardhat 3 simulated networks on chain-sim, in process');
    expect(counts, result.output).to.deep.equal({ passing: declared, failing: 0, pending: 0 });
    expect(result.code, result.output).to.equal(0);
  });

  it('explains failures with the project’s artifacts, with the new code after a rebuild on the same connection', async () => {
    try {
      const result = await run(
        resolve(PROJECT, stamp.node),
        ['node_modules/hardhat/dist/src/cli.js', 'run', '--config', 'hardhat.chain-sim.config.ts', 'scripts/recompile.ts'],
        { HARDHAT_OUT: out },
      );
      expect(result.code, result.output).to.equal(0);
      const line = result.output.trim().split('\n').pop()!;
      const { before, after } = JSON.parse(line) as Record<'before' | 'after', { message: string; frame: string }>;
      for (const failure of [before, after]) expect(failure.message, line).to.contain("reverted with custom error 'Nope(7)'");
      expect(before.frame).to.equal('at Edited.fail (contracts/Edited.sol:10)');
      expect(after.frame).to.equal('at Edited.fail (contracts/Edited.sol:15)');
    } finally {
      rmSync(join(PROJECT, 'contracts', 'Edited.sol'), { force: true });
    }
  });

  it('refuses, when the config loads, to come after the plugins that extend connections', async () => {
    const result = await mocha({ CHAIN_SIM_LAST: '1' });
    expect(result.code).to.not.equal(0);
    expect(result.output).to.contain('chainSim must come first in plugins (it comes after hardhat-ethers');
    expect(mochaCounts(result.output).passing).to.equal(0);
  });
});
