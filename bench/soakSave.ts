// Soak row: saving a long chain with --state. The CLI gets one transaction and a chain_mine of
// 1,000,000 blocks (the most one call may mine), then SIGTERM, which saves the state file
// before exiting; its peak resident memory (VmHWM) is sampled until it exits. Then a second
// CLI starts from the file and must serve the same head.
//
//   npm run bench -- --soak --row save      (only this row; the full soak runs it last)
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { httpClient } from './rpc.js';

const BIN = fileURLToPath(new URL('../../bin/chain-sim.js', import.meta.url));
export const SAVE_SOAK_BLOCKS = 1_000_000;
const FIRST_ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined; // exited
  }
}

function startCli(state: string): Promise<{ child: ChildProcess; url: string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [BIN, '--port', '0', '--quiet', '--state', state], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve({ child, url: match[1]!, exited });
    });
    void exited.then((code) => reject(new Error(`chain-sim exited with ${code} before listening`)));
  });
}

export interface SaveSoakReport {
  readonly table: string;
}

/**
 * Two rows: as the issue reported it (nothing read, so the run is saved as reserved), and
 * after reading `latest`, which computes every block's hash first (the saved run is then
 * made of computed blocks) and gives the head to compare after the restart.
 */
export async function saveSoak(blocks = SAVE_SOAK_BLOCKS): Promise<SaveSoakReport> {
  const rows = [await saveRow(blocks, false), await saveRow(blocks, true)];
  const table = [
    '| chain | RSS before SIGTERM (MB) | peak RSS until exit (MB) | SIGTERM to exit (s) | state file | restart to listening (s) | restored head |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
  return { table };
}

async function saveRow(blocks: number, readHead: boolean): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'chain-sim-save-soak-'));
  const state = join(dir, 'state.json');
  try {
    const first = await startCli(state);
    const client = httpClient(first.url, { timeoutMs: 600_000 });
    await client.request('eth_sendTransaction', [{ from: FIRST_ACCOUNT, to: '0x000000000000000000000000000000000000bEEF', value: '0x1' }]);
    await client.request('chain_mine', [`0x${(blocks - 1).toString(16)}`]);
    const head = readHead ? ((await client.request('eth_getBlockByNumber', ['latest', false])) as { hash: string; number: string }) : undefined;
    client.close();
    const pid = first.child.pid!;
    const rssBefore = statusMb(pid, 'VmRSS')!;
    const started = performance.now();
    first.child.kill('SIGTERM');
    let peak = statusMb(pid, 'VmHWM') ?? 0;
    let exitCode: number | null | undefined;
    void first.exited.then((code) => (exitCode = code));
    while (exitCode === undefined) {
      peak = Math.max(peak, statusMb(pid, 'VmHWM') ?? 0);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const saveMs = performance.now() - started;
    if (exitCode !== 0) throw new Error(`chain-sim exited with ${exitCode} while saving`);
    const size = statSync(state).size;

    const loadStarted = performance.now();
    const second = await startCli(state);
    const loadMs = performance.now() - loadStarted;
    const reader = httpClient(second.url, { timeoutMs: 600_000 });
    const restored = (await reader.request('eth_getBlockByNumber', ['latest', false])) as { hash: string; number: string };
    reader.close();
    second.child.kill('SIGTERM');
    await second.exited;
    if (restored.number !== `0x${blocks.toString(16)}`) throw new Error(`restored head ${restored.number}, expected block ${blocks}`);
    if (head && restored.hash !== head.hash) throw new Error(`restored head hash ${restored.hash}, saved ${head.hash}`);
    const chain = `1 transaction + ${(blocks - 1).toLocaleString('en')} empty blocks${readHead ? ', every hash computed (latest read)' : ', nothing read'}`;
    return `| ${chain} | ${rssBefore.toFixed(1)} | ${peak.toFixed(1)} | ${(saveMs / 1000).toFixed(2)} | ${(size / 1024).toFixed(1)} KiB | ${(loadMs / 1000).toFixed(2)} | ${restored.number}${head ? ', same hash' : ''} |`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
