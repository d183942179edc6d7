// Orchestration: start every target (one at a time, for the start-up samples), run
// each selected workload on every target in turn, round after round (see benchAll),
// stop them, and print one markdown table. Progress goes to stderr, the table to stdout.
//
//   node dist/bench/run.js [--only chain-sim,anvil] [--workloads transfers,erc20]
//                          [--n 2000] [--repeat 3] [--json FILE]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { deriveAccounts, TxSigner } from './accounts.js';
import { renderTable, type Cell, type Row } from './report.js';
import { CHAIN_ID, killAllChildren, makeTargets, MNEMONIC, TargetUnavailable, TARGET_NAMES, type Running, type Target, type TargetName } from './targets.js';
import { importMain } from './importChain.js';
import { artifactsMain } from './artifacts.js';
import { forkMain } from './fork.js';
import { powMain } from './pow.js';
import { SIMULATION_WORKLOADS } from './simulation.js';
import { soakMain } from './soak.js';
import { reliabilityMain } from './reliability.js';
import { hardhatSuitesMain } from './hardhatSuite.js';
import { loadTokenArtifact, type TokenArtifact } from './token.js';
import {
  ACCOUNT_COUNT,
  figure,
  higherIsBetter,
  Session,
  warmUp,
  WORKLOADS as BASE_WORKLOADS,
  EXTRA_WORKLOADS,
  type Measurement,
  type SendStats,
  type Workload,
} from './workloads.js';

const WORKLOADS = [...BASE_WORKLOADS, ...EXTRA_WORKLOADS, ...SIMULATION_WORKLOADS];

/** The fork rows (bench/fork.ts): a set of their own (each target forks a local upstream), selected like a workload. */
const FORK_SET = 'fork';

const DEFAULT_WORKLOADS = [...WORKLOADS.filter((w) => !w.optIn).map((w) => w.name), FORK_SET];

const USAGE = `usage: node dist/bench/run.js [options]
  --only LIST          targets, comma-separated (default: all): ${TARGET_NAMES.join(',')}
  --workloads LIST     default: ${DEFAULT_WORKLOADS.join(',')}
                       opt-in:  ${WORKLOADS.filter((w) => w.optIn)
                         .map((w) => w.name)
                         .join(',')}
                       fork: chain-sim, hardhat and anvil each fork a local chain-sim upstream, cold and warm (bench/fork.ts)
  --holders H          fork rows: token holders the workload touches (default 100)
  --n N                transactions/calls per workload (default 2000; snapshot runs N/4 cycles)
  --repeat R           runs of each workload, median reported (default 3)
  --warmup N           un-timed transfers before the workloads (default 200)
  --startup-runs N     start-up samples per target, median reported (default 3)
  --json FILE          also write the raw results as JSON
  --soak               instead: chain-sim's memory over --requests N mixed requests (default 50000; bench/soak.ts),
                       then peak RSS while --state saves a 1,000,000-block chain (--row save: only that),
                       then WebSocket subscriber rows (bench/soakSubscribers.ts; --subscribers-only: those alone)
  --reliability        instead: a probe client's latency while each slow request runs, chain-sim and anvil
                       (bench/reliability.ts; --small: a tenth of the sizes; --rows WORD,...: the rows whose label has one)
  --hardhat-suites     instead: real projects' Hardhat test suites on Hardhat's network and on chain-sim in process,
                       those named by CHAIN_SIM_HARDHAT_SUITE, CHAIN_SIM_HARDHAT3_SUITE, CHAIN_SIM_HARDHAT3_OZ_SUITE
                       (bench/hardhatSuite.ts; its options follow: --repeat, --oz-tests, --ref...)
environment: ANVIL_BIN overrides the anvil binary (default: node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil);
             CHAIN_SIM_BENCH_UPSTREAM=process serves --reliability's hostile upstream from a child process at nice 10
             (default thread: a worker thread of the bench, beside the probe; bench/upstreamThread.ts)`;

interface Options {
  targets: TargetName[];
  workloads: Workload[];
  n: number;
  repeat: number;
  warmup: number;
  startupRuns: number;
  json: string | undefined;
  /** Run the fork rows, with this many holders; undefined: not selected. */
  forkHolders: number | undefined;
}

function parseList<T extends string>(flag: string, value: string | undefined, known: readonly T[], fallback: readonly T[]): T[] {
  if (value === undefined) return [...fallback];
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !(known as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`--${flag}: unknown ${unknown.join(', ')} (known: ${known.join(', ')})`);
  // Canonical order, so tables from different runs line up.
  return known.filter((name) => names.includes(name));
}

