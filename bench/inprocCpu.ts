// CPU time per operation of the in-process providers: chain-sim's createProvider (from any
// build's dist/src/index.js, so two builds can be alternated in one session) and Hardhat 2's
// in-process network. Wall-clock rates on a shared machine move with the other jobs' load;
// the process's CPU time (all threads: Hardhat's engine runs on native ones) moves much less.
//
//   node dist/bench/inprocCpu.js --target chain-sim|hardhat [--entry DIST_INDEX_JS]
//                                [--workloads transfers,erc20,...] [--n 1000] [--repeat 3]
//
// Each workload runs once unmeasured (it signs its transactions then, and warms the code), then
// `repeat` measured times, each inside a snapshot that is reverted (the same nonces recur, so
// the signatures are reused). Printed: per run, µs of CPU per operation and operations/s.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { deriveAccounts, TxSigner } from './accounts.js';
import { providerClient, type Eip1193Provider } from './rpc.js';
import { newHardhatNetwork } from './hardhatInproc.js';
import { CHAIN_ID, hardhatProject, MNEMONIC } from './targets.js';
import { loadTokenArtifact } from './token.js';
import { ACCOUNT_COUNT, Session, WORKLOADS, warmUp } from './workloads.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

async function chainSimProvider(entry: string): Promise<Eip1193Provider> {
  const module = (await import(new URL(`file://${path.resolve(entry)}`).href)) as { createProvider: () => Eip1193Provider };
  return module.createProvider();
}

async function hardhatProvider(): Promise<Eip1193Provider> {
  return newHardhatNetwork(hardhatProject(mkdtempSync(path.join(os.tmpdir(), 'chain-sim-inproc-hardhat-'))));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      target: { type: 'string', default: 'chain-sim' },
      entry: { type: 'string', default: path.join(ROOT, 'dist', 'src', 'index.js') },
      workloads: { type: 'string', default: 'transfers,transfers8,erc20,call,snapshot' },
      n: { type: 'string', default: '1000' },
      repeat: { type: 'string', default: '3' },
    },
  });
  const n = Number(values.n);
  const provider = values.target === 'hardhat' ? await hardhatProvider() : await chainSimProvider(values.entry);
  const session = new Session(providerClient(provider), deriveAccounts(MNEMONIC, ACCOUNT_COUNT), new TxSigner(CHAIN_ID), loadTokenArtifact);
  await session.checkFunded();
  await warmUp(session, 200);
  const names = values.workloads.split(',');
  if (names.some((name) => WORKLOADS.find((w) => w.name === name)?.usesToken)) await session.token();
  for (const name of names) {
    const workload = WORKLOADS.find((w) => w.name === name);
    if (!workload) throw new Error(`--workloads: unknown workload ${name}`);
    await session.isolated(() => workload.run(session, n));
    const runs: string[] = [];
    for (let i = 0; i < Number(values.repeat); i++) {
      const cpu = process.cpuUsage();
      const m = await session.isolated(() => workload.run(session, n));
      const used = process.cpuUsage(cpu);
      runs.push(`${(((used.user + used.system) / m.ops) | 0).toString().padStart(5)} µs/op ${(m.ops / (m.ms / 1000)).toFixed(0).padStart(6)}/s`);
    }
    console.log(`${values.target.padEnd(10)} ${name.padEnd(11)} ${runs.join(' | ')}`);
  }
  process.exit(0);
}

await main();
