/**
 * `npx chain-sim` runs as npm exec → sh → node, and a signal sent to the npx process alone
 * (what start-server-and-test, concurrently, a cancelled CI job or `kill $!` send) ends npm
 * and its shell but never reaches the node. The node notices and shuts down as on SIGTERM:
 * the port is freed and the --state file written. A node detached by its user (nohup, or
 * --no-exit-with-launcher) keeps running when its launcher goes.
 *
 * The package is installed into a scratch project as a user installs it (node_modules/chain-sim
 * linked to this checkout), so `npx --no-install chain-sim` there is the real npm exec path.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, type RunningCli, startCli } from '../helpers/cli.js';
import { FIRST_ACCOUNT, postJson } from '../helpers/rpc.js';
import { waitFor } from '../helpers/waitFor.js';

const MARKER = '0x00000000000000000000000000000000000b0b00';

async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const reply = JSON.parse((await postJson(url, { jsonrpc: '2.0', id: 1, method, params })).body) as { result?: T; error?: { message: string } };
  if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
  return reply.result as T;
}

/** True once nothing accepts connections on the URL's port. */
async function portFree(url: string): Promise<boolean> {
  try {
    await postJson(url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
    return false;
  } catch {
    return true;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The node under npm exec → sh → node (Linux: from /proc). */
async function nodeUnder(npmPid: number): Promise<number> {
  const childOf = async (pid: number) => {
    const children = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8')).trim().split(/\s+/).filter(Boolean).map(Number);
    if (children.length !== 1) throw new Error(`expected one child of ${pid}, found ${children.join(', ')}`);
    return children[0]!;
  };
  return childOf(await childOf(npmPid));
}

function killGroup(pgid: number | undefined): void {
  if (pgid === undefined) return;
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // already gone
  }
}

describe('e2e: a node started by npx ends with its launcher', function () {
  this.timeout(20_000);

  let project: string;
  let stateFile: string;
  /** Process groups to kill whatever happens (each test's launcher is its group's leader). */
  const groups: number[] = [];

  before(async () => {
    project = await mkdtemp(join(tmpdir(), 'chain-sim-npx-'));
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'npx-project', version: '1.0.0', private: true }));
    await mkdir(join(project, 'node_modules', '.bin'), { recursive: true });
    await symlink(ROOT, join(project, 'node_modules', 'chain-sim'));
    await symlink('../chain-sim/bin/chain-sim.js', join(project, 'node_modules', '.bin', 'chain-sim'));
  });
  beforeEach(() => {
    stateFile = join(project, `state-${Date.now()}.json`);
  });
  afterEach(() => {
    for (const pgid of groups.splice(0)) killGroup(pgid);
  });
  after(() => rm(project, { recursive: true, force: true }));

  async function npx(args: string[]): Promise<RunningCli> {
    const cli = await startCli(['--no-install', 'chain-sim', '--port', '0', ...args], { command: 'npx', prefix: [], cwd: project });
    groups.push(cli.child.pid!);
    return cli;
  }

  // SIGTERM ends npm's script shell and then npm; SIGHUP ends npm; SIGINT ends nothing (npm
  // passes it to its script shell, which catches it and keeps waiting for the node): the node
  // sees the shell wake up.
  for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
    it(`${signal} to the npx process alone: the node frees the port and writes --state`, async () => {
      const cli = await npx(['--state', stateFile]);
      await rpc(cli.url, 'eth_sendTransaction', [{ from: FIRST_ACCOUNT, to: MARKER, value: '0x5' }]);
      process.kill(cli.child.pid!, signal); // npm only, as `kill $!` does; not its process group
      await waitFor('the port to be free', () => portFree(cli.url), 4_000);
      await waitFor('the state file', async () => (await readFile(stateFile, 'utf8').catch(() => '')).endsWith('\n'), 1_000);
      expect(cli.output()).to.include(signal === 'SIGINT' ? 'was interrupted (SIGINT), shutting down' : 'has ended, shutting down');

      // The file holds the chain: a node started from it has the transfer.
      const again = await startCli(['--port', '0', '--quiet', '--state', stateFile]);
      groups.push(again.child.pid!);
      expect(await rpc(again.url, 'eth_getBalance', [MARKER, 'latest'])).to.equal('0x5');
      expect(await again.stop()).to.equal(0);
    });
  }

  it('SIGINT to the process group (Ctrl-C in a terminal): saves and exits', async () => {
    const cli = await npx(['--state', stateFile]);
    await rpc(cli.url, 'eth_sendTransaction', [{ from: FIRST_ACCOUNT, to: MARKER, value: '0x5' }]);
    await cli.stop('SIGINT');
    await waitFor('the port to be free', () => portFree(cli.url), 4_000);
    await waitFor('the state file', async () => (await readFile(stateFile, 'utf8').catch(() => '')).endsWith('\n'), 1_000);
  });

  it('stopping and continuing the node (as Ctrl-Z and fg do) does not end it', async () => {
    const cli = await npx([]);
    const node = await nodeUnder(cli.child.pid!);
    // The node alone, then its whole process group (npm, its shell and the node, as Ctrl-Z stops them).
    for (const target of [node, node, -cli.child.pid!, -cli.child.pid!]) {
      process.kill(target, 'SIGSTOP');
      await new Promise((resolve) => setTimeout(resolve, 300));
      process.kill(target, 'SIGCONT');
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await rpc(cli.url, 'eth_chainId')).to.equal('0x539');
    expect(cli.output()).to.not.include('shutting down');
  });

  it('--no-exit-with-launcher: the node keeps running when npx is gone', async () => {
    const cli = await npx(['--no-exit-with-launcher']);
    process.kill(cli.child.pid!, 'SIGTERM');
    await cli.stop('SIGCONT'); // waits for npm's exit (SIGCONT to the group changes nothing)
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await rpc(cli.url, 'eth_chainId')).to.equal('0x539');
  });

  for (const [name, command] of [
    ['nohup npx chain-sim &', 'npx --no-install chain-sim'],
    ['nohup node bin/chain-sim.js &', `"${process.execPath}" node_modules/chain-sim/bin/chain-sim.js`],
  ] as const) {
    it(`${name}, then the shell exits: the node keeps running`, async () => {
      const log = join(project, `nohup-${Date.now()}.log`);
      // The shell leads a process group of its own, which the background job stays in (no job control).
      const shell = spawn('sh', ['-c', `nohup ${command} --port 0 --quiet --state "${stateFile}" > "${log}" 2>&1 &`], {
        cwd: project,
        detached: true,
        stdio: 'ignore',
      });
      groups.push(shell.pid!);
      await new Promise((resolve) => shell.once('exit', resolve));
      let url = '';
      await waitFor(
        'the node to listen',
        async () => {
          url = /Listening on (http:\/\/\S+)/.exec(await readFile(log, 'utf8').catch(() => ''))?.[1] ?? '';
          return url !== '';
        },
        15_000,
      );
      expect(alive(shell.pid!)).to.equal(false);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await rpc(url, 'eth_chainId')).to.equal('0x539');
      // Stopped as a user would stop it: SIGTERM saves and exits.
      process.kill(-shell.pid!, 'SIGTERM');
      await waitFor('the port to be free', () => portFree(url), 5_000);
    });
  }
});
