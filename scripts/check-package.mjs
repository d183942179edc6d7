// The package as npm would ship it, used as a new user would (run by .ci/run after the tests):
// `npm pack`, install the tarball into an empty project outside the checkout, then
// `npx chain-sim --version`, start the node and answer a request through ethers, load
// `chain-sim/mocha` from CommonJS and from ESM, and run a Ganache-style suite against the same
// tarball installed under Ganache's name (`npm install ganache@npm:chain-sim`, here
// `ganache@file:`). Exits non-zero with the step that failed.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(path.join(tmpdir(), 'chain-sim-package-'));
const project = path.join(work, 'project');
const ethersVersion = JSON.parse(readFileSync(path.join(root, 'node_modules/ethers/package.json'), 'utf8')).version;

function step(name, run) {
  process.stdout.write(`package check: ${name} ... `);
  try {
    const detail = run();
    console.log(detail ? `ok (${detail})` : 'ok');
  } catch (error) {
    console.log('FAILED');
    console.error(error instanceof Error ? error.message : String(error));
    if (error?.stdout) console.error(String(error.stdout));
    if (error?.stderr) console.error(String(error.stderr));
    cleanUp();
    process.exit(1);
  }
}

const run = (command, args, options = {}) => execFileSync(command, args, { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });

function cleanUp() {
  rmSync(work, { recursive: true, force: true });
}

let tarball;
step('npm pack', () => {
  // --ignore-scripts: the checkout is already built (`npm test` builds); `prepare` would build again.
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8' });
  tarball = path.join(work, JSON.parse(out)[0].filename);
  return path.basename(tarball);
});

step('install the tarball into an empty project', () => {
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'new-user', version: '1.0.0', private: true }));
  // The same tarball twice: as chain-sim, and under Ganache's name as the npm alias installs it.
  run('npm', ['install', '--no-audit', '--no-fund', '--no-save', tarball, `ganache@file:${tarball}`, `ethers@${ethersVersion}`]);
});

step('npx chain-sim --version', () => {
  const version = run('npx', ['--no-install', 'chain-sim', '--version']).trim();
  if (!/^\d+\.\d+\.\d+/.test(version)) throw new Error(`unexpected version output: ${version}`);
  return version;
});

step('chain-sim/mocha from CommonJS', () => {
  const script = `
    const { provider, loadFixture, mochaHooks } = require('chain-sim/mocha');
    if (typeof provider?.request !== 'function') throw new Error('provider is ' + provider);
    if (typeof loadFixture !== 'function' || typeof mochaHooks?.beforeEach !== 'function') throw new Error('missing exports');
    provider.request({ method: 'eth_chainId' }).then((id) => { console.log(id); return provider.disconnect(); });`;
  return run(process.execPath, ['-e', script]).trim();
});

step('chain-sim/mocha from ESM', () => {
  const script = `
    import { provider } from 'chain-sim/mocha';
    console.log(await provider.request({ method: 'eth_chainId' }));
    await provider.disconnect();`;
  return run(process.execPath, ['--input-type=module', '-e', script]).trim();
});

step('chain-sim/hardhat from CommonJS (a Hardhat 2 config) and ESM (a Hardhat 3 config)', () => {
  const cjs = run(process.execPath, ['-e', "const m = require('chain-sim/hardhat'); console.log(m.registeredWithHardhat2, m.default.id)"]).trim();
  const esm = run(process.execPath, ['--input-type=module', '-e', "import chainSim from 'chain-sim/hardhat'; console.log(chainSim.id)"]).trim();
  if (cjs !== 'false chain-sim' || esm !== 'chain-sim') throw new Error(`unexpected: ${cjs} / ${esm}`);
  return esm;
});

step("require('ganache') (the tarball under Ganache's name): a Ganache-style ethers suite", () => {
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
      const server = ganache.server({ chain: { networkId: 77 }, logging: { quiet: true } });
      await new Promise((resolve, reject) => server.listen(0, '127.0.0.1', (error) => (error ? reject(error) : resolve())));
      const http = new JsonRpcProvider('http://127.0.0.1:' + server.address().port);
      assert.strictEqual(await http.send('net_version', []), '77');
      http.destroy();
      await server.close();
      console.log('snapshot, revert, failing send, legacy send, server.listen');
    })().catch((e) => { console.error(e); process.exit(1); });`;
  return run(process.execPath, ['-e', script]).trim();
});

// The node, started as `npx chain-sim` starts it, answering ethers over HTTP.
const bin = path.join(project, 'node_modules/chain-sim/bin/chain-sim.js');
const node = spawn(process.execPath, [bin, '--port', '0', '--quiet'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
let output = '';
node.stdout.on('data', (chunk) => (output += chunk));
node.stderr.on('data', (chunk) => (output += chunk));
const url = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`no "Listening on" line within 20 s:\n${output}`)), 20_000);
  node.stdout.on('data', () => {
    const match = /Listening on (\S+)/.exec(output);
    if (match) {
      clearTimeout(timer);
      resolve(match[1]);
    }
  });
  node.on('exit', (code) => reject(new Error(`the node exited with ${code}:\n${output}`)));
}).catch((error) => {
  console.error(`package check: start the installed node ... FAILED\n${error.message}`);
  node.kill();
  cleanUp();
  process.exit(1);
});

step(`ethers against the installed node at ${url}`, () => {
  const script = `
    const { JsonRpcProvider, parseEther } = require('ethers');
    (async () => {
      const provider = new JsonRpcProvider(${JSON.stringify(url)});
      const signer = await provider.getSigner(0);
      const receipt = await (await signer.sendTransaction({ to: '0x000000000000000000000000000000000000dEaD', value: parseEther('1') })).wait();
      const balance = await provider.getBalance('0x000000000000000000000000000000000000dEaD');
      if (receipt.status !== 1 || balance !== parseEther('1')) throw new Error('transfer not mined as expected');
      console.log('block ' + receipt.blockNumber);
      provider.destroy();
    })().catch((e) => { console.error(e); process.exit(1); });`;
  return run(process.execPath, ['-e', script]).trim();
});

node.kill('SIGTERM');
await new Promise((resolve) => node.once('exit', resolve));
cleanUp();
console.log('package check: passed');
