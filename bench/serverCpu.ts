// CPU time per operation of chain-sim CLI builds over HTTP, measured alternately on a shared,
// noisy machine: `node dist/bench/serverCpu.js --workload erc20 --n 500 --rounds 5 BIN...`
// starts one CLI per bin (each a bin/chain-sim.js of some build), then runs the workload on
// each in turn, round after round, and prints the server's CPU time per operation (user +
// system, from /proc/PID/stat) with its wall rate, and the medians per build. A server that
// waits uses no CPU, so the machine's other load shows in wall time but hardly in CPU time.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { deriveAccounts, TxSigner } from './accounts.js';
import { httpClient } from './rpc.js';
import { CHAIN_ID, MNEMONIC } from './targets.js';
import { loadTokenArtifact } from './token.js';
import { ACCOUNT_COUNT, Session, WORKLOADS } from './workloads.js';

const TICK_MS = 10; // USER_HZ is 100 on Linux

function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

function rssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

async function startCli(bin: string, port: number): Promise<{ pid: number; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [...(process.env.SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []), bin, '--host', '127.0.0.1', '--port', String(port), '--quiet'],
    {
      stdio: ['ignore', process.env.SERVER_STDOUT ? 'inherit' : 'ignore', 'inherit'],
    },
  );
  const client = httpClient(`http://127.0.0.1:${port}`, { keepAlive: false, timeoutMs: 1000 });
  for (let i = 0; i < 200; i++) {
    try {
      await client.request('eth_chainId');
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  client.close();
  return { pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      workload: { type: 'string', default: 'erc20' },
      n: { type: 'string', default: '500' },
      rounds: { type: 'string', default: '5' },
      port: { type: 'string', default: '18600' },
    },
  });
  const workload = WORKLOADS.find((w) => w.name === values.workload);
  if (!workload) throw new Error(`--workload: unknown ${values.workload}`);
  const n = Number(values.n);
  const accounts = deriveAccounts(MNEMONIC, ACCOUNT_COUNT);
  const signer = new TxSigner(CHAIN_ID);
  const servers = [];
  for (const [i, bin] of positionals.entries()) {
    const port = Number(values.port) + i;
    const server = await startCli(bin, port);
    const session = new Session(httpClient(`http://127.0.0.1:${port}`), accounts, signer, loadTokenArtifact);
    if (workload.usesToken) await session.token();
    await session.isolated(() => workload.run(session, Math.min(n, 200))); // warm-up
    servers.push({ bin, server, session, cpu: [] as number[], rate: [] as number[] });
  }
  for (let round = 0; round < Number(values.rounds); round++) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const s of order) {
      const before = cpuMs(s.server.pid);
      const m = await s.session.isolated(() => workload.run(s.session, n));
      const cpu = (cpuMs(s.server.pid) - before) / m.ops;
      s.cpu.push(cpu);
      s.rate.push(m.ops / (m.ms / 1000));
      console.log(`round ${round} ${s.bin}: ${(cpu * 1000).toFixed(0)} µs CPU/op, ${(m.ops / (m.ms / 1000)).toFixed(0)} ops/s`);
    }
  }
  for (const s of servers) {
    console.log(
      `${s.bin}: median ${(median(s.cpu) * 1000).toFixed(0)} µs CPU/op [${s.cpu.map((c) => (c * 1000).toFixed(0)).join(' ')}], median ${median(s.rate).toFixed(0)} ops/s [${s.rate.map((r) => r.toFixed(0)).join(' ')}], RSS ${rssMb(s.server.pid).toFixed(1)} MiB`,
    );
    s.session.client.close();
    s.server.stop();
  }
}

await main();
