/**
 * --state on a fork, through the real CLI: a forked session saved on SIGTERM restarts from its
 * state file and the disk cache alone (no upstream request at all), or with its upstream given
 * again (checked by the pinned block's hash), or says exactly which upstream it needs.
 * chain_dumpState is refused on a fork; chain_loadState works. Also anvil_setRpcUrl.
 */
import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProvider } from '../../src/index.js';
import { expectRpcError } from '../helpers/chain.js';
import { runCli, startCli } from '../helpers/cli.js';
import { postJson } from '../helpers/rpc.js';
import { holder, startUpstream, stateCalls, token, type Upstream, upstreamForSuite } from './upstream.js';

async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const reply = JSON.parse((await postJson(url, { jsonrpc: '2.0', id: 1, method, params })).body) as { result?: T; error?: { message: string } };
  if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
  return reply.result as T;
}

const hex = (value: bigint | number): string => `0x${BigInt(value).toString(16)}`;
const RECIPIENT = '0x00000000000000000000000000000000000be5e7';

async function tokenBalance(url: string, tokenAddress: string, who: string): Promise<bigint> {
  return BigInt(await rpc<string>(url, 'eth_call', [{ to: tokenAddress, data: token.encodeFunctionData('balanceOf', [who]) }, 'latest']));
}

