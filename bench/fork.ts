// Forking rows: chain-sim, Hardhat and Anvil fork the same local upstream (a chain-sim with an ERC-20 held
// by many accounts) and run the same workload: for each of H holders the run has not touched yet,
// impersonate it, transfer tokens, read the recipient's balance. Cold: nothing cached; warm: a
// second run at the same pinned block (chain-sim's disk cache; Anvil's storage cache under an
// isolated HOME; Hardhat's fork cache in its project directory). Reported: wall time from
// start-up to the last answer, the JSON-RPC calls the upstream answered (counted on its side) and
// the HTTP requests they came in (a batch is one; counted by a proxy in front of the upstream).
//   node dist/bench/run.js --workloads fork [--holders H] [--only chain-sim,hardhat,anvil]
//   node dist/bench/fork.js [--holders H] [--only chain-sim,anvil]        (the same rows alone)
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Interface } from 'ethers';
import { createServer } from '../src/index.js';
import { anvilBinary } from './anvil.js';
import { renderTable, type Row } from './report.js';
import type { TargetName } from './targets.js';

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
  const calls = { count: 0, httpRequests: 0 };
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
  const { url: direct } = await server.listen(0, '127.0.0.1');
  const { url, close: closeCounter } = await countingProxy(direct, calls);
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
  // Pinned 200 blocks below the head: Hardhat caches fork data on disk only for blocks that deep (safe from reorgs).
  const head = BigInt((await rpc('eth_blockNumber')) as string);
  await rpc('chain_mine', ['0xc8']);
  return { url, server, calls, token, head, closeCounter };
}

/**
 * The upstream's address as the tools see it: a proxy that counts the HTTP requests (a batch of
 * calls is one) and forwards each to the upstream as it is.
 */
async function countingProxy(target: string, counts: { httpRequests: number }): Promise<{ url: string; close: () => Promise<void> }> {
  const proxy = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      counts.httpRequests++;
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) })
        .then(async (answer) => {
          const body = Buffer.from(await answer.arrayBuffer());
          response.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': body.length });
          response.end(body);
        })
        .catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => (proxy.closeAllConnections(), proxy.close(() => resolve()))),
  };
}

async function workload(url: string, token: string, holders: number, prefix: 'anvil' | 'hardhat'): Promise<void> {
  for (let i = 0; i < holders; i++) {
    const from = holder(i);
    await post(url, `${prefix}_impersonateAccount`, [from]);
    await post(url, `${prefix}_setBalance`, [from, '0xde0b6b3a7640000']);
    await post(url, 'eth_sendTransaction', [{ from, to: token, gas: '0x30d40', data: TRANSFER.encodeFunctionData('transfer', [holder(holders + i), 1n]) }]);
    await post(url, 'eth_call', [{ to: token, data: TRANSFER.encodeFunctionData('balanceOf', [holder(holders + i)]) }, 'latest']);
  }
}

/** The CLI as a child process, like the other tools (an in-process server would share the bench client's thread). */
function chainSimRun(upstream: string, block: bigint, cacheDir: string, token: string, holders: number): Promise<number> {
  const args = [path.join(ROOT, 'bin', 'chain-sim.js'), '--port', '0', '--quiet', '--fork', upstream, '--fork-block-number', String(block)];
  args.push('--fork-cache-dir', cacheDir);
  return childRun(process.execPath, args, {}, /Listening on (http:\/\/\S+)/, (url) => workload(url, token, holders, 'anvil'));
}

/** Spawn a server, wait for `listening` to match its output, run the workload, stop it with SIGINT (both tools save caches then). */
async function childRun(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string },
  listening: RegExp,
  run: (url: string) => Promise<void>,
): Promise<number> {
  const started = performance.now();
  const child: ChildProcess = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = listening.exec(output);
        if (match) resolve(match[1]!.startsWith('http') ? match[1]! : `http://${match[1]}`);
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', () => reject(new Error(`${path.basename(command)} exited:\n${output.slice(-2000)}`)));
    });
    await run(url);
    return performance.now() - started;
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
}

function anvilRun(upstream: string, block: bigint, home: string, cached: boolean, token: string, holders: number): Promise<number> {
  const args = ['--port', '0', '--fork-url', upstream, '--fork-block-number', String(block), ...(cached ? [] : ['--no-storage-caching'])];
  return childRun(anvilBinary(ROOT), args, { env: { ...process.env, HOME: home } }, /Listening on (\S+)/, (url) => workload(url, token, holders, 'anvil'));
}

/** A Hardhat project in `dir` (its fork cache goes to dir/cache); the config path. */
function hardhatProject(dir: string): string {
  const config = path.join(dir, 'hardhat.config.cjs');
  writeFileSync(config, `module.exports = ${JSON.stringify({ networks: { hardhat: { loggingEnabled: false } } })};\n`);
  // Hardhat resolves itself from the project directory.
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return config;
}