function parseCount(flag: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${flag} must be an integer >= ${min}, got ${value}`);
  return n;
}

function parseOptions(argv: string[]): Options | undefined {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: 'string' },
      workloads: { type: 'string' },
      n: { type: 'string' },
      repeat: { type: 'string' },
      warmup: { type: 'string' },
      'startup-runs': { type: 'string' },
      json: { type: 'string' },
      holders: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return undefined;
  const selected = parseList('workloads', values.workloads, [...WORKLOADS.map((w) => w.name), FORK_SET], DEFAULT_WORKLOADS);
  return {
    targets: parseList('only', values.only, TARGET_NAMES, TARGET_NAMES),
    workloads: WORKLOADS.filter((w) => selected.includes(w.name)),
    n: parseCount('n', values.n, 2000, 1),
    repeat: parseCount('repeat', values.repeat, 3, 1),
    warmup: parseCount('warmup', values.warmup, 200, 0),
    startupRuns: parseCount('startup-runs', values['startup-runs'], 3, 1),
    json: values.json,
    forkHolders: selected.includes(FORK_SET) ? parseCount('holders', values.holders, 100, 1) : undefined,
  };
}

const log = (line: string): void => void process.stderr.write(`${line}\n`);
const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Raw per-target results; this is also the --json payload. */
interface TargetResult {
  target: TargetName;
  skipped?: string;
  error?: string;
  startupMs: number[];
  workloads: Record<string, { samples: Measurement[]; error?: string }>;
  sends?: SendStats;
  rssMb?: number;
}

/** A target being measured: its results so far, and the instance the workloads run on. */
interface Contender {
  readonly result: TargetResult;
  running?: Running;
  session?: Session;
}

/**
 * Start-up samples (every start is one; the last instance stays up), then the warm-up and the
 * token deployment, so the instance is ready for the workloads.
 */
async function startTarget(target: Target, options: Options, makeSession: (running: Running) => Session): Promise<Contender> {
  const name = target.name;
  const contender: Contender = { result: { target: name, startupMs: [], workloads: {} } };
  const { result } = contender;
  try {
    for (let i = 0; i < options.startupRuns; i++) {
      await contender.running?.stop();
      contender.running = undefined;
      contender.running = await target.start();
      result.startupMs.push(contender.running.startupMs);
    }
    log(`${name}: start-up ${result.startupMs.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    const session = makeSession(contender.running!);
    await session.checkFunded();
    await warmUp(session, options.warmup);
    // Deployed before any snapshot, so the per-run rollback keeps it.
    if (options.workloads.some((w) => w.usesToken)) await session.token();
    contender.session = session;
  } catch (error) {
    if (error instanceof TargetUnavailable) result.skipped = error.message;
    else result.error = message(error);
    log(`${name}: ${result.skipped !== undefined ? 'skipped' : 'FAILED'}: ${message(error)}`);
    await stopTarget(contender);
  }
  return contender;
}

/** One sample of a workload; after a failure the workload is not run again on that target. */
async function sampleWorkload(contender: Contender, workload: Workload, options: Options): Promise<void> {
  const { result, session } = contender;
  if (session === undefined) return;
  const entry = (result.workloads[workload.name] ??= { samples: [] });
  if (entry.error !== undefined) return;
  try {
    const m = await session.isolated(() => workload.run(session, options.n));
    entry.samples.push(m);
    log(
      `${result.target}: ${workload.name} #${entry.samples.length}: ${figure(workload.unit, m).toFixed(1)} ${workload.unit} (${m.ops} in ${(m.ms / 1000).toFixed(2)} s)`,
    );
  } catch (error) {
    entry.error = message(error);
    log(`${result.target}: ${workload.name} FAILED: ${entry.error}`);
  }
}

/** Send statistics and resident memory after the workloads, then stop. */
async function finishTarget(contender: Contender): Promise<void> {
  if (contender.session !== undefined) {
    contender.result.sends = { ...contender.session.stats };
    contender.result.rssMb = contender.running?.rssMb();
  }
  await stopTarget(contender);
}

async function stopTarget(contender: Contender): Promise<void> {
  await contender.running?.stop();
  contender.running = undefined;
}

/**
 * Every target stays up while the workloads run, and each sample of each workload is taken on
 * every target in turn (the first target rotating from round to round): the machine's speed
 * drifts by 10-30% within a run, which measuring one target after another charged to the later
 * ones. Idle, none of the servers uses measurable CPU (under 10 ms over 10 s).
 */
async function benchAll(targets: readonly Target[], options: Options, makeSession: (running: Running) => Session): Promise<TargetResult[]> {
  const contenders: Contender[] = [];
  try {
    for (const target of targets) contenders.push(await startTarget(target, options, makeSession));
    for (let round = 0; round < options.repeat; round++) {
      for (const workload of options.workloads) {
        for (let i = 0; i < contenders.length; i++) await sampleWorkload(contenders[(round + i) % contenders.length]!, workload, options);
      }
    }
  } finally {
    for (const contender of contenders) await finishTarget(contender);
  }
  return contenders.map((contender) => contender.result);
}