describe('--state on a fork (CLI, SIGTERM and restart)', function () {
  this.timeout(120_000);
  const up = upstreamForSuite();
  let dir: string;
  let file: string;
  let cacheDir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chain-sim-fork-state-'));
    file = join(dir, 'state.json');
    cacheDir = join(dir, 'cache');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('restarts from the state file and the disk cache without the upstream, then with it; names what is missing', async () => {
    const base = ['--port', '0', '--quiet', '--fork-cache-dir', cacheDir, '--state', file];
    let cli = await startCli([...base, '--fork', up().url, '--fork-block-number', String(up().head)]);
    const tokenAddress = up().tokenAddress;
    let saved: { number: string; hash: string; stateRoot: string };
    try {
      // Impersonate holder 3: it sends part of its tokens; holder 4 sends all of its tokens (a slot zeroed over the upstream's).
      for (const [i, amount] of [
        [3, 1000n],
        [4, 4000n],
      ] as const) {
        await rpc(cli.url, 'hardhat_impersonateAccount', [holder(i)]);
        await rpc(cli.url, 'hardhat_setBalance', [holder(i), hex(10n ** 18n)]);
        await rpc(cli.url, 'eth_sendTransaction', [
          { from: holder(i), to: tokenAddress, gas: '0x186a0', data: token.encodeFunctionData('transfer', [RECIPIENT, amount]) },
        ]);
      }
      await rpc(cli.url, 'hardhat_setStorageAt', [up().ledgerAddress, hex(0x77), `0x${'11'.padStart(64, '0')}`]); // a setter, outside any block
      expect(await tokenBalance(cli.url, tokenAddress, holder(10))).to.equal(10_000n); // fetched (and cached), not written
      saved = await rpc(cli.url, 'eth_getBlockByNumber', ['latest', false]);
      expect(BigInt(saved.number)).to.equal(up().head + 2n);
    } finally {
      expect(await cli.stop('SIGTERM')).to.equal(0);
    }
    const written = JSON.parse(await readFile(file, 'utf8')) as { fork: { upstream: string; blockNumber: string; zeroSlots: object } };
    expect(written.fork.upstream).to.equal(up().url.replace(/\/?$/, '/'));
    expect(BigInt(written.fork.blockNumber)).to.equal(up().head);
    expect(Object.keys(written.fork.zeroSlots)).to.deep.equal([tokenAddress.toLowerCase()]);

    // 1. No --fork: everything from the state file and the disk cache; the upstream hears nothing.
    const before = up().callCount();
    cli = await startCli(base.filter((arg) => arg !== '--quiet'));
    try {
      const banner = cli.output();
      expect(banner).to.not.match(/error/i);
      expect(banner).to.include(`Upstream:        ${up().url.replace(/\/?$/, '/')} (not connected: restored by --state without --fork`);
      expect(banner).to.include(`Block:           ${up().head} `);
      expect(banner).to.match(new RegExp(`Cache:\\s+${cacheDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/31337/${up().head}-[0-9a-f]{16}\\.json`));
      const head = await rpc<{ number: string; hash: string; stateRoot: string }>(cli.url, 'eth_getBlockByNumber', ['latest', false]);
      expect(head).to.include({ number: saved.number, hash: saved.hash, stateRoot: saved.stateRoot });
      expect(await rpc(cli.url, 'eth_chainId')).to.equal(hex(31337));
      expect(await tokenBalance(cli.url, tokenAddress, RECIPIENT)).to.equal(5000n);
      expect(await tokenBalance(cli.url, tokenAddress, holder(3))).to.equal(2000n);
      expect(await tokenBalance(cli.url, tokenAddress, holder(4))).to.equal(0n); // the zero shadows the upstream's 4000
      expect(await tokenBalance(cli.url, tokenAddress, holder(10))).to.equal(10_000n); // the upstream's storage, from the cache
      expect(await rpc(cli.url, 'eth_getStorageAt', [up().ledgerAddress, hex(0x77), 'latest'])).to.equal(`0x${'11'.padStart(64, '0')}`);
      // The live state root after restoring is the saved one (the same overlay trie): a new block is mined on it.
      await rpc(cli.url, 'hardhat_impersonateAccount', [holder(3)]);
      await rpc(cli.url, 'eth_sendTransaction', [
        { from: holder(3), to: tokenAddress, gas: '0x186a0', data: token.encodeFunctionData('transfer', [RECIPIENT, 1n]) },
      ]);
      expect(await tokenBalance(cli.url, tokenAddress, RECIPIENT)).to.equal(5001n);
      // A key the cache lacks: a clear error naming the upstream, the key and what to do.
      const missing = await postJson(cli.url, {
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_call',
        params: [{ to: tokenAddress, data: token.encodeFunctionData('balanceOf', [holder(20)]) }, 'latest'],
      });
      const error = (JSON.parse(missing.body) as { error: { code: number; message: string } }).error;
      expect(error.code).to.equal(-32000);
      expect(error.message).to.include(up().url.replace(/\/?$/, '/'));
      expect(error.message).to.match(
        /not connected .*without --fork.*eth_getStorageAt for slot 0x[0-9a-f]{64} of 0x[0-9a-f]{40}.*not in the disk cache.*restart with --fork URL of chain id 31337 \(block \d+ hash 0x[0-9a-f]{64}\)/,
      );
      // A reset to another block needs a URL now (the saved one is masked); the node keeps serving.
      const reset = await postJson(cli.url, { jsonrpc: '2.0', id: 1, method: 'hardhat_reset', params: [{ forking: { blockNumber: 5 } }] });
      expect((JSON.parse(reset.body) as { error: { message: string } }).error.message).to.match(
        /forking\.jsonRpcUrl is required: this fork of http:\/\/127\.0\.0\.1:\d+\/ was restored without its upstream/,
      );
      expect(await rpc(cli.url, 'eth_blockNumber')).to.equal(hex(up().head + 3n));
      expect(up().callCount()).to.equal(before);
    } finally {
      expect(await cli.stop('SIGTERM')).to.equal(0);
    }

    // 2. With --fork again: the same chain is checked, and what the cache lacked is fetched.
    cli = await startCli([...base, '--fork', up().url]);
    try {
      expect(await rpc(cli.url, 'eth_blockNumber')).to.equal(hex(up().head + 3n));
      expect(await tokenBalance(cli.url, tokenAddress, holder(20))).to.equal(20_000n);
      expect(await tokenBalance(cli.url, tokenAddress, RECIPIENT)).to.equal(5001n);
      expect(up().callCount('eth_getStorageAt')).to.be.greaterThan(0);
    } finally {
      expect(await cli.stop('SIGTERM')).to.equal(0);
    }

    // 3. What cannot work is refused at start-up, naming the upstream, chain id and block.
    const noCache = await runCli(['--port', '0', '--quiet', '--no-fork-cache', '--state', file]);
    expect(noCache.code).to.equal(1);
    expect(noCache.stderr).to.match(
      /state file .*state\.json: holds a fork of http:\/\/127\.0\.0\.1:\d+\/ \(chain id 31337\) at block \d+ \(hash 0x[0-9a-f]{64}\); with --no-fork-cache .*give --fork URL/,
    );
    const emptyCache = await runCli(['--port', '0', '--quiet', '--fork-cache-dir', join(dir, 'empty'), '--state', file]);
    expect(emptyCache.code).to.equal(1);
    expect(emptyCache.stderr).to.match(/holds a fork of .* not in the disk cache \(no .*empty.*\): give --fork URL/);
    const otherBlock = await runCli([...base, '--fork', up().url, '--fork-block-number', String(up().head - 1n)]);
    expect(otherBlock.code).to.equal(1);
    expect(otherBlock.stderr).to.match(/--fork-block-number \d+ would be another chain/);
  });

  it('refuses another chain at the same block, and a local state file with --fork', async () => {
    const other = await startUpstream(); // the same history, mined at other times: other block hashes
    try {
      let cli = await startCli(['--port', '0', '--quiet', '--no-fork-cache', '--state', file, '--fork', up().url, '--fork-block-number', String(up().head)]);
      expect(await cli.stop('SIGTERM')).to.equal(0);
      const wrong = await runCli(['--port', '0', '--quiet', '--no-fork-cache', '--state', file, '--fork', other.url]);
      expect(wrong.code).to.equal(1);
      expect(wrong.stderr).to.match(/but http:\/\/127\.0\.0\.1:\d+\/ has chain id 31337 and block \d+ with hash 0x[0-9a-f]{64}: not the same chain/);
      const local = join(dir, 'local.json');
      cli = await startCli(['--port', '0', '--quiet', '--state', local]);
      expect(await cli.stop('SIGTERM')).to.equal(0);
      const refused = await runCli(['--port', '0', '--quiet', '--no-fork-cache', '--state', local, '--fork', up().url]);
      expect(refused.code).to.equal(1);
      expect(refused.stderr).to.match(/holds a local chain: --fork cannot continue it/);
    } finally {
      await other.close();
    }
  });

  it('chain_dumpState is refused on a fork; chain_loadState writes whole accounts over the forked state', async () => {
    const provider = createProvider({ quiet: true, forkCache: false, fork: `${up().url}@${up().head}` });
    const call = <T = unknown>(method: string, params: unknown[] = []) => provider.request({ method, params }) as Promise<T>;
    try {
      await expectRpcError(call('chain_dumpState'), -32000, /not on a fork .*use --state FILE/);
      await expectRpcError(call('anvil_dumpState'), -32000, /not on a fork/);
      const tokenAddress = up().tokenAddress;
      // The token account replaced by the loaded one: its storage is the loaded storage only (holder 5's balance is gone).
      await call('chain_loadState', [
        { alloc: { [tokenAddress]: { balance: '0x5', nonce: '0x1', code: await call('eth_getCode', [tokenAddress, 'latest']) } } },
      ]);
      expect(await call('eth_getBalance', [tokenAddress, 'latest'])).to.equal('0x5');
      const balance = await call<string>('eth_call', [{ to: tokenAddress, data: token.encodeFunctionData('balanceOf', [holder(5)]) }, 'latest']);
      expect(BigInt(balance)).to.equal(0n);
    } finally {
      await provider.disconnect?.();
    }
  });
});