function hardhatRun(upstream: string, block: bigint, project: string, token: string, holders: number): Promise<number> {
  const bootstrap = path.join(ROOT, 'node_modules', 'hardhat', 'internal', 'cli', 'bootstrap.js');
  const args = [bootstrap, '--config', path.join(project, 'hardhat.config.cjs'), 'node', '--hostname', '127.0.0.1', '--port', '0'];
  args.push('--fork', upstream, '--fork-block-number', String(block));
  return childRun(
    process.execPath,
    args,
    { cwd: project, env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' } },
    /JSON-RPC server at (http:\/\/[^\s/]+)/,
    (url) => workload(url, token, holders, 'hardhat'),
  );
}

const FORK_TARGETS = ['chain-sim', 'hardhat', 'anvil'] as const satisfies readonly TargetName[];

export interface ForkBenchOptions {
  readonly holders: number;
  /** Which of chain-sim, hardhat and anvil to run (others are ignored). */
  readonly targets: readonly TargetName[];
  readonly log?: (line: string) => void;
}

/** Run the fork rows; returns the markdown (a title line and the table, with ratios). */
export async function forkMain({ holders, targets, log = (line) => process.stderr.write(`${line}\n`) }: ForkBenchOptions): Promise<string> {
  const chosen = FORK_TARGETS.filter((name) => targets.includes(name));
  // No upstream to start and no empty table to print (e.g. --only chain-sim-inproc,hardhat-inproc).
  if (chosen.length === 0) return `fork rows: skipped, none of ${FORK_TARGETS.join(', ')} selected.\n`;
  const up = await upstreamChain(holders * 2);
  type Figures = { coldMs?: number; coldCalls?: number; coldHttp?: number; warmMs?: number; warmCalls?: number; warmHttp?: number; error?: string };
  const figures: Partial<Record<TargetName, Figures>> = {};
  const scratch = mkdtempSync(path.join(tmpdir(), 'chain-sim-bench-fork-'));
  const measure = async (name: TargetName, run: 'cold' | 'warm', body: () => Promise<number>) => {
    const entry = (figures[name] ??= {});
    if (entry.error !== undefined) return;
    const before = up.calls.count;
    const httpBefore = up.calls.httpRequests;
    try {
      const ms = await body();
      const calls = up.calls.count - before;
      const http = up.calls.httpRequests - httpBefore;
      if (run === 'cold') Object.assign(entry, { coldMs: ms, coldCalls: calls, coldHttp: http });
      else Object.assign(entry, { warmMs: ms, warmCalls: calls, warmHttp: http });
      log(`fork ${name} ${run}: ${ms.toFixed(0)} ms, ${calls} upstream calls in ${http} HTTP requests`);
    } catch (error) {
      entry.error = error instanceof Error ? error.message : String(error);
      log(`fork ${name} ${run} FAILED: ${entry.error}`);
    }
  };
  try {
    for (const name of chosen) {
      const dir = mkdtempSync(path.join(scratch, `${name}-`));
      if (name === 'chain-sim') {
        for (const run of ['cold', 'warm'] as const) await measure(name, run, () => chainSimRun(up.url, up.head, dir, up.token, holders));
      } else if (name === 'anvil') {
        // Cold: no storage cache at all. Warm: a first run with caching writes the cache (not measured), then the measured one.
        await measure(name, 'cold', () => anvilRun(up.url, up.head, dir, false, up.token, holders));
        await anvilRun(up.url, up.head, dir, true, up.token, holders).catch(() => undefined);
        await measure(name, 'warm', () => anvilRun(up.url, up.head, dir, true, up.token, holders));
      } else {
        hardhatProject(dir);
        for (const run of ['cold', 'warm'] as const) await measure(name, run, () => hardhatRun(up.url, up.head, dir, up.token, holders));
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await up.closeCounter();
    await up.server.close();
  }
  const row = (label: string, unit: string, pick: (f: Figures) => number | undefined): Row => ({
    label,
    unit,
    higherIsBetter: false,
    cells: Object.fromEntries(
      chosen.map((name) => {
        const entry = figures[name] ?? {};
        const value = pick(entry);
        return [name, value !== undefined ? { value } : { error: entry.error ?? 'not run' }];
      }),
    ),
  });
  const rows = [
    row('fork, cold: wall time', 'ms', (f) => f.coldMs),
    row('fork, cold: upstream JSON-RPC calls', 'calls', (f) => f.coldCalls),
    row('fork, cold: upstream HTTP requests', 'requests', (f) => f.coldHttp),
    row('fork, warm (disk cache): wall time', 'ms', (f) => f.warmMs),
    row('fork, warm (disk cache): upstream JSON-RPC calls', 'calls', (f) => f.warmCalls),
    row('fork, warm (disk cache): upstream HTTP requests', 'requests', (f) => f.warmHttp),
  ];
  return (
    `fork rows: ${holders} untouched token holders, each impersonated, given ETH, one transfer, one balanceOf call; ` +
    `the upstream is a local chain-sim, pinned at block ${up.head} (200 below its head).\n\n${renderTable(rows, chosen)}\n`
  );
}

// Run directly: node dist/bench/fork.js [--holders H]
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const at = process.argv.indexOf('--holders');
  const holders = at > 0 ? Number(process.argv[at + 1]) : 100;
  const only = process.argv.indexOf('--only');
  const targets = only > 0 ? FORK_TARGETS.filter((name) => process.argv[only + 1]!.split(',').includes(name)) : [...FORK_TARGETS];
  forkMain({ holders, targets })
    .then((table) => {
      process.stdout.write(`\n${table}`);
      process.exit(0);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
