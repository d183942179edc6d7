// Reliability: one slow request must not stop the others (issue 35). For each slow request
// (a trace, a log scan, a trace_filter, a call at an old block, a large eth_simulateV1, a
// chain_mine of 100,000 blocks), a probe client on other connections asks eth_blockNumber
// every 10 ms and sends a transfer every 100 ms (the first right after the slow request
// went out) while it runs, and the table gives the probe's latencies: eth_blockNumber's p50,
// p99 and max, and how long each send took until its receipt was there. The same run for
// Anvil, where it serves the method. Goal: p99 under 50 ms, sends mined within 100 ms.
//
//   npm run bench -- --reliability [--only chain-sim,anvil] [--small] [--rows struct,400]
//
// --small: the same rows at a tenth of the sizes (a check that the bench runs, not a figure).
// --rows: only the rows whose label contains one of these words (case ignored), to measure
// one change without the whole table.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { deriveAccounts, type Fees, TxSigner } from './accounts.js';
import { OffThreadRequests } from './offThread.js';
import { asQuantity, asRecord, httpClient, type RpcClient } from './rpc.js';
import { hostileUpstreamRows } from './reliabilityFork.js';
import { CHAIN_ID, killAllChildren, makeTargets, MNEMONIC, TargetUnavailable, type TargetName } from './targets.js';
import { upstreamHost } from './upstreamThread.js';

const log = (line: string): void => void process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runtime of a contract that counts calldata's first word down to zero (26 gas a turn):
 * PUSH1 0 CALLDATALOAD; JUMPDEST PUSH1 1 SWAP1 SUB DUP1 PUSH1 3 JUMPI; STOP.
 */