function buildRows(results: readonly TargetResult[], options: Options): Row[] {
  // A target that never ran shows the same reason in every row.
  const failed = (r: TargetResult): Cell | undefined =>
    r.skipped !== undefined ? { skipped: r.skipped } : r.error !== undefined ? { error: r.error } : undefined;
  const row = (label: string, unit: string, higher: boolean, pick: (r: TargetResult) => Cell | undefined): Row => ({
    label,
    unit,
    higherIsBetter: higher,
    cells: Object.fromEntries(results.map((r) => [r.target, failed(r) ?? pick(r)]).filter((entry): entry is [TargetName, Cell] => entry[1] !== undefined)),
  });

  const rows = [row('start-up to first eth_chainId', 'ms', false, (r) => (r.startupMs.length > 0 ? { value: median(r.startupMs) } : undefined))];
  for (const workload of options.workloads) {
    rows.push(
      row(workload.label(options.n), workload.unit, higherIsBetter(workload.unit), (r) => {
        const entry = r.workloads[workload.name];
        if (entry === undefined) return undefined;
        if (entry.error !== undefined) return { error: entry.error };
        // The median: the convention, and robust to one disturbed run either way.
        return { value: median(entry.samples.map((m) => figure(workload.unit, m))) };
      }),
    );
  }
  rows.push(row('resident memory after workloads', 'MB', false, (r) => (r.rssMb === undefined ? undefined : { value: r.rssMb })));
  return rows;
}

/** Footnotes for behaviour the figures alone would hide. */
function observations(results: readonly TargetResult[]): string[] {
  return results.flatMap((r) => {
    const sends = r.sends;
    if (sends === undefined) return [];
    const notes: string[] = [];
    if (sends.late > 0) {
      notes.push(
        `- ${r.target}: ${((100 * sends.late) / sends.confirmed).toFixed(0)}% of receipts (${sends.late}/${sends.confirmed}) ` +
          `were null right after eth_sendRawTransaction returned (mining is asynchronous); the bench polled back to back, ` +
          `${(sends.polls / sends.late).toFixed(1)} extra queries each on average, and that wait is in the figures.`,
      );
    }
    if (sends.staleRejects > 0) {
      notes.push(
        `- ${r.target}: ${sends.staleRejects} send(s) right after evm_revert were refused ("already imported" / ` +
          `"replacement transaction underpriced": the pool still held the reverted nonce) and retried; the retries are in the figures.`,
      );
    }
    return notes;
  });
}

async function main(): Promise<number> {
  if (process.argv.includes('--soak')) return soakMain();
  if (process.argv.includes('--reliability')) return reliabilityMain();
  if (process.argv.includes('--hardhat-suites')) {
    try {
      await hardhatSuitesMain(process.argv.slice(2).filter((arg) => arg !== '--hardhat-suites'));
      return 0;
    } catch (error) {
      log(message(error));
      return 1;
    }
  }
  let options: Options | undefined;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    log(`${message(error)}\n${USAGE}`);
    return 2;
  }
  if (options === undefined) {
    log(USAGE);
    return 0;
  }

  const tmpDir = mkdtempSync(path.join(os.tmpdir(), 'chain-sim-bench-'));
  // Whatever happens (error, Ctrl-C, kill), no server outlives the bench.
  process.on('exit', () => {
    killAllChildren();
    rmSync(tmpDir, { recursive: true, force: true });
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

  const begun = performance.now();
  // Only the fork rows: no target is started for the other workloads.
  if (options.workloads.length === 0 && options.forkHolders !== undefined) {
    process.stdout.write(`\n${await forkMain({ holders: options.forkHolders, targets: options.targets, log })}`);
    return 0;
  }
  const targets = makeTargets({ tmpDir });
  const accounts = deriveAccounts(MNEMONIC, ACCOUNT_COUNT);
  const signer = new TxSigner(CHAIN_ID);
  let artifact: TokenArtifact | undefined;
  const tokenArtifact = (): TokenArtifact => (artifact ??= loadTokenArtifact());

  const results = await benchAll(
    options.targets.map((name) => targets[name]),
    options,
    (running) => new Session(running.client, accounts, signer, tokenArtifact),
  );

  const seconds = (performance.now() - begun) / 1000;
  const cpus = os.cpus();
  process.stdout.write(
    `\nchain-sim bench: N=${options.n}, median of ${options.repeat} runs, start-up median of ${options.startupRuns}, warm-up ${options.warmup}, node ${process.version}, ` +
      `${cpus.length}x ${cpus[0]?.model.trim() ?? 'cpu'}, ${seconds.toFixed(0)} s total\n` +
      `Transfers time send + receipt per transaction. Ratio columns: chain-sim's figure / the peer's (chain-sim-inproc/hardhat-inproc: both in process), read with the row's direction.\n\n` +
      `${renderTable(buildRows(results, options), options.targets, observations(results))}\n`,
  );
  if (options.json !== undefined) {
    const { n, repeat, warmup, startupRuns } = options;
    const meta = { date: new Date().toISOString(), node: process.version, cpus: cpus.length, n, repeat, warmup, startupRuns, seconds };
    writeFileSync(options.json, `${JSON.stringify({ meta, results }, null, 2)}\n`);
  }
  if (options.forkHolders !== undefined) process.stdout.write(`\n${await forkMain({ holders: options.forkHolders, targets: options.targets, log })}`);
  if (options.targets.includes('chain-sim')) {
    await powMain();
    await importMain();
    await artifactsMain();
  }
  return 0;
}

// Explicit exit: an in-process provider may keep timers alive after the run.
process.exit(await main());
