// Proof-of-work figures (chain-sim only: Ganache, Hardhat and Anvil have no getWork):
// CLI start to the first chain_getWork answer with a cold Ethash cache directory, and
// the time of chain_submitWork calls (Ethash verification + sealing) over HTTP.
// Run by `npm run bench` after the main table when chain-sim is among the targets.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EthashCacheStore, mineSeal } from '../src/engine/pow/ethash.js';
import { httpClient } from './rpc.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));
const hex = (data: Uint8Array) => `0x${Buffer.from(data).toString('hex')}`;

export async function powMain(): Promise<void> {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'chain-sim-bench-ethash-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'chain-sim.js'), '--mining', 'pow', '--port', String(port), '--quiet'], {
    stdio: 'ignore',
    env: { ...process.env, XDG_CACHE_HOME: cacheDir },
  });
  try {
    const client = httpClient(`http://127.0.0.1:${port}`);
    let work: string[] | undefined;
    while (!work) {
      if (performance.now() - started > 20_000) throw new Error('no getWork answer within 20 s');
      try {
        work = (await client.request('chain_getWork')) as string[];
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    const firstWorkMs = performance.now() - started;
    const store = new EthashCacheStore({ dir: null });
    const cache = await store.get(0);
    store.close();
    const submitMs: number[] = [];
    for (let i = 0; i < 10; i++) {
      const [powHash, , boundary] = (await client.request('chain_getWork')) as string[];
      const seal = mineSeal(cache, 0, bytes(powHash!), (1n << 256n) / BigInt(boundary!))!;
      const t = performance.now();
      const ok = await client.request('chain_submitWork', [hex(seal.nonce), powHash, hex(seal.mixDigest)]);
      submitMs.push(performance.now() - t);
      if (ok !== true) throw new Error('a valid solution was refused');
    }
    submitMs.sort((a, b) => a - b);
    console.log('\n| proof of work (chain-sim) | figure |\n| --- | ---: |');
    console.log(`| CLI start to first chain_getWork, cold Ethash cache (ms) | ${firstWorkMs.toFixed(0)} |`);
    console.log(`| chain_submitWork over HTTP: verify + seal, median of 10 (ms) | ${submitMs[5]!.toFixed(1)} |`);
    console.log(`| chain_submitWork over HTTP: slowest of 10 (ms) | ${submitMs[9]!.toFixed(1)} |`);
  } finally {
    child.kill('SIGKILL');
    rmSync(cacheDir, { recursive: true, force: true });
  }
}
