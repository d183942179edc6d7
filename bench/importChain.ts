// Import speed (chain-sim only: Ganache, Hardhat and Anvil cannot start from a `geth export`
// file of RLP blocks): a 1,000-block chain with ETH transfers, ERC-20 deployment and transfers,
// built with chain-sim itself (untimed), exported with chain_exportChain, then imported by
// createProvider({ import }) in process and by `chain-sim --import` over the CLI. Every block is
// executed and validated; each run checks that the imported head hash equals the source's.
// Run by `npm run bench` after the main table (chain-sim among the targets), or alone:
// `node dist/bench/importChain.js`.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Interface } from 'ethers';
import { createProvider } from '../src/index.js';
import { freePort } from './targets.js';
import { httpClient } from './rpc.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BLOCKS = 1000;
const RUNS = 3;
const RECIPIENT = '0x000000000000000000000000000000000000bEEF';

interface Built {
  readonly file: string;
  readonly fixture: string;
  readonly headHash: string;
  readonly transactions: number;
}

/** The source chain: block 1 deploys the token, then each block holds an ETH transfer and a token transfer. */
async function buildChain(dir: string): Promise<Built> {
  const fixture = path.join(dir, 'genesis.json');
  // A fixed genesis timestamp: the importing instances must build the same genesis block.
  writeFileSync(fixture, JSON.stringify({ timestamp: '0x6b49d200', alloc: {} }));
  const provider = createProvider({ quiet: true, fixtures: [fixture] });
  const rpc = (method: string, params: unknown[] = []) => provider.request({ method, params });
  const [from] = (await rpc('eth_accounts')) as string[];
  const token = JSON.parse(readFileSync(path.join(ROOT, 'fixtures', 'artifacts', 'Token.json'), 'utf8')) as { abi: never; bytecode: string };
  const erc20 = new Interface(token.abi);
  const deployHash = await rpc('eth_sendTransaction', [
    { from, data: token.bytecode + erc20.encodeDeploy(['Bench', 'B', 10n ** 24n]).slice(2), gas: '0x2dc6c0' },
  ]);
  const tokenAddress = ((await rpc('eth_getTransactionReceipt', [deployHash])) as { contractAddress: string }).contractAddress;
  await rpc('chain_setAutomine', [false]);
  const transfer = erc20.encodeFunctionData('transfer', [RECIPIENT, 1n]);
  for (let n = 2; n <= BLOCKS; n++) {
    await rpc('eth_sendTransaction', [{ from, to: RECIPIENT, value: '0x1', gas: '0x5208' }]);
    await rpc('eth_sendTransaction', [{ from, to: tokenAddress, data: transfer, gas: '0x186a0' }]);
    await rpc('chain_mine');
  }
  const file = path.join(dir, 'chain.rlp');
  writeFileSync(file, Buffer.from(((await rpc('chain_exportChain')) as string).slice(2), 'hex'));
  const head = (await rpc('eth_getBlockByNumber', ['latest', false])) as { hash: string; number: string };
  if (Number(head.number) !== BLOCKS) throw new Error(`built ${Number(head.number)} blocks, wanted ${BLOCKS}`);
  await provider.disconnect();
  return { file, fixture, headHash: head.hash, transactions: 1 + 2 * (BLOCKS - 1) };
}

/** ms from createProvider to the first answer, with or without the import; checks the head. */
async function inProcess(built: Built, withImport: boolean): Promise<number> {
  const started = performance.now();
  const provider = createProvider({ quiet: true, fixtures: [built.fixture], import: withImport ? built.file : undefined });
  const head = (await provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { hash: string };
  const ms = performance.now() - started;
  if (withImport && head.hash !== built.headHash) throw new Error(`imported head ${head.hash} differs from the source's ${built.headHash}`);
  await provider.disconnect();
  return ms;
}

/** ms from spawning the CLI to its first answer, with or without --import; checks the head. */
async function cli(built: Built, withImport: boolean): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const args = [path.join(ROOT, 'bin', 'chain-sim.js'), '--port', String(port), '--quiet', '--fixture', built.fixture];
  const child = spawn(process.execPath, withImport ? [...args, '--import', built.file] : args, { stdio: 'ignore' });
  try {
    const client = httpClient(`http://127.0.0.1:${port}`);
    for (;;) {
      if (performance.now() - started > 120_000) throw new Error('no answer within 120 s');
      try {
        const head = (await client.request('eth_getBlockByNumber', ['latest', false])) as { hash: string };
        if (withImport && head.hash !== built.headHash) throw new Error(`imported head ${head.hash} differs from the source's ${built.headHash}`);
        return performance.now() - started;
      } catch (error) {
        if (error instanceof Error && /differs/.test(error.message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
  } finally {
    child.kill('SIGKILL');
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function importMain(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'chain-sim-bench-import-'));
  try {
    const built = await buildChain(dir);
    const size = readFileSync(built.file).length;
    const rows: Array<[string, number, number]> = [];
    for (const [label, start] of [
      ['createProvider({ import }), in process', inProcess],
      ['chain-sim --import FILE, CLI to first answer', cli],
    ] as const) {
      const base: number[] = [];
      const full: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        base.push(await start(built, false));
        full.push(await start(built, true));
      }
      rows.push([label, median(full), median(full) - median(base)]);
    }
    console.log(
      `\n| import of a ${BLOCKS.toLocaleString('en')}-block chain, ${built.transactions.toLocaleString('en')} transactions, ${(size / 1024).toFixed(0)} KiB (chain-sim only: peers cannot import geth export files), median of ${RUNS} | start to first answer (ms) | import alone (ms) | blocks/s | tx/s |`,
    );
    console.log('| --- | ---: | ---: | ---: | ---: |');
    for (const [label, total, alone] of rows) {
      console.log(
        `| ${label} | ${total.toFixed(0)} | ${alone.toFixed(0)} | ${(BLOCKS / (alone / 1000)).toFixed(0)} | ${(built.transactions / (alone / 1000)).toFixed(0)} |`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await importMain();
  process.exit(0);
}
