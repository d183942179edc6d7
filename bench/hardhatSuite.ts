// A real project's Hardhat 2 test suite, run on Hardhat's own network and on chain-sim in process
// (chain-sim/hardhat: one line added to the project's config), with both pass counts and wall
// times. The project is a git repository fetched beforehand (nothing is downloaded from GitHub
// here); its dependencies come from the npm registry, through the project's own lock file.
//
//   CHAIN_SIM_HARDHAT_SUITE=/work/.mirror/ethereum-attestation-service+eas-contracts/repo \
//   CHAIN_SIM_HARDHAT3_SUITE=/work/.mirror/NomicFoundation+hardhat/repo \
//   CHAIN_SIM_HARDHAT3_OZ_SUITE=/work/.mirror/OpenZeppelin+openzeppelin-contracts/repo \
//     node dist/bench/hardhatSuite.js [--ref v1.4.0] [--ref3 hardhat@3.12.0] [--ref-oz COMMIT]
//       [--oz-tests test/access,test/token/ERC20|all] [--repeat 3] [--workdir DIR] [--json FILE]
//
// Each variable set adds its suite to the run and a row to the table: CHAIN_SIM_HARDHAT_SUITE a
// Hardhat 2 project (this file), CHAIN_SIM_HARDHAT3_SUITE Hardhat 3's sample projects
// (hardhat3Suite.ts), CHAIN_SIM_HARDHAT3_OZ_SUITE a real Hardhat 3 project, OpenZeppelin
// Contracts (hardhat3OzSuite.ts). With none it says so and exits 0 (test/e2e/hardhat-suite.test.ts
// and hardhat3-oz-suite.test.ts are pending then). For the Hardhat 2 project:
// Steps: `git archive REF` into the work folder; install (pnpm-lock.yaml: pnpm, with
// --shamefully-hoist so that test files resolve their tools as under npm; package-lock.json: npm ci),
// install scripts off; link chain-sim (this checkout, built) into its node_modules; write two
// configs next to the project's, identical but for chain-sim's line, which both compile with the
// solc npm package (Hardhat would download native solc) and run Mocha without --bail and with the
// JSON reporter; compile once; then run `hardhat test` with each config, alternating, --repeat
// times. The table gives the median wall time of each; tests whose outcome differs are listed.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { OZ_SUITE_ENV, OZ_SUITE_REF, ozWorkdir, runOzSuite } from './hardhat3OzSuite.js';
import { HARDHAT3_SUITE_ENV, HARDHAT3_SUITE_REF, runHardhat3Suite } from './hardhat3Suite.js';
import { gitDirOf, linkChainSim, log, requireBuilt, run, setUpOnce } from './suiteSetup.js';

const ENV = 'CHAIN_SIM_HARDHAT_SUITE';

export interface Outcome {
  readonly passes: number;
  readonly pending: number;
  readonly failures: number;
  readonly wallSeconds: number;
  /** Full titles of the tests that failed. */
  readonly failed: readonly string[];
  readonly passed: readonly string[];
}

export interface SuiteResult {
  readonly project: string;
  readonly ref: string;
  readonly tests: number;
  readonly hardhat: readonly Outcome[];
  readonly chainSim: readonly Outcome[];
  /** Tests that passed on one network and failed on the other (first runs compared). */
  readonly differing: readonly { title: string; hardhat: string; chainSim: string; error?: string }[];
}

const NETWORKS = {
  hardhat: { config: 'hardhat.suite-hardhat.config', line: '' },
  chainSim: { config: 'hardhat.suite-chain-sim.config', line: "import 'chain-sim/hardhat';\n" },
} as const;