describe('anvil_setRpcUrl', function () {
  this.timeout(120_000);
  const up = upstreamForSuite();
  let second: Upstream;
  before(async () => {
    second = await startUpstream();
  });
  after(() => second.close());

  it('sends later upstream requests to the new URL; what was fetched stays (as Anvil)', async () => {
    const provider = createProvider({ quiet: true, forkCache: false, fork: `${up().url}@${up().head}` });
    const call = <T = unknown>(method: string, params: unknown[] = []) => provider.request({ method, params }) as Promise<T>;
    const balanceOf = async (i: number) =>
      BigInt(await call<string>('eth_call', [{ to: up().tokenAddress, data: token.encodeFunctionData('balanceOf', [holder(i)]) }, 'latest']));
    try {
      expect(await balanceOf(1)).to.equal(1001n);
      const firstBefore = stateCalls(up());
      const secondBefore = stateCalls(second);
      expect(await call('anvil_setRpcUrl', [second.url])).to.equal(null);
      // Fetched before: answered from memory, neither upstream asked.
      expect(await balanceOf(1)).to.equal(1001n);
      expect(stateCalls(second)).to.equal(secondBefore);
      // Not fetched yet: the new upstream answers (at the same pinned block), the old one hears nothing.
      expect(await balanceOf(2)).to.equal(2000n);
      expect(stateCalls(second)).to.be.greaterThan(secondBefore);
      expect(stateCalls(up())).to.equal(firstBefore);
      // History before the pinned block too.
      const before = second.callCount('eth_getBlockByNumber');
      await call('eth_getBlockByNumber', [hex(up().head - 5n), false]);
      expect(second.callCount('eth_getBlockByNumber')).to.equal(before + 1);
      await expectRpcError(call('anvil_setRpcUrl', ['ws://127.0.0.1:1']), -32602, /expected an http\(s\) URL/);
    } finally {
      await provider.disconnect?.();
    }
    const local = createProvider({ quiet: true });
    try {
      await expectRpcError(local.request({ method: 'anvil_setRpcUrl', params: [second.url] }), -32000, /not forking/);
    } finally {
      await local.disconnect?.();
    }
  });
});
