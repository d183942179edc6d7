// Soak: N mixed JSON-RPC requests (default 50,000) against the chain-sim CLI, with its resident
// memory sampled along the way. Phase 1 (reads, calls, log queries, filters created and left to
// time out) adds no chain data, so its memory should level off; phase 2 adds sends, whose blocks,
// receipts and state the chain keeps by design, so its growth is reported per block mined.
//
// Then the WebSocket subscriber rows of soakSubscribers.ts (--subscribers-only: those alone).
//
//   npm run bench -- --soak [--requests 50000] [--subscribers-only]   (or: node dist/bench/soak.js ...)
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Account, deriveAccounts, TxSigner } from './accounts.js';
import { httpClient, RpcError, type RpcClient } from './rpc.js';
import { soakSubscribers } from './soakSubscribers.js';
import { CHAIN_ID, MNEMONIC } from './targets.js';
import { saveSoak } from './soakSave.js';

const BIN = fileURLToPath(new URL('../../bin/chain-sim.js', import.meta.url));
const FILTER_TIMEOUT_S = 2;
const SAMPLES_PER_PHASE = 5;
const SENDERS = 8;
const RECIPIENT = '0x000000000000000000000000000000000000bEEF';
const GWEI = 1_000_000_000n;

const log = (line: string): void => void process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]) / 1024;
}

async function startCli(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, '--port', '0', '--quiet', '--filter-timeout', String(FILTER_TIMEOUT_S)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`chain-sim exited with ${code} before listening`)));
  });
  return { child, url };
}

interface Sample {
  readonly requests: number;
  readonly blocks: number;
  readonly rssMb: number;
}

/** One request of the mix; `i` picks which. Sends take pre-signed transactions in order. */
type Step = (client: RpcClient, i: number) => Promise<unknown>;