/** Extracts the ref and installs its dependencies, once per work folder (a stamp records what is there). */
function prepare(repository: string, ref: string, workdir: string): void {
  setUpOnce(workdir, { repository, ref }, () => {
    log(`extracting ${ref} of ${repository} into ${workdir}`);
    const archive = execFileSync('git', ['--git-dir', gitDirOf(repository), 'archive', ref], { maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', workdir], { input: archive });
    const started = Date.now();
    if (existsSync(path.join(workdir, 'pnpm-lock.yaml'))) {
      const manager = (JSON.parse(readFileSync(path.join(workdir, 'package.json'), 'utf8')) as { packageManager?: string }).packageManager;
      const pnpm = manager?.startsWith('pnpm@') ? manager.split('+')[0]! : 'pnpm@9.15.4';
      log(`installing with ${pnpm} (frozen lock file, no install scripts)`);
      run('npx', ['-y', pnpm, 'install', '--frozen-lockfile', '--ignore-scripts', '--shamefully-hoist'], workdir);
    } else if (existsSync(path.join(workdir, 'package-lock.json'))) {
      log('installing with npm ci (no install scripts)');
      run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], workdir);
    } else throw new Error(`${workdir}: no pnpm-lock.yaml or package-lock.json to install from`);
    log(`installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  });
  // chain-sim as the project would get it from npm: this checkout, linked.
  linkChainSim(workdir);
  writeConfigs(workdir);
}

/** The project's config file (hardhat.config.ts, .js or .cjs). */
function projectConfig(workdir: string): { file: string; typescript: boolean } {
  for (const name of ['hardhat.config.ts', 'hardhat.config.js', 'hardhat.config.cjs']) {
    if (existsSync(path.join(workdir, name))) return { file: name, typescript: name.endsWith('.ts') };
  }
  throw new Error(`${workdir}: no hardhat.config.ts, .js or .cjs`);
}

/**
 * Two configs, each the project's config plus the same offline compiler and reporter settings;
 * the chain-sim one has chain-sim's line first. The offline compiler is the solc npm package of
 * the version the project asks for (installed beside the project when its own is another).
 */
function writeConfigs(workdir: string): void {
  writeFileSync(
    path.join(workdir, 'chain-sim-suite-solc.js'),
    `// Written by chain-sim's bench/hardhatSuite.ts: compile with the solc npm package instead of downloading solc.
const path = require('path');
const { execFileSync } = require('child_process');
const { subtask } = require('hardhat/config');
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require('hardhat/builtin-tasks/task-names');
subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async ({ solcVersion }) => {
  let dir = path.dirname(require.resolve('solc/package.json'));
  if (require(path.join(dir, 'package.json')).version !== solcVersion) {
    const prefix = path.join(__dirname, '.chain-sim-solc', solcVersion);
    dir = path.join(prefix, 'node_modules', 'solc');
    try { require.resolve(path.join(dir, 'package.json')); } catch {
      execFileSync('npm', ['install', '--prefix', prefix, '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', 'solc@' + solcVersion], { stdio: 'inherit' });
    }
  }
  return { compilerPath: path.join(dir, 'soljson.js'), isSolcJs: true, version: solcVersion, longVersion: require(path.join(dir, 'index.js')).version() };
});
`,
  );
  const { file, typescript } = projectConfig(workdir);
  const base = `./${file.replace(/\.ts$/, '')}`;
  const body = typescript
    ? `import './chain-sim-suite-solc.js';
import config from '${base}';
// No --bail (every test runs, so that all differences show), and a JSON report for the harness.
config.mocha = { ...config.mocha, bail: false, reporter: 'json', reporterOptions: { output: process.env.CHAIN_SIM_SUITE_REPORT } };
export default config;
`
    : `require('./chain-sim-suite-solc.js');
const loaded = require('${base}');
const config = loaded.default ?? loaded;
// No --bail (every test runs, so that all differences show), and a JSON report for the harness.
config.mocha = { ...config.mocha, bail: false, reporter: 'json', reporterOptions: { output: process.env.CHAIN_SIM_SUITE_REPORT } };
module.exports = config;
`;
  const extension = typescript ? 'ts' : 'cjs';
  for (const { config, line } of Object.values(NETWORKS)) writeFileSync(path.join(workdir, `${config}.${extension}`), line + body);
}

function hardhatCli(workdir: string): string {
  return path.join(workdir, 'node_modules', 'hardhat', 'internal', 'cli', 'cli.js');
}

function configFile(workdir: string, network: keyof typeof NETWORKS): string {
  return `${NETWORKS[network].config}.${projectConfig(workdir).typescript ? 'ts' : 'cjs'}`;
}

interface MochaReport {
  stats: { passes: number; pending: number; failures: number; tests: number };
  passes: { fullTitle: string }[];
  failures: { fullTitle: string; err: { message?: string } }[];
}

/** One `hardhat test` run: its wall time (the whole process, start-up included) and its report. */
async function runSuite(workdir: string, network: keyof typeof NETWORKS, label: string): Promise<{ outcome: Outcome; report: MochaReport }> {
  const report = path.join(workdir, `.chain-sim-suite-${network}.json`);
  rmSync(report, { force: true });
  const started = process.hrtime.bigint();
  const output: Buffer[] = [];
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [hardhatCli(workdir), 'test', '--no-compile', '--config', configFile(workdir, network)], {
      cwd: workdir,
      env: { ...process.env, CHAIN_SIM_SUITE_REPORT: report, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.once('exit', resolve);
  });
  const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (!existsSync(report)) throw new Error(`${label}: hardhat test exited with ${code} and wrote no report:\n${Buffer.concat(output).toString().slice(-4000)}`);
  const parsed = JSON.parse(readFileSync(report, 'utf8')) as MochaReport;
  const { passes, pending, failures } = parsed.stats;
  log(`${label}: ${passes} passing, ${pending} pending, ${failures} failing in ${wallSeconds.toFixed(1)} s`);
  return {
    outcome: { passes, pending, failures, wallSeconds, failed: parsed.failures.map((f) => f.fullTitle), passed: parsed.passes.map((p) => p.fullTitle) },
    report: parsed,
  };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export async function runHardhatSuite(repository: string, ref: string, workdir: string, repeat: number): Promise<SuiteResult> {
  requireBuilt();
  prepare(repository, ref, workdir);
  log('compiling (once, with the solc npm package)');
  run(process.execPath, [hardhatCli(workdir), 'compile', '--quiet', '--config', configFile(workdir, 'hardhat')], workdir, {
    HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true',
  });
  const hardhat: Outcome[] = [];
  const chainSim: Outcome[] = [];
  const reports: Partial<Record<keyof typeof NETWORKS, MochaReport>> = {};
  for (let round = 1; round <= repeat; round++) {
    // Alternate which network goes first, so that a slower machine at one moment does not favour either.
    const order: (keyof typeof NETWORKS)[] = round % 2 === 1 ? ['hardhat', 'chainSim'] : ['chainSim', 'hardhat'];
    for (const network of order) {
      const { outcome, report } = await runSuite(workdir, network, `round ${round}, ${network === 'hardhat' ? "Hardhat's network" : 'chain-sim'}`);
      (network === 'hardhat' ? hardhat : chainSim).push(outcome);
      reports[network] ??= report;
    }
  }
  const outcomeOf = (report: MochaReport | undefined, title: string) =>
    report?.passes.some((p) => p.fullTitle === title) ? 'passed' : report?.failures.some((f) => f.fullTitle === title) ? 'failed' : 'not run';
  const titles = new Set(
    [...(reports.hardhat?.passes ?? []), ...(reports.hardhat?.failures ?? []), ...(reports.chainSim?.passes ?? []), ...(reports.chainSim?.failures ?? [])].map(
      (t) => t.fullTitle,
    ),
  );
  const differing = [...titles].flatMap((title) => {
    const a = outcomeOf(reports.hardhat, title);
    const b = outcomeOf(reports.chainSim, title);
    if (a === b) return [];
    const error = [...(reports.chainSim?.failures ?? []), ...(reports.hardhat?.failures ?? [])].find((f) => f.fullTitle === title)?.err.message;
    return [{ title, hardhat: a, chainSim: b, ...(error === undefined ? {} : { error: error.slice(0, 400) }) }];
  });
  return { project: path.basename(path.dirname(gitDirOf(repository))), ref, tests: reports.hardhat?.stats.tests ?? 0, hardhat, chainSim, differing };
}

const rowOf = (result: SuiteResult): string => {
  const h = median(result.hardhat.map((o) => o.wallSeconds));
  const c = median(result.chainSim.map((o) => o.wallSeconds));
  const counts = (outcomes: readonly Outcome[]) => [...new Set(outcomes.map((o) => `${o.passes}/${o.passes + o.failures + o.pending}`))].join(', ');
  return `| ${result.project} ${result.ref} (${result.tests} tests), median of ${result.hardhat.length} | ${counts(result.hardhat)} | ${counts(result.chainSim)} | ${h.toFixed(1)} | ${c.toFixed(1)} | ${(c / h).toFixed(2)}x |`;
};

/** One table for the suites of one run (a row each), then each suite's runs and differing tests. */
export function renderSuites(results: readonly SuiteResult[]): string {
  const lines = [
    `| suite | Hardhat's network: passing | chain-sim: passing | Hardhat's network: wall (s) | chain-sim: wall (s) | chain-sim/hardhat |`,
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...results.map(rowOf),
    '',
    'Each run: `hardhat test --no-compile` as a whole process (start-up included).',
  ];
  for (const result of results) {
    lines.push(
      '',
      `${result.project} ${result.ref}: Hardhat's runs ${result.hardhat.map((o) => o.wallSeconds.toFixed(1)).join(', ')} s; chain-sim's ${result.chainSim.map((o) => o.wallSeconds.toFixed(1)).join(', ')} s.`,
    );
    if (result.differing.length === 0) lines.push('No test differs between the two networks.');
    else {
      lines.push('Tests that differ (first run of each):');
      for (const d of result.differing)
        lines.push(`- ${d.title}: Hardhat's network ${d.hardhat}, chain-sim ${d.chainSim}${d.error ? ` (${d.error.replace(/\s+/g, ' ')})` : ''}`);
    }
  }
  return lines.join('\n');
}

