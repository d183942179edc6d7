// The package as npm would ship it, installed by each route the README documents (run by .ci/run
// after the tests). `npm pack` makes chain-sim's tarball and the Ganache drop-in's
// (ganache-drop-in/, the chain-sim-ganache package), then, in empty projects outside the checkout:
//  - `npm install ./chain-sim-<version>.tgz`: `npx chain-sim --version`, `chain-sim/mocha` from
//    CommonJS and ESM, the installed node answering ethers; no `ganache` command is linked; the
//    LICENSE is there and every relative link of the shipped README and docs reaches a shipped file;
//    the installed node serves the explorer page (GET /) from the package's built files;
//  - `npm install ./chain-sim-<version>.tgz ganache@file:./chain-sim-ganache-<version>.tgz`: a
//    Ganache-style suite through `require('ganache')`, and `npx ganache --wallet.totalAccounts 5
//    --server.port 0` serving 5 accounts, as a script written for Ganache's CLI runs it.
// The git route (`npm install git+file://...`) is measured, not run here: it installs the
// devDependencies and builds (docs/testing.md). Exits non-zero with the step that failed.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(path.join(tmpdir(), 'chain-sim-package-'));
const ethersVersion = JSON.parse(readFileSync(path.join(root, 'node_modules/ethers/package.json'), 'utf8')).version;
/** Processes started by a step, stopped if a later step fails. */
const running = new Set();

async function step(name, run) {
  process.stdout.write(`package check: ${name} ... `);
  try {
    const detail = await run();
    console.log(detail ? `ok (${detail})` : 'ok');
  } catch (error) {
    console.log('FAILED');
    console.error(error instanceof Error ? error.message : String(error));
    if (error?.stdout) console.error(String(error.stdout));
    if (error?.stderr) console.error(String(error.stderr));
    for (const served of running) served.stop();
    cleanUp();
    process.exit(1);
  }
}

const run = (cwd, command, args) => execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

function cleanUp() {
  rmSync(work, { recursive: true, force: true });
}

/** An empty project with these packages installed, as a user's `npm install` would. */
function project(name, specs) {
  const dir = path.join(work, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true }));
  run(dir, 'npm', ['install', '--no-audit', '--no-fund', ...specs, `ethers@${ethersVersion}`]);
  return dir;
}

/**
 * Starts a command that serves JSON-RPC (in its own process group: npx starts sh and node under it)
 * and resolves the URL once `listening` matches its output.
 */
function serve(cwd, command, args, listening) {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const served = {
    stop: () => {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    },
    exited: new Promise((resolve) => child.once('exit', resolve)),
  };
  running.add(served);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 30 s:\n${output}`)), 30_000);
    const onData = (chunk) => {
      output += chunk;
      const match = listening.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({ ...served, url: match[1].startsWith('http') ? match[1] : `http://${match[1]}`, output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`)));
  });
}

async function stopServing(served) {
  served.stop();
  await served.exited;
  running.delete(served);
}

async function rpc(url, method, params = []) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const answer = await response.json();
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

/** The markdown files under `dir` (node_modules left out). */
function markdownFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((file) => file.endsWith('.md') && !file.split(path.sep).includes('node_modules'))
    .map((file) => path.join(dir, file));
}

