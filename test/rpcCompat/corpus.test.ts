/**
 * The execution-apis corpus as a regression suite: the recorded chain is loaded
 * (--genesis genesis.json --import chain.rlp), every case's requests are posted over HTTP in
 * hive's order, and each answer is judged as hive's rpc-compat simulator judges it
 * (compare.ts). Cases listed in known-failures.txt must still fail; every other case must
 * pass, so the list can only shrink honestly. See docs/rpc-compat.md.
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { expect } from 'chai';
import { type ChainSimServer, createServer } from '../../src/server/index.js';
import { judge } from './compare.js';
import { type CorpusCase, loadCorpus, locateCorpus, readKnownFailures } from './corpus.js';

/** The recorded chain's head time: a later wall clock would only move pending blocks. */
const WALL_CLOCK_MS = 1_800_000_000_000;

/** Run one case; the differences of its first failing answer (empty: it passes). */
export async function runCase(url: string, test: CorpusCase): Promise<string[]> {
  let answer: string | undefined;
  for (const message of test.messages) {
    if (message.send) {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: message.text });
      answer = (await response.text()).trim();
      continue;
    }
    if (answer === undefined) return ['invalid case: an answer before any request'];
    const differences = test.specOnly ? judgeSpecOnly(answer, message.text) : judge(answer, message.text);
    if (differences.length > 0) return differences;
    answer = undefined;
  }
  return answer === undefined ? [] : ['invalid case: a request without a recorded answer'];
}

/**
 * speconly: the recording is one valid example (client- or configuration-specific). Hive checks
 * the result against the OpenRPC schema; we check it is a result, not an error, of the same
 * JSON kind, with every top-level field the example has (docs/rpc-compat.md).
 */
function judgeSpecOnly(answerText: string, recordedText: string): string[] {
  const answer = JSON.parse(answerText) as { result?: unknown; error?: unknown };
  const recorded = JSON.parse(recordedText) as { result?: unknown; error?: unknown };
  if (recorded.error !== undefined || answer.error !== undefined) return judge(answerText, recordedText);
  const kind = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
  if (kind(answer.result) !== kind(recorded.result)) return [`$.result: -- ${kind(answer.result)} ++ ${kind(recorded.result)} (speconly)`];
  if (kind(recorded.result) !== 'object') return [];
  const missing = Object.keys(recorded.result as object).filter((key) => !(key in (answer.result as object)));
  return missing.map((key) => `$.result.${key}: missing (speconly)`);
}

const location = locateCorpus();

describe('execution-apis rpc-compat corpus (recorded go-ethereum answers)', function () {
  if (!location.dir) {
    // Pending, never a silent pass: say where it looked.
    it(`corpus not found: set CHAIN_SIM_RPC_COMPAT_DIR to execution-apis/tests (looked in: ${location.looked.join('; ')})`);
    return;
  }
  const dir = location.dir;
  const cases = loadCorpus(dir);
  const known = readKnownFailures();
  const outcomes = new Map<string, boolean>();
  const details = new Map<string, string[]>();
  let server: ChainSimServer;
  let url: string;
  this.timeout(60_000);

  before(async function () {
    this.timeout(300_000);
    server = await createServer({
      quiet: true,
      genesis: join(dir, 'genesis.json'),
      import: join(dir, 'chain.rlp'),
      wallClock: () => WALL_CLOCK_MS,
      port: 0,
      host: '127.0.0.1',
    });
    url = (await server.listen(0, '127.0.0.1')).url;
    // As hive runs go-ethereum: no consensus client, so sent transactions wait in the pool.
    const answer = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"evm_setAutomine","params":[false]}',
    });
    expect(await answer.json()).to.deep.equal({ jsonrpc: '2.0', id: 1, result: true });
  });

  after(async () => {
    await server?.close();
    if (process.env.CHAIN_SIM_RPC_COMPAT_REPORT) writeFileSync(process.env.CHAIN_SIM_RPC_COMPAT_REPORT, report(cases, outcomes, details));
  });

  for (const test of cases) {
    const listed = known.has(test.path);
    it(`${test.path}${listed ? ' (known failure)' : ''}`, async () => {
      const differences = await runCase(url, test);
      outcomes.set(test.path, differences.length === 0);
      details.set(test.path, differences);
      if (listed && differences.length === 0) expect.fail(`${test.path} passes now: remove it from test/rpcCompat/known-failures.txt`);
      if (!listed && differences.length > 0) {
        expect.fail(`${test.path} (${test.comment.trim()}) differs from the recording (-- chain-sim ++ go-ethereum):\n${differences.join('\n')}`);
      }
    });
  }
});

/** Per-method pass counts and the first differences of each failing case (written when CHAIN_SIM_RPC_COMPAT_REPORT names a file). */
function report(cases: readonly CorpusCase[], outcomes: ReadonlyMap<string, boolean>, details: ReadonlyMap<string, string[]>): string {
  const rows = new Map<string, { pass: number; total: number; failing: string[] }>();
  for (const test of cases) {
    const row = rows.get(test.method) ?? { pass: 0, total: 0, failing: [] };
    row.total++;
    if (outcomes.get(test.path)) row.pass++;
    else row.failing.push(test.path);
    rows.set(test.method, row);
  }
  const lines = [...rows].map(([method, row]) => `${method} ${row.pass}/${row.total}`);
  const total = [...rows.values()].reduce((sum, row) => ({ pass: sum.pass + row.pass, total: sum.total + row.total }), { pass: 0, total: 0 });
  const failing = [...rows.values()]
    .flatMap((row) => row.failing)
    .map((path) => [path, ...(details.get(path) ?? ['(not run)']).slice(0, 4).map((line) => `    ${line}`)].join('\n'));
  return `${lines.join('\n')}\nTOTAL ${total.pass}/${total.total}\n\nFAILING\n${failing.join('\n')}\n`;
}
