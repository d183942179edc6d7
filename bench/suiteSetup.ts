// What the real-suite harnesses share (hardhatSuite.ts for Hardhat 2, hardhat3Suite.ts and
// hardhat3OzSuite.ts for Hardhat 3): progress on stderr, the fetched repository's git directory,
// set-up steps run with their output on stderr, a work folder set up once per stamp, and this
// checkout (built) linked into it as the `chain-sim` package.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const STAMP_FILE = '.chain-sim-suite.json';

/** Progress, on stderr: stdout keeps only the table. */
export function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** The git directory of the fetched repository (a bare mirror, or a work tree's .git). */
export function gitDirOf(repository: string): string {
  const dotGit = path.join(repository, '.git');
  return existsSync(dotGit) ? dotGit : repository;
}

/** Runs a step of the set-up, its output on stderr with the progress. */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): void {
  execFileSync(command, args, {
    cwd,
    env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', ...env },
    stdio: ['ignore', process.stderr, process.stderr],
  });
}

/**
 * Runs `setUp` in an emptied `workdir` unless the folder was set up from the same `stamp`
 * (what it was made from: repository, ref, lock file...); the stamp is written once `setUp`
 * succeeds, so an interrupted set-up starts again.
 */
export function setUpOnce(workdir: string, stamp: Readonly<Record<string, string>>, setUp: () => void): void {
  const file = path.join(workdir, STAMP_FILE);
  if (existsSync(file) && readFileSync(file, 'utf8') === JSON.stringify(stamp)) return;
  rmSync(workdir, { recursive: true, force: true });
  mkdirSync(workdir, { recursive: true });
  setUp();
  writeFileSync(file, JSON.stringify(stamp));
}

/** Fails at once, before any set-up, when this checkout's plugin is not built (the suites load it from dist/). */
export function requireBuilt(): void {
  if (!existsSync(path.join(ROOT, 'dist', 'src', 'hardhat', 'index.js'))) throw new Error('build chain-sim first (npm run build)');
}

/** Links this checkout as `dir`'s node_modules/chain-sim, as installing chain-sim would. */
export function linkChainSim(dir: string): void {
  const linked = path.join(dir, 'node_modules', 'chain-sim');
  rmSync(linked, { recursive: true, force: true });
  symlinkSync(ROOT, linked, 'dir');
}
