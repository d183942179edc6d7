// Forking rows: chain-sim and Anvil fork the same local upstream (a chain-sim with an ERC-20 held
// by many accounts) and run the same workload: for each of H holders the run has not touched yet,
// impersonate it, transfer tokens, read the recipient's balance. Cold: nothing cached; warm: a
// second run at the same pinned block (chain-sim's disk cache; Anvil's storage cache under an
// isolated HOME). Reported: wall time from start-up to the last answer, and the JSON-RPC calls
// the upstream answered (counted on its side).
//   node dist/bench/fork.js [--holders H]
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Interface } from 'ethers';
import { createServer } from '../src/index.js';
import { anvilBinary } from './anvil.js';

const ROOT = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
const TRANSFER = new Interface(['function transfer(address,uint256) returns (bool)', 'function balanceOf(address) view returns (uint256)']);
const holder = (i: number): string => `0x${(0x3000 + i).toString(16).padStart(40, '0')}`;

async function post(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

async function upstreamChain(holders: number) {
  const calls = { count: 0 };
  const server = await createServer({
    quiet: false,
    verbose: true,
    hardfork: 'prague',
    chainId: 31337,
    port: 0,
    logger: (line) => {
      if (/^\S+ \d/.test(line)) calls.count++;
    },
  });
  const { url } = await server.listen(0, '127.0.0.1');
  const rpc = (method: string, params: unknown[] = []) => server.node.dispatcher.call(method, params);
  const [alice] = (await rpc('eth_accounts')) as string[];
  const { abi, bytecode } = (await import(path.join(ROOT, 'fixtures/artifacts/Token.json'), { with: { type: 'json' } })).default as {
    abi: [];
    bytecode: string;
  };
  const deploy = (await rpc('eth_sendTransaction', [
    { from: alice, gas: '0x2dc6c0', data: bytecode + new Interface(abi).encodeDeploy(['Token', 'TKN', 10n ** 27n]).slice(2) },
  ])) as string;
  const token = ((await rpc('eth_getTransactionReceipt', [deploy])) as { contractAddress: string }).contractAddress;
  await rpc('chain_setAutomine', [false]);
  for (let i = 0; i < holders; i++)
    await rpc('eth_sendTransaction', [{ from: alice, to: token, gas: '0x186a0', data: TRANSFER.encodeFunctionData('transfer', [holder(i), 10n ** 18n]) }]);
  await rpc('chain_mine', ['0x1']);
  await rpc('chain_setAutomine', [true]);
  await rpc('chain_mine', ['0x32']);
  const head = BigInt((await rpc('eth_blockNumber')) as string);
  return { url, server, calls, token, head };
}

async function workload(url: string, token: string, holders: number): Promise<void> {
  for (let i = 0; i < holders; i++) {
    const from = holder(i);
    await post(url, 'anvil_impersonateAccount', [from]);
    await post(url, 'anvil_setBalance', [from, '0xde0b6b3a7640000']);
    await post(url, 'eth_sendTransaction', [{ from, to: token, gas: '0x30d40', data: TRANSFER.encodeFunctionData('transfer', [holder(holders + i), 1n]) }]);
    await post(url, 'eth_call', [{ to: token, data: TRANSFER.encodeFunctionData('balanceOf', [holder(holders + i)]) }, 'latest']);
  }
}

async function chainSimRun(upstream: string, block: bigint, cacheDir: string, token: string, holders: number): Promise<number> {
  const started = performance.now();
  const server = await createServer({ quiet: true, port: 0, fork: upstream, forkBlockNumber: block.toString(), forkCacheDir: cacheDir });
  const { url } = await server.listen(0, '127.0.0.1');
  await workload(url, token, holders);
  const elapsed = performance.now() - started;
  await server.close();
  return elapsed;
}

async function anvilRun(upstream: string, block: bigint, home: string, cached: boolean, token: string, holders: number): Promise<number> {
  const started = performance.now();
  const args = ['--port', '0', '--fork-url', upstream, '--fork-block-number', String(block), ...(cached ? [] : ['--no-storage-caching'])];
  const child: ChildProcess = spawn(anvilBinary(ROOT), args, { env: { ...process.env, HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening on (\S+)/.exec(output);
      if (match) resolve(`http://${match[1]}`);
    });
    child.once('exit', () => reject(new Error(`anvil exited:\n${output}`)));
  });
  await workload(url, token, holders);
  const elapsed = performance.now() - started;
  child.kill('SIGINT'); // Anvil writes its storage cache on a clean shutdown
  await new Promise((resolve) => child.once('exit', resolve));
  return elapsed;
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--holders');
  const holders = at > 0 ? Number(process.argv[at + 1]) : 100;
  const up = await upstreamChain(holders * 2);
  const rows: Array<[string, string, number, number]> = [];
  const measure = async (target: string, run: string, body: () => Promise<number>) => {
    const before = up.calls.count;
    const ms = await body();
    rows.push([target, run, ms, up.calls.count - before]);
  };
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'chain-sim-bench-fork-'));
  const home = mkdtempSync(path.join(tmpdir(), 'anvil-bench-home-'));
  try {
    await measure('chain-sim', 'cold', () => chainSimRun(up.url, up.head, cacheDir, up.token, holders));
    await measure('chain-sim', 'warm (disk cache)', () => chainSimRun(up.url, up.head, cacheDir, up.token, holders));
    try {
      await measure('anvil', 'cold (--no-storage-caching)', () => anvilRun(up.url, up.head, home, false, up.token, holders));
      await measure('anvil', 'warm (storage cache)', () => anvilRun(up.url, up.head, home, true, up.token, holders));
      await measure('anvil', 'warm (storage cache), again', () => anvilRun(up.url, up.head, home, true, up.token, holders));
    } catch (error) {
      console.error(`anvil rows skipped: ${error instanceof Error ? error.message : String(error)}`);
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
    await up.server.close();
  }
  console.log(`\nfork workload: ${holders} untouched holders, each impersonated, one transfer, one balanceOf call (upstream at block ${up.head})\n`);
  console.log('| target | run | wall time (ms) | upstream JSON-RPC calls |');
  console.log('|---|---|---:|---:|');
  for (const [target, run, ms, calls] of rows) console.log(`| ${target} | ${run} | ${ms.toFixed(0)} | ${calls} |`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