export const renderSuite = (result: SuiteResult): string => renderSuites([result]);

/**
 * The suites the environment names, run and printed as one table (stdout); `args` as on the
 * command line. Also `npm run bench -- --hardhat-suites [these options]` (bench/run.ts).
 */
export async function hardhatSuitesMain(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      ref: { type: 'string' },
      ref3: { type: 'string' },
      'ref-oz': { type: 'string' },
      'oz-tests': { type: 'string' },
      repeat: { type: 'string' },
      workdir: { type: 'string' },
      json: { type: 'string' },
    },
  });
  const repository = process.env[ENV];
  const repository3 = process.env[HARDHAT3_SUITE_ENV];
  const repositoryOz = process.env[OZ_SUITE_ENV];
  if (!repository && !repository3 && !repositoryOz) {
    log(
      `none of ${ENV}, ${HARDHAT3_SUITE_ENV}, ${OZ_SUITE_ENV} is set: nothing to run (set them to fetched repositories, e.g. /work/.mirror/ethereum-attestation-service+eas-contracts/repo, /work/.mirror/NomicFoundation+hardhat/repo and /work/.mirror/OpenZeppelin+openzeppelin-contracts/repo)`,
    );
    return;
  }
  const repeat = Number(values.repeat ?? '3');
  if (!Number.isInteger(repeat) || repeat < 1) throw new Error(`--repeat: expected a whole number of runs, got ${values.repeat}`);
  const results: SuiteResult[] = [];
  if (repository) {
    const ref = values.ref ?? 'v1.4.0';
    const workdir = values.workdir ?? path.join(os.tmpdir(), `chain-sim-hardhat-suite-${path.basename(path.dirname(gitDirOf(repository)))}-${ref}`);
    results.push(await runHardhatSuite(repository, ref, workdir, repeat));
  }
  if (repository3) {
    const ref = values.ref3 ?? HARDHAT3_SUITE_REF;
    results.push(await runHardhat3Suite(repository3, ref, hardhat3Workdir(repository3, ref), repeat));
  }
  if (repositoryOz) {
    const ref = values['ref-oz'] ?? OZ_SUITE_REF;
    const tests = values['oz-tests']
      ?.split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    results.push(await runOzSuite(repositoryOz, ref, ozWorkdir(repositoryOz, ref), repeat, tests === undefined ? {} : { tests }));
  }
  if (values.json) writeFileSync(values.json, JSON.stringify(results, null, 2));
  console.log(renderSuites(results));
}

/** Where the Hardhat 3 suite is set up (kept between runs: installing takes minutes). */
export function hardhat3Workdir(repository: string, ref: string): string {
  return path.join(os.tmpdir(), `chain-sim-hardhat3-suite-${path.basename(path.dirname(gitDirOf(repository)))}-${ref.replace(/[^\w.-]/g, '_')}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  hardhatSuitesMain(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
