/**
 * --state FILE with the real CLI: saved on SIGTERM / SIGINT and restored on the next start; a
 * corrupt file stops the CLI with one line and exit code 1; and SIGKILL in the middle of a
 * save loop leaves either the previous or the next complete file, never a torn one.
 */
import { expect } from 'chai';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeStateFile } from '../../src/persistence/stateFile.js';
import { runCli, startCli } from '../helpers/cli.js';
import { FIRST_ACCOUNT, postJson } from '../helpers/rpc.js';
import { waitFor } from '../helpers/waitFor.js';

const MARKER = '0x00000000000000000000000000000000000a11ce';
const BIG_ACCOUNTS = 400;

async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const reply = JSON.parse((await postJson(url, { jsonrpc: '2.0', id: 1, method, params })).body) as { result?: T; error?: { message: string } };
  if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
  return reply.result as T;
}

/** Many accounts with code and storage, so a save takes long enough to be interrupted. */
function bigAlloc(): Record<string, unknown> {
  const alloc: Record<string, unknown> = {};
  for (let i = 1; i <= BIG_ACCOUNTS; i++) {
    const storage: Record<string, string> = {};
    for (let slot = 1; slot <= 4; slot++) storage[`0x${slot.toString(16).padStart(64, '0')}`] = `0x${(i * 10 + slot).toString(16).padStart(64, '0')}`;
    alloc[`0x${i.toString(16).padStart(40, '0')}`] = { balance: `0x${i.toString(16)}`, code: '0x6001600055', storage };
  }
  return alloc;
}

/** Accounts in the state file, 0 while there is none or it cannot be read. */
async function savedAccounts(file: string): Promise<number> {
  try {
    return decodeStateFile(JSON.parse(await readFile(file, 'utf8'))).alloc.size;
  } catch {
    return 0;
  }
}

describe('e2e: --state with the CLI', function () {
  this.timeout(60_000);

  let dir: string;
  let file: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chain-sim-cli-state-'));
    file = join(dir, 'state.json');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('a SIGTERM sent as soon as "Listening on" appears still saves (the handlers come first)', async () => {
    const cli = await startCli(['--port', '0', '--quiet', '--state', file]);
    expect(await cli.stop('SIGTERM')).to.equal(0);
    expect(decodeStateFile(JSON.parse(await readFile(file, 'utf8'))).alloc.size).to.be.at.least(10);
  });

  it('saves on SIGTERM and SIGINT and restores the state on the next start', async () => {
    let cli = await startCli(['--port', '0', '--quiet', '--state', file]);
    await rpc(cli.url, 'eth_sendTransaction', [{ from: FIRST_ACCOUNT, to: MARKER, value: '0x7' }]);
    expect(await cli.stop('SIGTERM')).to.equal(0);

    cli = await startCli(['--port', '0', '--quiet', '--state', file]);
    expect(await rpc(cli.url, 'eth_getBalance', [MARKER, 'latest'])).to.equal('0x7');
    expect(await rpc(cli.url, 'eth_getTransactionCount', [FIRST_ACCOUNT, 'latest'])).to.equal('0x1');
    await rpc(cli.url, 'eth_sendTransaction', [{ from: FIRST_ACCOUNT, to: MARKER, value: '0x1' }]);
    expect(await cli.stop('SIGINT')).to.equal(0);

    cli = await startCli(['--port', '0', '--quiet', '--state', file]);
    try {
      expect(await rpc(cli.url, 'eth_getBalance', [MARKER, 'latest'])).to.equal('0x8');
      expect(await rpc(cli.url, 'eth_getTransactionCount', [FIRST_ACCOUNT, 'latest'])).to.equal('0x2');
    } finally {
      await cli.stop();
    }
  });

  for (const [label, content] of [
    ['truncated', '{"chainId":"0x539","alloc":{"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266":{"bal'],
    ['corrupt', '{"alloc":{"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266":{"nonce":"-1"}}}'],
  ] as const) {
    it(`refuses a ${label} state file with one line and exit code 1, and leaves it alone`, async () => {
      await writeFile(file, content);
      const { code, stdout, stderr } = await runCli(['--port', '0', '--state', file]);
      expect(code).to.equal(1);
      expect(stdout).to.not.contain('Listening');
      const lines = stderr.trim().split('\n');
      expect(lines, stderr).to.have.length(1);
      expect(lines[0]).to.match(new RegExp(`^chain-sim: state file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `));
      expect(await readFile(file, 'utf8')).to.equal(content);
    });
  }

  it('SIGKILL during a save loop leaves the old or the new complete state, and the next start loads it', async () => {
    const written = new Set<bigint>();
    let next = 1n;
    for (let kill = 0; kill < 3; kill++) {
      const cli = await startCli(['--port', '0', '--quiet', '--state', file, '--state-interval', '0.005']);
      if (kill === 0) {
        await rpc(cli.url, 'chain_loadState', [{ alloc: bigAlloc() }]);
        // From the first save of the big state on, every complete file holds it (a loaded machine may take a while).
        await waitFor('a save with the big state', async () => (await savedAccounts(file)) >= BIG_ACCOUNTS, 20_000);
      }
      // Keep changing the marker while the node saves as often as it can, then kill it unannounced.
      let running = true;
      const writer = (async () => {
        while (running) {
          const value = next++;
          written.add(value);
          await rpc(cli.url, 'hardhat_setBalance', [MARKER, `0x${value.toString(16)}`]).catch(() => {});
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 200 + Math.random() * 300));
      await cli.stop('SIGKILL');
      running = false;
      await writer;

      const saved = decodeStateFile(JSON.parse(await readFile(file, 'utf8')));
      expect(saved.alloc.size, 'every account of the big state').to.be.at.least(BIG_ACCOUNTS);
      const last = `0x${BIG_ACCOUNTS.toString(16).padStart(40, '0')}`;
      expect(saved.alloc.get(last)?.storage.size, 'the last account is complete').to.equal(4);
      const marker = saved.alloc.get(MARKER)?.balance;
      if (kill > 0 || marker !== undefined) expect(written.has(marker!), `marker ${marker} is a value that was set`).to.equal(true);
      // Only complete files carry the name; a half-written temporary file is all a kill can leave.
      expect((await readdir(dir)).filter((name) => !name.endsWith('.tmp'))).to.deep.equal(['state.json']);
    }
    const saved = decodeStateFile(JSON.parse(await readFile(file, 'utf8')));
    const cli = await startCli(['--port', '0', '--quiet', '--state', file]);
    try {
      expect(BigInt(await rpc<string>(cli.url, 'eth_getBalance', [MARKER, 'latest']))).to.equal(saved.alloc.get(MARKER)!.balance);
      expect(await rpc(cli.url, 'eth_getStorageAt', [`0x${'0'.repeat(39)}1`, '0x4', 'latest'])).to.equal(`0x${(14).toString(16).padStart(64, '0')}`);
    } finally {
      expect(await cli.stop()).to.equal(0);
    }
    // The last start removed the temporary files the kills left behind.
    expect(await readdir(dir)).to.deep.equal(['state.json']);
  });
});
