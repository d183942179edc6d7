import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { cacheFilePath } from '../../src/engine/pow/cacheFile.js';
import { epoch0Cache, tempDir } from '../engine/pow/helpers.js';
import { signed } from '../helpers/chain.js';
import { ROOT, type RunningCli, runCli, startCli } from '../helpers/cli.js';

async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result: T; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result;
}

/** Run a script to completion with XDG_CACHE_HOME set; resolves with its exit code and output. */
function runScript(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('CLI in proof-of-work mode with the example external miner', function () {
  this.timeout(60_000);
  let cli: RunningCli;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    // A private cache home holding the epoch-0 cache, so neither the node nor the miner builds one.
    const xdg = tempDir('xdg');
    const dir = join(xdg, 'chain-sim', 'ethash');
    mkdirSync(dir, { recursive: true });
    copyFileSync(cacheFilePath((await epoch0Cache()).dir, 0), cacheFilePath(dir, 0));
    env = { ...process.env, XDG_CACHE_HOME: xdg };
    const saved = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = xdg; // startCli passes the environment on
    try {
      cli = await startCli(['--port', '0', '--mining', 'pow', '--difficulty', '8', '--coinbase', '0x00000000000000000000000000000000000000c0']);
    } finally {
      if (saved === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = saved;
    }
  });

  after(async () => {
    expect(await cli.stop('SIGINT')).to.equal(0);
  });

  it('starts on Gray Glacier and says it mines proof-of-work', () => {
    expect(cli.output()).to.match(/Hardfork:\s+grayGlacier/);
    expect(cli.output()).to.match(/Mining:\s+pow, difficulty 8/);
  });

  it('examples/pow-miner.mjs seals blocks with the transactions sent to the node', async () => {
    const hash = await rpc<string>(cli.url, 'eth_sendRawTransaction', [
      await signed(0, { to: '0x000000000000000000000000000000000000beef', value: 5n, nonce: 0, gasLimit: 21_000 }),
    ]);
    expect(await rpc(cli.url, 'eth_getTransactionReceipt', [hash])).to.equal(null);
    const { code, output } = await runScript('examples/pow-miner.mjs', [cli.url, '--blocks', '2'], env);
    expect(code, output).to.equal(0);
    expect(output).to.match(/sealed block 1 0x[0-9a-f]{64} \(1 transactions\)/);
    expect(output).to.match(/sealed block 2 /);
    const receipt = await rpc<{ blockNumber: string; status: string }>(cli.url, 'eth_getTransactionReceipt', [hash]);
    expect(receipt).to.include({ blockNumber: '0x1', status: '0x1' });
    const reward = BigInt(await rpc<string>(cli.url, 'eth_getBalance', ['0x00000000000000000000000000000000000000c0', 'latest']));
    expect(reward).to.equal(2n * 2n * 10n ** 18n + 21_000n * 1_000_000_000n);
  });

  it('--miner-threads: the built-in miner seals blocks in worker threads, after building a missing Ethash cache in another', async () => {
    const saved = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = tempDir('xdg-empty');
    let miner: RunningCli;
    try {
      miner = await startCli(['--port', '0', '--mining', 'pow', '--difficulty', '8', '--miner-threads', '1']);
    } finally {
      if (saved === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = saved;
    }
    try {
      const deadline = Date.now() + 30_000;
      let head = 0n;
      while (head < 2n && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        head = BigInt(await rpc<string>(miner.url, 'eth_blockNumber'));
      }
      expect(head >= 2n, miner.output()).to.equal(true);
      const block = await rpc<{ difficulty: string; nonce: string }>(miner.url, 'eth_getBlockByNumber', ['0x2', false]);
      expect(block.difficulty).to.equal('0x8');
    } finally {
      expect(await miner.stop('SIGINT')).to.equal(0);
    }
  });

  it('refuses a post-merge hardfork with pow mining: exit code 1 and one line', async () => {
    const { code, stdout, stderr } = await runCli(['--mining', 'pow', '--hardfork', 'cancun', '--port', '0']);
    expect(code).to.equal(1);
    expect(stdout).to.equal('');
    expect(stderr.trim().split('\n')).to.have.length(1);
    expect(stderr).to.match(/^chain-sim: invalid value for mining: pow needs a pre-merge hardfork \(grayGlacier or earlier\), but cancun is after the merge/);
  });
});
