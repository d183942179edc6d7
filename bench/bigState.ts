// Saving and loading a large state with --state (issue 35): the CLI is given a state of large
// contract code and/or many storage slots, mines one block (so the head's state root is the live
// one), and is sent SIGTERM, which saves the state file before it exits. Sampled: resident memory
// before SIGTERM, the peak from SIGTERM to exit (VmHWM, reset first), the time to exit and the
// file's size. Then a second CLI loads the file: time to listening, peak memory, and the loaded
// state root, which must be the saved head's.
//
//   node dist/bench/bigState.js [--row code|slots|gib]...   (default: code and slots)
//   npm run bench -- --soak --row bigstate                 (code and slots, after the soak)
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { httpClient, type RpcClient } from './rpc.js';

const BIN = fileURLToPath(new URL('../../bin/chain-sim.js', import.meta.url));
const FIRST_ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const CODE_BYTES = 2_400_000;
const SLOTS_PER_ACCOUNT = 30_000;

export interface BigStateShape {
  readonly label: string;
  /** Contracts of CODE_BYTES random code each. */
  readonly contracts: number;
  /** Storage slots, spread over accounts of SLOTS_PER_ACCOUNT. */
  readonly slots: number;
}

export const BIG_STATE_ROWS: Readonly<Record<string, BigStateShape>> = {
  code: { label: '30 contracts of 2.4 MB code (144 MB file)', contracts: 30, slots: 0 },
  slots: { label: '300,000 storage slots (41 MB file)', contracts: 0, slots: 300_000 },
  gib: { label: '215 contracts of 2.4 MB code + 300,000 slots (1 GiB file)', contracts: 215, slots: 300_000 },
};

function status(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined; // exited
  }
}

/** Reset the process's peak resident size to its current one (Linux: clear_refs 5). */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

interface Cli {
  readonly child: ChildProcess;
  readonly url: string;
  readonly exited: Promise<number | null>;
  readonly output: () => string;
}

function startCli(state: string, onSpawn?: (pid: number) => void): Promise<Cli> {
  const child = spawn(process.execPath, [BIN, '--port', '0', '--quiet', '--state', state, '--max-body-bytes', '100000000'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onSpawn?.(child.pid!);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve({ child, url: match[1]!, exited, output: () => output });
    });
    void exited.then((code) => reject(new Error(`chain-sim exited with ${code} before listening: ${output.slice(-500)}`)));
  });
}

/** Peak resident size of `pid` (sampled every 10 ms, and VmHWM) until `done` settles. */
async function peakUntil(pid: number, done: Promise<unknown>): Promise<number> {
  let peak = 0;
  let finished = false;
  void done.finally(() => (finished = true)).catch(() => {});
  while (!finished) {
    peak = Math.max(peak, status(pid, 'VmHWM') ?? 0, status(pid, 'VmRSS') ?? 0);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return peak;
}

export async function buildState(client: RpcClient, shape: BigStateShape): Promise<void> {
  for (let i = 0; i < shape.contracts; i++) {
    const address = `0x${(0x100000 + i).toString(16).padStart(40, '0')}`;
    await client.request('hardhat_setCode', [address, `0x${randomBytes(CODE_BYTES).toString('hex')}`]);
  }
  for (let done = 0, n = 0; done < shape.slots; n++) {
    const count = Math.min(SLOTS_PER_ACCOUNT, shape.slots - done);
    const storage: Record<string, string> = {};
    for (let i = 0; i < count; i++) storage[`0x${randomBytes(32).toString('hex')}`] = `0x${randomBytes(32).toString('hex')}`;
    const address = `0x${(0x200000 + n).toString(16).padStart(40, '0')}`;
    await client.request('chain_loadState', [{ alloc: { [address]: { balance: '0x1', code: '0x6000', storage } } }]);
    done += count;
  }
  // The head's state root becomes the live one: the restarted node must load back to it.
  await client.request('evm_mine');
}

export interface BigStateResult {
  readonly label: string;
  readonly rssBeforeMb: number;
  readonly savePeakMb: number;
  readonly saveSeconds: number;
  readonly fileMb: number;
  readonly loadSeconds: number;
  readonly loadPeakMb: number;
  readonly rssAfterLoadMb: number;
  readonly sameRoot: boolean;
  readonly log: string;
}

export async function bigStateRow(shape: BigStateShape): Promise<BigStateResult> {
  const dir = mkdtempSync(join(tmpdir(), 'chain-sim-big-state-'));
  const state = join(dir, 'state.json');
  try {
    const first = await startCli(state);
    const client = httpClient(first.url, { timeoutMs: 600_000 });
    await buildState(client, shape);
    const head = (await client.request('eth_getBlockByNumber', ['latest', false])) as { stateRoot: string };
    client.close();
    await new Promise((resolve) => setTimeout(resolve, 2000)); // let the heap settle
    const pid = first.child.pid!;
    const rssBeforeMb = status(pid, 'VmRSS')!;
    resetPeak(pid);
    const started = performance.now();
    first.child.kill('SIGTERM');
    const savePeakMb = await peakUntil(pid, first.exited);
    const saveSeconds = (performance.now() - started) / 1000;
    const code = await first.exited;
    if (code !== 0) throw new Error(`chain-sim exited with ${code} while saving: ${first.output().slice(-500)}`);
    const fileMb = statSync(state).size / 1e6;

    const loadStarted = performance.now();
    let loadPid = 0;
    const loading = startCli(state, (pid) => (loadPid = pid));
    const loadPeakMb = await peakUntil(loadPid, loading);
    const second = await loading;
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const rssAfterLoadMb = status(loadPid, 'VmRSS')!;
    const reader = httpClient(second.url, { timeoutMs: 600_000 });
    // Adding 0 changes nothing and answers the live state root.
    const root = await reader.request('tenderly_addBalance', [[FIRST_ACCOUNT], '0x0']);
    reader.close();
    second.child.kill('SIGTERM');
    await second.exited;
    return {
      label: shape.label,
      rssBeforeMb,
      savePeakMb,
      saveSeconds,
      fileMb,
      loadSeconds,
      loadPeakMb,
      rssAfterLoadMb,
      sameRoot: root === head.stateRoot,
      log: first.output().trim(),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function bigStateTable(results: readonly BigStateResult[]): string {
  return [
    '| state | RSS before SIGTERM (MB) | peak RSS saving (MB) | SIGTERM to exit (s) | file (MB) | load to listening (s) | peak RSS loading (MB) | RSS loaded (MB) | loaded root |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...results.map(
      (r) =>
        `| ${r.label} | ${r.rssBeforeMb.toFixed(0)} | ${r.savePeakMb.toFixed(0)} | ${r.saveSeconds.toFixed(1)} | ${r.fileMb.toFixed(0)} | ${r.loadSeconds.toFixed(1)} | ${r.loadPeakMb.toFixed(0)} | ${r.rssAfterLoadMb.toFixed(0)} | ${r.sameRoot ? 'same' : 'DIFFERENT'} |`,
    ),
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { row: { type: 'string', multiple: true } } });
  const names = values.row ?? ['code', 'slots'];
  const results: BigStateResult[] = [];
  for (const name of names) {
    const shape = BIG_STATE_ROWS[name];
    if (!shape) throw new Error(`--row: unknown ${name} (known: ${Object.keys(BIG_STATE_ROWS).join(', ')})`);
    process.stderr.write(`big state: ${shape.label}...\n`);
    const result = await bigStateRow(shape);
    process.stderr.write(`${result.log}\n`);
    results.push(result);
  }
  console.log(bigStateTable(results));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