const LOOP_RUNTIME = '6000355b600190038060035700';
const LOOP_INIT = `0x6c${LOOP_RUNTIME}600052600d6013f3`;
const GAS_PER_TURN = 26;
const word = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`;
const quantity = (n: number | bigint): string => `0x${n.toString(16)}`;
const FEES: Fees = { maxFeePerGas: 100_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };

const TARGETS: readonly TargetName[] = ['chain-sim', 'anvil'];
/** How long a slow request may take before its row says so (Anvil's anvil_mine of 100,000 blocks would take the better part of an hour here). */
const SLOW_TIMEOUT_MS = 120_000;
/** The set-up's requests (Anvil mines the 10,000 empty blocks at 20-300 a second here). */
const SET_UP_TIMEOUT_MS = 30 * 60_000;

interface Sizes {
  /** Empty blocks of trace_filter's and eth_getLogs' range. */
  readonly emptyBlocks: number;
  /** Gas of the big loop (traced with callTracer and the struct logger, called at an old block): at most EIP-7825's cap of a transaction's gas (2^24) on Osaka. */
  readonly bigLoopGas: number;
  /** Gas of the loop traced with the struct logger to the end (its answer is large). */
  readonly structLoopGas: number;
  /** eth_simulateV1: calls of the loop, and the gas of each. */
  readonly simulateCalls: number;
  readonly simulateCallGas: number;
  readonly mineBlocks: number;
}

const FULL: Sizes = {
  emptyBlocks: 10_000,
  bigLoopGas: 16_000_000,
  structLoopGas: 1_000_000,
  simulateCalls: 100,
  simulateCallGas: 250_000,
  mineBlocks: 100_000,
};
const SMALL: Sizes = { emptyBlocks: 1_000, bigLoopGas: 2_500_000, structLoopGas: 100_000, simulateCalls: 10, simulateCallGas: 250_000, mineBlocks: 10_000 };

/** What the set-up left for the slow requests. */
interface Stage {
  readonly loop: string;
  readonly bigLoopTx: string;
  readonly structLoopTx: string;
  /** A block before the loops' transactions (eth_call at an old block). */
  readonly oldBlock: string;
  /** trace_filter's and eth_getLogs' range: empty blocks only. */
  readonly emptyFrom: string;
  readonly emptyTo: string;
}

interface SlowRequest {
  readonly label: string;
  /** Targets that do not serve it, with why (the row says so instead of a figure). */
  readonly skip?: Partial<Record<TargetName, string>>;
  request(stage: Stage, sizes: Sizes): [method: string, params: unknown[]];
}

const SLOW_REQUESTS: readonly SlowRequest[] = [
  { label: 'none (idle, 2 s)', request: () => ['idle', []] },
  {
    label: 'trace_filter over N empty blocks',
    request: (s) => ['trace_filter', [{ fromBlock: s.emptyFrom, toBlock: s.emptyTo }]],
  },
  { label: 'eth_getLogs over N empty blocks', request: (s) => ['eth_getLogs', [{ fromBlock: s.emptyFrom, toBlock: s.emptyTo }]] },
  { label: 'debug_traceTransaction, struct logger, S-gas loop', request: (s) => ['debug_traceTransaction', [s.structLoopTx]] },
  {
    label: 'debug_traceTransaction, struct logger, B-gas loop',
    // Anvil would answer millions of records (gigabytes of JSON); chain-sim refuses past its trace bound after working.
    skip: { anvil: 'unbounded answer (millions of struct logs)' },
    request: (s) => ['debug_traceTransaction', [s.bigLoopTx]],
  },
  { label: 'debug_traceTransaction, callTracer, B-gas loop', request: (s) => ['debug_traceTransaction', [s.bigLoopTx, { tracer: 'callTracer' }]] },
  {
    label: 'eth_call of the B-gas loop at an old block',
    request: (s, z) => ['eth_call', [{ to: s.loop, data: word(Math.floor(z.bigLoopGas / GAS_PER_TURN) - 1000), gas: quantity(z.bigLoopGas) }, s.oldBlock]],
  },
  {
    label: 'eth_simulateV1, C calls of a G-gas loop',
    request: (s, z) => {
      const turns = Math.floor(z.simulateCallGas / GAS_PER_TURN) - 1000;
      const calls = Array.from({ length: z.simulateCalls }, () => ({ to: s.loop, input: word(turns), gas: quantity(z.simulateCallGas) }));
      return ['eth_simulateV1', [{ blockStateCalls: [{ calls }] }, 'latest']];
    },
  },
  { label: 'anvil_mine of M blocks', request: (_, z) => ['anvil_mine', [quantity(z.mineBlocks)]] },
];

/** Every request this bench sends, counted (the summary row's total). */
let requestsSent = 0;
/** Counts a request sent other than through `counted` (the slow requests, sent from a worker thread). */
export function countRequest(): void {
  requestsSent++;
}
export function counted(client: RpcClient): RpcClient {
  return {
    request(method, params) {
      requestsSent++;
      return client.request(method, params);
    },
    close: () => client.close(),
  };
}

interface Probe {
  /** eth_blockNumber round trips asked while the slow request ran, ms. */
  readonly reads: number[];
  /** Send to receipt, ms, for sends made while it ran. */
  readonly sends: number[];
}

export interface RowResult {
  readonly label: string;
  readonly target: TargetName;
  readonly ms?: number;
  readonly outcome: string;
  readonly probe?: Probe;
  /** The node's peak resident memory while it ran, MB (sampled every 50 ms; spawned servers only). */
  readonly peakMb?: number;
  /** Faults the upstream committed (hostile-upstream rows). */
  readonly faults?: number;
}

/** A target's summary: what the state lost (sends answered but not in the state at the end). */
interface Summary {
  readonly target: TargetName;
  readonly faults: number;
  readonly sends: number;
  readonly lost: number | undefined;
  readonly note: string;
}

/** Sends transfers from one account with consecutive nonces (key 9 of the mnemonic: the set-up uses key 0). */
export class Sender {
  private nonce = 0;
  /** Sends whose receipt was seen: each moved 1 wei to RECIPIENT. */
  mined = 0;
  private readonly account = deriveAccounts(MNEMONIC, 10)[9]!;
  private readonly signer = new TxSigner(CHAIN_ID);

  async start(client: RpcClient): Promise<void> {
    this.nonce = Number(asQuantity('eth_getTransactionCount', await client.request('eth_getTransactionCount', [this.account.address, 'pending'])));
  }

  /** Milliseconds from the send until its receipt is there. */
  async send(client: RpcClient): Promise<number> {
    const raw = this.signer.sign(this.account, {
      to: RECIPIENT,
      nonce: this.nonce++,
      gasLimit: 21_000n,
      value: 1n,
      fees: FEES,
    });
    const started = performance.now();
    const hash = await client.request('eth_sendRawTransaction', [raw]);
    for (;;) {
      const receipt = await client.request('eth_getTransactionReceipt', [hash]);
      if (receipt !== null) {
        this.mined++;
        return performance.now() - started;
      }
      await sleep(2);
    }
  }

  get address(): string {
    return this.account.address;
  }
}

export const RECIPIENT = '0x000000000000000000000000000000000000bEEF';

/** Probe `client` until `running` settles: reads every 10 ms, a send at once and then every 100 ms. */
export async function probeWhile(client: RpcClient, sender: Sender, running: Promise<unknown>): Promise<Probe> {
  let done = false;
  void running.then(
    () => (done = true),
    () => (done = true),
  );
  const reads: number[] = [];
  const sends: number[] = [];
  const reader = (async () => {
    while (!done) {
      const started = performance.now();
      await client.request('eth_blockNumber');
      reads.push(performance.now() - started);
      await sleep(10);
    }
  })();
  const sending = (async () => {
    await sleep(5);
    const pending: Array<Promise<void>> = [];
    do {
      pending.push(sender.send(client).then((ms) => void sends.push(ms)));
      await sleep(100);
    } while (!done);
    await Promise.all(pending);
  })();
  await Promise.all([reader, sending]);
  return { reads, sends };
}

async function setUp(client: RpcClient, sizes: Sizes): Promise<Stage> {
  const deployer = deriveAccounts(MNEMONIC, 1)[0]!;
  const signer = new TxSigner(CHAIN_ID);
  let nonce = Number(asQuantity('eth_getTransactionCount', await client.request('eth_getTransactionCount', [deployer.address, 'pending'])));
  const sendAndWait = async (fields: { to: string | null; data: string; gasLimit: bigint }): Promise<Record<string, unknown>> => {
    const hash = await client.request('eth_sendRawTransaction', [signer.sign(deployer, { ...fields, nonce: nonce++, fees: FEES })]);
    for (;;) {
      const receipt = await client.request('eth_getTransactionReceipt', [hash]);
      if (receipt !== null) return asRecord('eth_getTransactionReceipt', receipt);
      await sleep(2);
    }
  };
  // The empty blocks first: Anvil keeps the states of recent blocks only, and the loops are traced and called at theirs.
  const head = asQuantity('eth_blockNumber', await client.request('eth_blockNumber'));
  await client.request('anvil_mine', [quantity(sizes.emptyBlocks)]);
  const deployed = await sendAndWait({ to: null, data: LOOP_INIT, gasLimit: 200_000n });
  const loop = String(deployed.contractAddress);
  const oldBlock = String(deployed.blockNumber);
  await client.request('evm_mine');
  const loopTx = async (gas: number): Promise<string> => {
    const receipt = await sendAndWait({ to: loop, data: word(Math.floor(gas / GAS_PER_TURN) - 1000), gasLimit: BigInt(gas) });
    if (receipt.status !== '0x1') throw new Error(`the ${gas}-gas loop failed: ${JSON.stringify(receipt)}`);
    return String(receipt.transactionHash);
  };
  const bigLoopTx = await loopTx(sizes.bigLoopGas);
  const structLoopTx = await loopTx(sizes.structLoopGas);
  return { loop, bigLoopTx, structLoopTx, oldBlock, emptyFrom: quantity(head + 1n), emptyTo: quantity(head + BigInt(sizes.emptyBlocks)) };
}

/** The highest of `rssMb` sampled every 50 ms until `running` settles. */
export async function peakWhile(rssMb: () => number | undefined, running: Promise<unknown>): Promise<number | undefined> {
  let done = false;
  void running.then(
    () => (done = true),
    () => (done = true),
  );
  let peak = rssMb();
  while (!done) {
    await sleep(50);
    const now = rssMb();
    if (now !== undefined && (peak === undefined || now > peak)) peak = now;
  }
  return peak;
}

/** Whether a row is selected by --rows (none given: all are). */
export function rowSelected(label: string, rows: readonly string[] | undefined): boolean {
  return rows === undefined || rows.some((word) => label.toLowerCase().includes(word.toLowerCase()));
}

async function runTarget(name: TargetName, sizes: Sizes, tmpDir: string, summaries: Summary[], selected: readonly SlowRequest[]): Promise<RowResult[]> {
  const target = makeTargets({ tmpDir })[name];
  let running: Awaited<ReturnType<typeof target.start>>;
  try {
    running = await target.start();
  } catch (error) {
    const why = error instanceof TargetUnavailable ? error.message : String(error);
    return selected.map((slow) => ({ label: slow.label, target: name, outcome: `not run: ${why}` }));
  }
  const client = counted(running.client);
  // The slow requests from a thread of their own (offThread.ts: their answers are not parsed on the
  // probe's thread), the set-up on a connection of its own; each with a timeout of its own.
  const slowRequests = new OffThreadRequests();
  const setUpClient = counted(httpClient(running.url!, { timeoutMs: SET_UP_TIMEOUT_MS }));
  const results: RowResult[] = [];
  try {
    log(`reliability: ${name}: set-up (${sizes.emptyBlocks} empty blocks, loops of ${sizes.bigLoopGas} and ${sizes.structLoopGas} gas)`);
    let stage: Stage;
    try {
      stage = await setUp(setUpClient, sizes);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return selected.map((slow) => ({ label: slow.label, target: name, outcome: `not run: set-up failed: ${why.slice(0, 90)}` }));
    }
    const sender = new Sender();
    await sender.start(client);
    // State lost: every send answered with a receipt moved 1 wei to RECIPIENT and took a nonce; both are read back at the end.
    const balanceBefore = asQuantity('eth_getBalance', await client.request('eth_getBalance', [RECIPIENT, 'latest']));
    const nonceBefore = asQuantity('eth_getTransactionCount', await client.request('eth_getTransactionCount', [sender.address, 'latest']));
    for (const slow of selected) {
      const skipped = slow.skip?.[name];
      if (skipped) {
        results.push({ label: slow.label, target: name, outcome: `skipped: ${skipped}` });
        continue;
      }
      const [method, params] = slow.request(stage, sizes);
      log(`reliability: ${name}: ${slow.label}`);
      const started = performance.now();
      if (method !== 'idle') countRequest();
      const request =
        method === 'idle'
          ? sleep(2000).then(() => ({ ok: true, description: 'answered' }) as const)
          : slowRequests.request(running.url!, method, params, SLOW_TIMEOUT_MS);
      // Settled as soon as the answer is in, whatever the probe still waits for.
      const answered = request.then((outcome) => ({
        ms: performance.now() - started,
        outcome: outcome.ok ? outcome.description : `error: ${outcome.message.slice(0, 90)}`,
      }));
      const [probe, peakMb] = await Promise.all([probeWhile(client, sender, request), peakWhile(running.rssMb, request)]);
      results.push({ label: slow.label, target: name, ...(await answered), probe, peakMb });
    }
    const balanceAfter = asQuantity('eth_getBalance', await client.request('eth_getBalance', [RECIPIENT, 'latest']));
    const nonceAfter = asQuantity('eth_getTransactionCount', await client.request('eth_getTransactionCount', [sender.address, 'latest']));
    const inState = Number(balanceAfter - balanceBefore);
    const lost = sender.mined - Math.min(inState, Number(nonceAfter - nonceBefore));
    summaries.push({
      target: name,
      faults: 0,
      sends: sender.mined,
      lost,
      note: `${inState} of ${sender.mined} mined transfers in the balance, nonce +${nonceAfter - nonceBefore}`,
    });
  } finally {
    await slowRequests.close();
    setUpClient.close();
    await running.stop();
  }
  return results;
}

function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const ms = (value: number | undefined): string => (value === undefined ? '—' : value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1));

/** A row's label with its sizes written in. */
function sizedLabel(text: string, sizes: Sizes): string {
  const count = (n: number) => n.toLocaleString('en-US');
  const gas = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);
  return text
    .replace('N empty', `${count(sizes.emptyBlocks)} empty`)
    .replace('M blocks', `${count(sizes.mineBlocks)} blocks`)
    .replace('S-gas', `${gas(sizes.structLoopGas)}-gas`)
    .replace('B-gas', `${gas(sizes.bigLoopGas)}-gas`)
    .replace('C calls', `${count(sizes.simulateCalls)} calls`)
    .replace('G-gas', `${gas(sizes.simulateCallGas)}-gas`);
}

function renderRows(results: readonly RowResult[], sizes: Sizes): string {
  const label = (text: string) => sizedLabel(text, sizes);
  const lines = [
    '| slow request | target | its time (ms) | its outcome | held (probe p99 < 50 ms, sends < 100 ms) | eth_blockNumber probes | p50 (ms) | p99 (ms) | max (ms) | sends | send p50 (ms) | send max (ms) | peak RSS (MB) |',
    '| --- | --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    const reads = r.probe?.reads ?? [];
    const sends = r.probe?.sends ?? [];
    lines.push(
      `| ${label(r.label)} | ${r.target} | ${ms(r.ms)} | ${r.outcome}${r.faults === undefined ? '' : ` (${r.faults} upstream faults)`} | ${held(r)} | ${r.probe ? reads.length : '—'} | ${ms(percentile(reads, 50))} | ${ms(percentile(reads, 99))} | ${ms(percentile(reads, 100))} | ${r.probe ? sends.length : '—'} | ${ms(percentile(sends, 50))} | ${ms(percentile(sends, 100))} | ${r.peakMb === undefined ? '—' : Math.round(r.peakMb)} |`,
    );
  }
  return lines.join('\n');
}

/** Whether the goal held: reads' p99 under 50 ms and every send mined within 100 ms. */
function held(r: RowResult): string {
  if (!r.probe) return '—';
  const p99 = percentile(r.probe.reads, 99);
  const slowest = percentile(r.probe.sends, 100);
  const reads = p99 === undefined || p99 < 50;
  const sends = slowest === undefined || slowest < 100;
  return reads && sends ? 'yes' : `no (${[reads ? '' : 'reads', sends ? '' : 'sends'].filter(Boolean).join(', ')})`;
}

function renderSummary(summaries: readonly Summary[]): string {
  const lines = ['| target | requests sent (all targets) | faults injected | sends mined | state lost |', '| --- | ---: | ---: | ---: | --- |'];
  for (const s of summaries) {
    lines.push(`| ${s.target} | ${requestsSent.toLocaleString('en-US')} | ${s.faults} | ${s.sends} | ${s.lost ?? '—'} (${s.note}) |`);
  }
  return lines.join('\n');
}

export async function reliabilityMain(): Promise<number> {
  const { values } = parseArgs({
    options: { reliability: { type: 'boolean' }, small: { type: 'boolean' }, only: { type: 'string' }, rows: { type: 'string' } },
    strict: false,
  });
  const sizes = values.small ? SMALL : FULL;
  const only = typeof values.only === 'string' ? values.only.split(',').map((s) => s.trim()) : undefined;
  const targets = TARGETS.filter((name) => !only || only.includes(name));
  const rows = typeof values.rows === 'string' ? values.rows.split(',').map((s) => s.trim()) : undefined;
  const slowRequests = SLOW_REQUESTS.filter((slow) => rowSelected(sizedLabel(slow.label, sizes), rows));
  const tmpDir = mkdtempSync(path.join(os.tmpdir(), 'chain-sim-reliability-'));
  const onSignal = () => {
    killAllChildren();
    process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const results: RowResult[] = [];
    const summaries: Summary[] = [];
    if (slowRequests.length > 0) for (const name of targets) results.push(...(await runTarget(name, sizes, tmpDir, summaries, slowRequests)));
    // Rows by slow request, the targets side by side.
    results.sort((a, b) => SLOW_REQUESTS.findIndex((s) => s.label === a.label) - SLOW_REQUESTS.findIndex((s) => s.label === b.label));
    const hostile = await hostileUpstreamRows(targets, rows);
    results.push(...hostile.rows);
    // Targets that ran only hostile-upstream rows have their summary from them alone.
    for (const fork of hostile.summaries) {
      if (!summaries.some((s) => s.target === fork.target)) summaries.push({ target: fork.target, faults: 0, sends: 0, lost: 0, note: 'no local rows' });
    }
    const merged = summaries.map((s) => {
      const fork = hostile.summaries.find((f) => f.target === s.target);
      if (!fork) return s;
      return {
        ...s,
        faults: fork.faults,
        sends: s.sends + fork.sends,
        lost: s.lost === undefined ? undefined : s.lost + fork.lost,
        note: `${s.note}; ${fork.note}`,
      };
    });
    process.stdout.write(
      `\nReliability: a probe client's latency while one slow request runs (${values.small ? 'small sizes' : 'full sizes'}), node ${process.version}, ${os.cpus().length} CPUs, the hostile upstream in ${upstreamHost() === 'process' ? 'a child process at nice 10' : 'a worker thread of the bench'}\n\n${renderRows(results, sizes)}\n\n${renderSummary(merged)}\n`,
    );
    return 0;
  } finally {
    killAllChildren();
    rmSync(tmpDir, { recursive: true, force: true });
  }
}
