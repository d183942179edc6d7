// The cost of the project's artifacts (docs/contracts.md): `chain-sim` started by the CLI in a
// Hardhat project whose build-info holds 300 contracts, against the same start in an empty
// folder (time to "Listening on"), and a failing eth_call's latency: the first one (which
// reads and parses the build-info), later ones, and the same call on a node without artifacts.
// The build-info is the test project's (test/contracts/project/) compiled by solc-js, its
// Token's entry (ABI, bytecode, source maps, AST) repeated under 300 source names.
// Run alone: `node dist/bench/artifacts.js` (after `npm run build`).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Interface } from 'ethers';
import { compileProject } from '../test/helpers/artifacts.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.join(ROOT, 'bin', 'chain-sim.js');
const CONTRACTS = 300;
const STARTS = 5;
const CALLS = 50;
const DEPLOYER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** A Hardhat project folder; with `buildInfo`, its artifacts/build-info/ holds that file. */
function project(buildInfo: object | undefined): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'chain-sim-bench-artifacts-'));
  writeFileSync(path.join(dir, 'hardhat.config.js'), 'module.exports = {};\n');
  if (buildInfo) {
    mkdirSync(path.join(dir, 'artifacts', 'build-info'), { recursive: true });
    writeFileSync(path.join(dir, 'artifacts', 'build-info', 'large.json'), JSON.stringify(buildInfo));
  }
  return dir;
}

/** 300 contracts: the compiled Token under 300 source names (its AST with it), as one build-info. */
function largeBuildInfo(): object {
  const { input, output } = compileProject();
  const token = output.contracts['contracts/Token.sol']!;
  const source = (output.sources as Record<string, object>)['contracts/Token.sol']!;
  const contracts: Record<string, object> = { ...output.contracts };
  const sources: Record<string, object> = { ...(output.sources as Record<string, object>) };
  const inputs: Record<string, { content: string }> = { ...input.sources };
  for (let i = 0; i < CONTRACTS; i++) {
    contracts[`contracts/generated/T${i}.sol`] = { [`T${i}`]: token.Token };
    sources[`contracts/generated/T${i}.sol`] = { ...source, id: 1000 + i };
    inputs[`contracts/generated/T${i}.sol`] = input.sources['contracts/Token.sol']!;
  }
  return {
    _format: 'hh-sol-build-info-1',
    id: 'bench',
    solcVersion: '0.8.30',
    input: { ...input, sources: inputs },
    output: { ...output, contracts, sources },
  };
}

interface Started {
  readonly url: string;
  readonly ms: number;
  stop(): Promise<void>;
}

function start(cwd: string): Promise<Started> {
  const began = performance.now();
  const child = spawn(process.execPath, [BIN, '--port', '0', '--quiet'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening on (http:\/\/\S+)/.exec(output);
      if (!match) return;
      child.stdout.off('data', onData);
      const ms = performance.now() - began;
      resolve({
        url: match[1]!,
        ms,
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`chain-sim exited with ${code}: ${output}`)));
  });
}

async function rpc(url: string, method: string, params: unknown[]): Promise<{ result?: unknown; error?: { message: string } }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: unknown; error?: { message: string } };
}

/** Milliseconds of a failing eth_call (the Token's transfer over its balance): the first, and the median of the next CALLS. */
async function failingCalls(url: string): Promise<{ first: number; later: number; message: string }> {
  const { output } = compileProject();
  const token = output.contracts['contracts/Token.sol']!.Token!;
  const iface = new Interface(token.abi as never);
  const sent = await rpc(url, 'eth_sendTransaction', [{ from: DEPLOYER, data: `0x${token.evm.bytecode.object}${iface.encodeDeploy([1000]).slice(2)}` }]);
  const receipt = await rpc(url, 'eth_getTransactionReceipt', [sent.result]);
  const to = (receipt.result as { contractAddress: string }).contractAddress;
  const data = iface.encodeFunctionData('transfer', [DEPLOYER, 5000]);
  const time = async () => {
    const began = performance.now();
    const answer = await rpc(url, 'eth_call', [{ from: DEPLOYER, to, data }, 'latest']);
    return { ms: performance.now() - began, message: answer.error?.message ?? '' };
  };
  const first = await time();
  const later: number[] = [];
  for (let i = 0; i < CALLS; i++) later.push((await time()).ms);
  return { first: first.ms, later: median(later), message: first.message };
}

export async function artifactsMain(): Promise<void> {
  const buildInfo = largeBuildInfo();
  const withArtifacts = project(buildInfo);
  const without = project(undefined);
  const size = statSync(path.join(withArtifacts, 'artifacts', 'build-info', 'large.json')).size;
  try {
    const startups = { with: [] as number[], without: [] as number[] };
    for (let i = 0; i < STARTS; i++) {
      for (const [key, cwd] of [
        ['without', without],
        ['with', withArtifacts],
      ] as const) {
        const node = await start(cwd);
        startups[key].push(node.ms);
        await node.stop();
      }
    }
    const runs = { with: await measureCalls(withArtifacts), without: await measureCalls(without) };
    console.log(`\n### Artifacts (${CONTRACTS + 7} contracts, a ${(size / 1024 / 1024).toFixed(1)} MiB build-info)\n`);
    console.log('| | start-up to listening (median of 5) | first failing eth_call | later failing eth_call (median of 50) | message |');
    console.log('|---|---|---|---|---|');
    for (const key of ['without', 'with'] as const) {
      const r = runs[key];
      console.log(
        `| ${key === 'with' ? 'Hardhat project with the build-info' : 'empty Hardhat project'} | ${median(startups[key]).toFixed(0)} ms | ${r.first.toFixed(1)} ms | ${r.later.toFixed(2)} ms | ${r.message} |`,
      );
    }
  } finally {
    rmSync(withArtifacts, { recursive: true, force: true });
    rmSync(without, { recursive: true, force: true });
  }
}

async function measureCalls(cwd: string) {
  const node = await start(cwd);
  try {
    return await failingCalls(node.url);
  } finally {
    await node.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  artifactsMain().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
