// Reliability, the hanging-upstream row (issue 35): a node forking an upstream that keeps one
// read unanswered. The upstream (a small HTTP server in this process) answers everything else
// at once, as an empty chain at block 0x64 would, and never answers a request naming HANGING.
// The slow request is eth_getBalance of HANGING (it fails when the node's fork timeout, 5 s,
// runs out, no retry); meanwhile the probe (reliability.ts) reads eth_blockNumber and sends
// transfers between prefunded accounts, which need nothing from the upstream but what it
// answers at once. chain-sim and Anvil, each as a CLI child process.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fakeUpstreamBlock } from '../test/helpers/fakeUpstreamBlock.js';
import { anvilBinary } from './anvil.js';
import { probeWhile, type RowResult, Sender } from './reliability.js';
import { httpClient, type RpcClient } from './rpc.js';
import { CHAIN_ID, freePort, type TargetName } from './targets.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const HANGING_LABEL = 'eth_getBalance of an account the fork upstream never answers (5 s timeout)';
const HANGING = '0x00000000000000000000000000000000000000bd';
const FORK_TIMEOUT_MS = 5_000;

function answer(call: { id: unknown; method: string; params?: unknown[] }): unknown {
  const zero32 = `0x${'00'.repeat(32)}`;
  // Anvil also wants what go-ethereum answers beside the header (totalDifficulty, size, uncles).
  const block = fakeUpstreamBlock({
    timestamp: `0x${Math.floor(Date.now() / 1000 - 60).toString(16)}`,
    totalDifficulty: '0x0',
    withdrawals: [],
    size: '0x200',
    uncles: [],
  });
  const results: Record<string, unknown> = {
    eth_chainId: `0x${CHAIN_ID.toString(16)}`,
    net_version: String(CHAIN_ID),
    eth_blockNumber: '0x64',
    eth_getBlockByNumber: block,
    eth_getBlockByHash: block,
    eth_getBalance: '0x0',
    eth_getTransactionCount: '0x0',
    eth_getCode: '0x',
    eth_getStorageAt: zero32,
    eth_gasPrice: '0x3b9aca00',
  };
  // Anvil asks the upstream for what it does not know (a receipt not mined yet): nothing.
  for (const method of ['eth_getTransactionReceipt', 'eth_getTransactionByHash']) results[method] = null;
  return call.method in results
    ? { jsonrpc: '2.0', id: call.id, result: results[call.method] }
    : { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: `the method ${call.method} does not exist/is not available` } };
}

/** The upstream: every request answered at once but those naming HANGING, which are kept until it closes. */
async function hangingUpstream(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (body.toLowerCase().includes(HANGING)) return;
      const parsed = JSON.parse(body) as unknown;
      const calls = (Array.isArray(parsed) ? parsed : [parsed]) as Array<{ id: unknown; method: string }>;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(Array.isArray(parsed) ? calls.map(answer) : answer(calls[0]!)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

/** The tool as a CLI child process forking `upstream`; resolves once it answers eth_chainId. */
async function startForked(name: TargetName, upstream: string): Promise<{ client: RpcClient; url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const [command, args] =
    name === 'anvil'
      ? [anvilBinary(ROOT), ['--port', String(port), '--fork-url', upstream, '--timeout', String(FORK_TIMEOUT_MS), '--retries', '0', '--no-storage-caching']]
      : [process.execPath, [path.join(ROOT, 'bin', 'chain-sim.js'), '--host', '127.0.0.1', '--port', String(port), '--quiet', '--fork', upstream]];
  if (name !== 'anvil') args.push('--fork-timeout', String(FORK_TIMEOUT_MS), '--fork-retries', '0', '--no-fork-cache');
  const child: ChildProcess = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-1000)));
  const url = `http://127.0.0.1:${port}/`;
  const client = httpClient(url);
  const stop = async () => {
    client.close();
    if (child.exitCode === null) {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  };
  const started = Date.now();
  for (;;) {
    try {
      await client.request('eth_chainId');
      return { client, url, stop };
    } catch (error) {
      if (child.exitCode !== null || Date.now() - started > 60_000) {
        await stop();
        throw new Error(`${name} did not start: ${stderr.trim().split('\n').slice(-2).join(' | ') || String(error)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** The hanging-upstream row for each target. */
export async function hangingUpstreamRows(targets: readonly TargetName[]): Promise<RowResult[]> {
  const results: RowResult[] = [];
  const { url: upstream, server } = await hangingUpstream();
  try {
    for (const name of targets.filter((target) => target === 'chain-sim' || target === 'anvil')) {
      let node: Awaited<ReturnType<typeof startForked>>;
      try {
        node = await startForked(name, upstream);
      } catch (error) {
        results.push({ label: HANGING_LABEL, target: name, outcome: `not run: ${error instanceof Error ? error.message.slice(0, 90) : String(error)}` });
        continue;
      }
      const slowClient = httpClient(node.url, { timeoutMs: 60_000 });
      try {
        const sender = new Sender();
        await sender.start(node.client);
        // One transfer first: what a transfer reads of the upstream (the coinbase, system contracts) is fetched before the row.
        await sender.send(node.client);
        const started = performance.now();
        const request = slowClient.request('eth_getBalance', [HANGING, 'latest']);
        const answered = request.then(
          () => ({ ms: performance.now() - started, outcome: 'answered' }),
          (error: unknown) => ({ ms: performance.now() - started, outcome: `error: ${error instanceof Error ? error.message.slice(0, 90) : String(error)}` }),
        );
        const probe = await probeWhile(node.client, sender, request);
        results.push({ label: HANGING_LABEL, target: name, ...(await answered), probe });
      } finally {
        slowClient.close();
        await node.stop();
      }
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
  return results;
}