/** Relative link targets of a markdown file's prose (code blocks and code spans hold examples, not links). */
function relativeLinks(file) {
  const prose = readFileSync(file, 'utf8')
    .replace(/^\s*(```+|~~~+)[\s\S]*?^\s*\1/gm, '')
    .replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1].split('#')[0])
    .filter((target) => target !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

let tarball;
let dropIn;
await step('npm pack', () => {
  // --ignore-scripts: the checkout is already built (`npm test` builds); `prepare` would build again.
  const out = run(root, 'npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work]);
  const [packed] = JSON.parse(out);
  tarball = path.join(work, packed.filename);
  return `${packed.filename}: ${(packed.size / 1024).toFixed(0)} KB, ${(packed.unpackedSize / 1024 / 1024).toFixed(2)} MB unpacked, ${packed.entryCount} files`;
});

await step('npm pack ganache-drop-in (the chain-sim-ganache package)', () => {
  const [packed] = JSON.parse(run(path.join(root, 'ganache-drop-in'), 'npm', ['pack', '--json', '--pack-destination', work]));
  dropIn = path.join(work, packed.filename);
  const manifest = JSON.parse(readFileSync(path.join(root, 'ganache-drop-in/package.json'), 'utf8'));
  const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
  if (manifest.version !== version || manifest.dependencies['chain-sim'] !== version) {
    throw new Error(`chain-sim-ganache ${manifest.version} depends on chain-sim ${manifest.dependencies['chain-sim']}; chain-sim is ${version}`);
  }
  return packed.filename;
});

// ---- Route 1: the tarball, under chain-sim's own name.
let plain;
await step(`npm install ./${path.basename(tarball)}`, () => {
  plain = project('new-user', [tarball]);
});

await step('no `ganache` command when chain-sim is installed under its own name', () => {
  const bins = readdirSync(path.join(plain, 'node_modules/.bin'));
  if (!bins.includes('chain-sim')) throw new Error(`no chain-sim in node_modules/.bin: ${bins.join(', ')}`);
  const taken = bins.filter((bin) => bin === 'ganache' || bin === 'ganache-cli');
  if (taken.length > 0) throw new Error(`node_modules/.bin has ${taken.join(', ')}`);
  return `node_modules/.bin: ${bins.filter((bin) => bin.includes('chain')).join(', ')}`;
});

await step('LICENSE, and every relative link of the installed README and docs reaches a shipped file', () => {
  const installed = path.join(plain, 'node_modules/chain-sim');
  if (!/^MIT License/.test(readFileSync(path.join(installed, 'LICENSE'), 'utf8'))) throw new Error('LICENSE is not the MIT license');
  const files = markdownFiles(installed);
  let links = 0;
  const broken = [];
  for (const file of files) {
    for (const target of relativeLinks(file)) {
      links++;
      const resolved = path.resolve(path.dirname(file), decodeURIComponent(target));
      const inside = resolved.startsWith(installed + path.sep);
      if (!inside || !existsSync(resolved) || !statSync(resolved).isFile()) broken.push(`${path.relative(installed, file)} -> ${target}`);
    }
  }
  if (!files.includes(path.join(installed, 'README.md'))) throw new Error('README.md is not in the package');
  if (broken.length > 0) throw new Error(`links that reach no file of the package:\n  ${broken.join('\n  ')}`);
  return `${links} links in ${files.length} files`;
});

await step('npx chain-sim --version', () => {
  const version = run(plain, 'npx', ['--no-install', 'chain-sim', '--version']).trim();
  if (!/^\d+\.\d+\.\d+/.test(version)) throw new Error(`unexpected version output: ${version}`);
  return version;
});

await step('chain-sim/mocha from CommonJS', () => {
  const script = `
    const { provider, loadFixture, mochaHooks } = require('chain-sim/mocha');
    if (typeof provider?.request !== 'function') throw new Error('provider is ' + provider);
    if (typeof loadFixture !== 'function' || typeof mochaHooks?.beforeEach !== 'function') throw new Error('missing exports');
    provider.request({ method: 'eth_chainId' }).then((id) => { console.log(id); return provider.disconnect(); });`;
  return run(plain, process.execPath, ['-e', script]).trim();
});

await step('chain-sim/mocha from ESM', () => {
  const script = `
    import { provider } from 'chain-sim/mocha';
    console.log(await provider.request({ method: 'eth_chainId' }));
    await provider.disconnect();`;
  return run(plain, process.execPath, ['--input-type=module', '-e', script]).trim();
});

await step('the installed node (npx chain-sim --port 0) answers ethers', async () => {
  const node = await serve(plain, 'npx', ['--no-install', 'chain-sim', '--port', '0', '--quiet'], /Listening on (\S+)/);
  const script = `
    const { JsonRpcProvider, parseEther } = require('ethers');
    (async () => {
      const provider = new JsonRpcProvider(${JSON.stringify(node.url)});
      const signer = await provider.getSigner(0);
      const receipt = await (await signer.sendTransaction({ to: '0x000000000000000000000000000000000000dEaD', value: parseEther('1') })).wait();
      const balance = await provider.getBalance('0x000000000000000000000000000000000000dEaD');
      if (receipt.status !== 1 || balance !== parseEther('1')) throw new Error('transfer not mined as expected');
      console.log('block ' + receipt.blockNumber);
      provider.destroy();
    })().catch((e) => { console.error(e); process.exit(1); });`;
  const detail = run(plain, process.execPath, ['-e', script]).trim();
  // The explorer's built files are in the package, served from it (docs/explorer.md).
  const page = await fetch(`${node.url}/`);
  const html = await page.text();
  const app = await fetch(`${node.url}/_ui/app.js`);
  const appScript = await app.text();
  await stopServing(node);
  if (page.status !== 200 || !html.includes('/_ui/app.js')) throw new Error(`GET / answered ${page.status}: ${html.slice(0, 200)}`);
  if (app.status !== 200 || appScript.length < 10_000) throw new Error(`GET /_ui/app.js answered ${app.status}, ${appScript.length} bytes`);
  return `${node.url}, ${detail}, explorer page and ${(appScript.length / 1024).toFixed(0)} KB app.js served`;
});

await step('chain-sim/hardhat from CommonJS (a Hardhat 2 config) and ESM (a Hardhat 3 config)', () => {
  const cjs = run(plain, process.execPath, ['-e', "const m = require('chain-sim/hardhat'); console.log(m.registeredWithHardhat2, m.default.id)"]).trim();
  const esm = run(plain, process.execPath, ['--input-type=module', '-e', "import chainSim from 'chain-sim/hardhat'; console.log(chainSim.id)"]).trim();
  if (cjs !== 'false chain-sim' || esm !== 'chain-sim') throw new Error(`unexpected: ${cjs} / ${esm}`);
  return esm;
});

// ---- Route 2: the Ganache drop-in, installed under Ganache's name beside chain-sim's tarball.
let ganacheUser;
await step(`npm install ./${path.basename(tarball)} ganache@file:./${path.basename(dropIn)}`, () => {
  ganacheUser = project('ganache-user', [tarball, `ganache@file:${dropIn}`]);
  const bins = readdirSync(path.join(ganacheUser, 'node_modules/.bin'));
  for (const bin of ['ganache', 'ganache-cli', 'chain-sim']) if (!bins.includes(bin)) throw new Error(`no ${bin} in node_modules/.bin`);
  return 'node_modules/.bin: chain-sim, ganache, ganache-cli';
});

await step("require('ganache'): a Ganache-style ethers suite", () => {
  const script = `
    const assert = require('node:assert');
    const ganache = require('ganache');
    const { BrowserProvider, JsonRpcProvider } = require('ethers');
    (async () => {
      const provider = ganache.provider({ wallet: { deterministic: true }, chain: { vmErrorsOnRPCResponse: true }, logging: { quiet: true } });
      const [first] = Object.keys(provider.getInitialAccounts());
      assert.strictEqual(first, '0x90f8bf6a479f320ead074411a4b0e7944ea8c9c1');
      const signer = await new BrowserProvider(provider).getSigner(0);
      const id = await provider.request({ method: 'evm_snapshot', params: [] });
      await (await signer.sendTransaction({ to: '0x000000000000000000000000000000000000dEaD', value: 1n })).wait();
      // A failing send rejects (init code that reverts: PUSH1 0 PUSH1 0 REVERT).
      await assert.rejects(signer.sendTransaction({ data: '0x60006000fd', gasLimit: 100000n }), /VM Exception while processing transaction: revert/);
      assert.strictEqual(await provider.request({ method: 'evm_revert', params: [id] }), true);
      const legacy = await new Promise((resolve, reject) =>
        provider.send({ jsonrpc: '2.0', id: 7, method: 'eth_blockNumber', params: [] }, (error, response) => (error ? reject(error) : resolve(response))),
      );
      assert.deepStrictEqual(legacy, { jsonrpc: '2.0', id: 7, result: '0x0' });
      await provider.disconnect();
      // A misspelt option is refused at once, with Ganache's nearest name and a code.
      assert.throws(() => ganache.provider({ wallet: { totalAcounts: 3 } }), { code: 'CHAIN_SIM_UNKNOWN_OPTION', message: /did you mean 'wallet.totalAccounts'/ });
      const server = ganache.server({ chain: { networkId: 77 }, logging: { quiet: true } });
      await new Promise((resolve, reject) => server.listen(0, '127.0.0.1', (error) => (error ? reject(error) : resolve())));
      const http = new JsonRpcProvider('http://127.0.0.1:' + server.address().port);
      assert.strictEqual(await http.send('net_version', []), '77');
      http.destroy();
      await server.close();
      console.log('snapshot, revert, failing send, legacy send, option refusal, server.listen');
    })().catch((e) => { console.error(e); process.exit(1); });`;
  return run(ganacheUser, process.execPath, ['-e', script]).trim();
});

await step('npx ganache --wallet.totalAccounts 5 --server.port 0 (a script written for Ganache’s CLI)', async () => {
  const node = await serve(ganacheUser, 'npx', ['--no-install', 'ganache', '--wallet.totalAccounts', '5', '--server.port', '0'], /RPC Listening on (\S+)/);
  const accounts = await rpc(node.url, 'eth_accounts');
  const client = await rpc(node.url, 'web3_clientVersion');
  await stopServing(node);
  if (accounts.length !== 5) throw new Error(`expected 5 accounts, got ${accounts.length}`);
  if (!client.startsWith('Ganache/')) throw new Error(`web3_clientVersion ${client}`);
  return `${node.url}: ${accounts.length} accounts, ${client.split('/').slice(0, 2).join('/')}`;
});

cleanUp();
console.log('package check: passed');