const filter = { fromBlock: 'latest', toBlock: 'latest', address: RECIPIENT };
const READS: readonly Step[] = [
  (c) => c.request('eth_blockNumber'),
  (c) => c.request('eth_getBalance', [RECIPIENT, 'latest']),
  (c) => c.request('eth_call', [{ to: RECIPIENT, data: '0x70a08231' }, 'latest']),
  (c) => c.request('eth_getBlockByNumber', ['latest', true]),
  (c) => c.request('eth_newFilter', [filter]), // left to time out
  (c) => c.request('eth_newBlockFilter'), // left to time out
  (c) => c.request('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: RECIPIENT }]),
  (c) => c.request('eth_getTransactionCount', [RECIPIENT, 'pending']),
  (c) => c.request('eth_gasPrice'),
  (c) => c.request('eth_feeHistory', ['0x4', 'latest', [50]]),
];

async function runPhase(client: RpcClient, pid: number, requests: number, done: number, steps: readonly Step[], samples: Sample[]): Promise<number> {
  const every = Math.max(1, Math.floor(requests / SAMPLES_PER_PHASE));
  for (let i = 0; i < requests; i++) {
    await steps[i % steps.length]!(client, i);
    if ((i + 1) % every === 0) {
      samples.push({ requests: done + i + 1, blocks: Number(BigInt((await client.request('eth_blockNumber')) as string)), rssMb: rssMb(pid) });
    }
  }
  return done + requests;
}

export interface SoakReport {
  readonly requests: number;
  readonly samples: readonly Sample[];
  readonly table: string;
}

/** Run the soak against a fresh chain-sim CLI and return the samples and a markdown table. */
export async function soak(totalRequests: number): Promise<SoakReport> {
  const { child, url } = await startCli();
  const client = httpClient(url);
  const pid = child.pid!;
  try {
    const accounts = deriveAccounts(MNEMONIC, SENDERS);
    const signer = new TxSigner(CHAIN_ID);
    const perPhase = Math.floor(totalRequests / 2);
    // Phase 2's mix: 10 steps, of which 2 sends and 1 receipt query.
    const sendCount = Math.ceil(perPhase / 10) * 2;
    log(`soak: signing ${sendCount} transfers`);
    const fees = { maxFeePerGas: 100n * GWEI, maxPriorityFeePerGas: GWEI };
    const raws = Array.from({ length: sendCount }, (_, k) => {
      const from: Account = accounts[k % SENDERS]!;
      return signer.sign(from, { to: RECIPIENT, nonce: Math.floor(k / SENDERS), gasLimit: 21_000n, value: 1n, fees });
    });
    let sent = 0;
    let lastHash: unknown = `0x${'00'.repeat(32)}`;
    const send: Step = async (c) => {
      lastHash = await c.request('eth_sendRawTransaction', [raws[sent++]!]);
    };
    const mixed: readonly Step[] = [send, ...READS.slice(0, 4), send, (c) => c.request('eth_getTransactionReceipt', [lastHash]), ...READS.slice(4, 7)];

    // Warm-up, so JIT and caches are not counted as growth.
    for (let i = 0; i < 1000; i++) await READS[i % READS.length]!(client, i);
    const samples: Sample[] = [{ requests: 0, blocks: 0, rssMb: rssMb(pid) }];
    log(`soak: phase 1, ${perPhase} reads, calls and filters (no new blocks)`);
    let done = await runPhase(client, pid, perPhase, 0, READS, samples);
    // The filters made in phase 1 expire after FILTER_TIMEOUT_S; the sweep frees them.
    await sleep((FILTER_TIMEOUT_S + 2) * 1000);
    samples.push({ requests: done, blocks: 0, rssMb: rssMb(pid) });
    const expired = await client.request('eth_getFilterChanges', ['0x1']).then(
      () => false,
      (error: unknown) => error instanceof RpcError && /filter not found/.test(error.message),
    );
    if (!expired) log('soak: warning: filters did not expire');
    log(`soak: phase 2, ${perPhase} mixed requests with ${sendCount} sends`);
    done = await runPhase(client, pid, perPhase, done, mixed, samples);
    return { requests: done, samples, table: renderSoak(samples, perPhase) };
  } finally {
    client.close();
    child.kill('SIGTERM');
  }
}

function renderSoak(samples: readonly Sample[], perPhase: number): string {
  const rows = samples.map((s) => `| ${s.requests} | ${s.blocks} | ${s.rssMb.toFixed(1)} |`);
  const first = samples[0]!;
  const phase1End = samples.find((s) => s.requests === perPhase && s.blocks === 0 && s !== first) ?? first;
  const settled = [...samples].reverse().find((s) => s.requests === perPhase)!;
  const last = samples[samples.length - 1]!;
  const perBlockKb = last.blocks > 0 ? ((last.rssMb - settled.rssMb) * 1024) / last.blocks : 0;
  return [
    '| requests | blocks | RSS (MB) |',
    '|---:|---:|---:|',
    ...rows,
    '',
    `Phase 1 (no new chain data): ${(phase1End.rssMb - first.rssMb).toFixed(1)} MB during, ${(settled.rssMb - first.rssMb).toFixed(1)} MB once its filters expired.`,
    `Phase 2: ${(last.rssMb - settled.rssMb).toFixed(1)} MB for ${last.blocks} blocks (${perBlockKb.toFixed(1)} KB per block of chain data).`,
  ].join('\n');
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { requests: { type: 'string' }, soak: { type: 'boolean' }, row: { type: 'string' }, 'subscribers-only': { type: 'boolean' } },
    strict: false,
  });
  if (values.row === 'save') {
    // Only the --state save of a 1,000,000-block chain (bench/soakSave.ts).
    process.stdout.write(`\nchain-sim soak: --state save, node ${process.version}\n\n${(await saveSoak()).table}\n`);
    return 0;
  }
  if (values['subscribers-only']) {
    process.stdout.write(`\nchain-sim soak: WebSocket subscribers, node ${process.version}\n\n${await soakSubscribers(startCli, rssMb)}\n`);
    return 0;
  }
  const requests = values.requests === undefined ? 50_000 : Number(values.requests);
  if (!Number.isInteger(requests) || requests < 100) {
    log('--requests must be an integer >= 100');
    return 2;
  }
  const report = await soak(requests);
  process.stdout.write(`\nchain-sim soak: ${report.requests} requests, node ${process.version}\n\n${report.table}\n`);
  log('soak: --state save of a 1,000,000-block chain');
  process.stdout.write(`\n--state save of a long chain:\n\n${(await saveSoak()).table}\n`);
  process.stdout.write(`\n${await soakSubscribers(startCli, rssMb)}\n`);
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(await main());

export { main as soakMain };
