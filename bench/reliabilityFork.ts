// Reliability, the hostile-upstream rows (issue 35): a node forking an upstream that misbehaves
// on the reads of one account (test/helpers/faultyUpstream.ts, the fork fault tests' upstream,
// served from a worker thread: upstreamThread.ts). It answers everything else at once, as an empty chain at block 0x64 would. Each row asks
// eth_getBalance of that account while the upstream commits one fault (it never answers,
// answers garbage, another id, 400 MB, a trickle, drops the connection mid-body, or refuses
// with 429s); the row gives the time to the node's answer or error, and meanwhile the probe
// (reliability.ts) reads eth_blockNumber and sends transfers between prefunded accounts, which
// need nothing from the upstream but what it answers at once. chain-sim and Anvil, each a CLI
// child process with a 5 s fork timeout and 2 retries.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { anvilBinary } from './anvil.js';
import { OffThreadRequests } from './offThread.js';
import { counted, countRequest, peakWhile, probeWhile, RECIPIENT, type RowResult, rowSelected, Sender } from './reliability.js';
import { httpClient, type RpcClient } from './rpc.js';
import { freePort, readRssMb, type TargetName } from './targets.js';
import { ThreadedUpstream, type UpstreamSettings } from './upstreamThread.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The accounts whose upstream reads misbehave: this prefix and one hex digit, a fresh one per row (a node keeps what it read). */
const BAD_PREFIX = `0x${'0'.repeat(38)}b`;
const FORK_TIMEOUT_MS = 5_000;
const FORK_RETRIES = 2;

interface Fault {
  readonly label: string;
  /** The fault and its parameters, set on the upstream for the row. */
  readonly settings: UpstreamSettings;
}

export const FAULTS: readonly Fault[] = [
  { label: 'fork upstream never answers', settings: { mode: 'timeout' } },
  { label: 'fork upstream answers garbage (a cut JSON body)', settings: { mode: 'malformed' } },
  { label: 'fork upstream answers with another id', settings: { mode: 'wrongId' } },
  { label: 'fork upstream drops the connection mid-body', settings: { mode: 'dropMidBody' } },
  { label: 'fork upstream trickles a space every 50 ms', settings: { mode: 'trickle' } },
  { label: 'fork upstream answers 400 MB', settings: { mode: 'huge', hugeBytes: 400 * 1024 * 1024 } },
  { label: 'fork upstream refuses with 429, Retry-After 1', settings: { mode: '429', refusals: Number.MAX_SAFE_INTEGER, retryAfter: '1' } },
];

/** What a target's hostile-upstream rows sent and lost (reliability.ts's summary adds it in). */
export interface ForkSummary {
  readonly target: TargetName;
  readonly faults: number;
  readonly sends: number;
  readonly lost: number;
  readonly note: string;
}

/** The tool as a CLI child process forking `upstream`; resolves once it answers eth_chainId. */
async function startForked(
  name: TargetName,
  upstream: string,
): Promise<{ client: RpcClient; url: string; rssMb: () => number | undefined; stop: () => Promise<void> }> {
  const port = await freePort();
  const [command, args] =
    name === 'anvil'
      ? [
          anvilBinary(ROOT),
          ['--port', String(port), '--fork-url', upstream, '--timeout', String(FORK_TIMEOUT_MS), '--retries', String(FORK_RETRIES), '--no-storage-caching'],
        ]
      : [process.execPath, [path.join(ROOT, 'bin', 'chain-sim.js'), '--host', '127.0.0.1', '--port', String(port), '--quiet', '--fork', upstream]];
  if (name !== 'anvil') args.push('--fork-timeout', String(FORK_TIMEOUT_MS), '--fork-retries', String(FORK_RETRIES), '--no-fork-cache');
  const child: ChildProcess = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-1000)));
  const url = `http://127.0.0.1:${port}/`;
  const client = counted(httpClient(url));
  const rssMb = () => (child.pid === undefined ? undefined : readRssMb(child.pid));
  const stop = async () => {
    client.close();
    if (child.exitCode === null) {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  };
  const started = Date.now();
  for (;;) {
    try {
      await client.request('eth_chainId');
      return { client, url, rssMb, stop };
    } catch (error) {
      if (child.exitCode !== null || Date.now() - started > 60_000) {
        await stop();
        throw new Error(`${name} did not start: ${stderr.trim().split('\n').slice(-2).join(' | ') || String(error)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** The reason of an error, without what every row's error repeats (chain-sim's `fork upstream URL: METHOD for KEY failed:`). */
const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error)).replace(/^.*? failed: /, '').slice(0, 90);

/** The hostile-upstream rows for each target (those --rows selects), one forked node per target, and what each sent and lost. */
export async function hostileUpstreamRows(
  targets: readonly TargetName[],
  selected?: readonly string[],
): Promise<{ rows: RowResult[]; summaries: ForkSummary[] }> {
  const rows: RowResult[] = [];
  const summaries: ForkSummary[] = [];
  if (!FAULTS.some((fault) => rowSelected(fault.label, selected))) return { rows, summaries };
  const upstream = await ThreadedUpstream.start(BAD_PREFIX);
  try {
    for (const name of targets.filter((target) => target === 'chain-sim' || target === 'anvil')) {
      let node: Awaited<ReturnType<typeof startForked>>;
      try {
        node = await startForked(name, upstream.url);
      } catch (error) {
        for (const fault of FAULTS) rows.push({ label: fault.label, target: name, outcome: `not run: ${errorText(error)}` });
        continue;
      }
      // From a thread of its own, as reliability.ts sends its slow requests.
      const slowRequests = new OffThreadRequests();
      const faultsBefore = await upstream.faults();
      try {
        const sender = new Sender();
        await sender.start(node.client);
        // One transfer first: what a transfer reads of the upstream (the coinbase, system contracts) is fetched before the rows.
        await sender.send(node.client);
        const balanceBefore = BigInt(String(await node.client.request('eth_getBalance', [RECIPIENT, 'latest'])));
        const minedBefore = sender.mined;
        for (const [i, fault] of FAULTS.entries()) {
          if (!rowSelected(fault.label, selected)) continue;
          process.stderr.write(`reliability: ${name}: ${fault.label}\n`);
          await upstream.set(fault.settings);
          const rowFaults = await upstream.faults();
          const started = performance.now();
          countRequest();
          const request = slowRequests.request(node.url, 'eth_getBalance', [`${BAD_PREFIX}${i.toString(16)}`, 'latest'], 120_000);
          const answered = request.then((outcome) => ({
            ms: performance.now() - started,
            outcome: outcome.ok ? 'answered' : `error: ${errorText(outcome.message)}`,
          }));
          const [probe, peakMb] = await Promise.all([probeWhile(node.client, sender, request), peakWhile(node.rssMb, request)]);
          rows.push({ label: fault.label, target: name, ...(await answered), probe, peakMb, faults: (await upstream.faults()) - rowFaults });
          await upstream.set({ mode: 'ok' });
          await upstream.release();
        }
        const balanceAfter = BigInt(String(await node.client.request('eth_getBalance', [RECIPIENT, 'latest'])));
        const sends = sender.mined - minedBefore;
        const inState = Number(balanceAfter - balanceBefore);
        summaries.push({
          target: name,
          faults: (await upstream.faults()) - faultsBefore,
          sends,
          lost: sends - inState,
          note: `${inState} of ${sends} transfers mined during the faults in the balance`,
        });
      } finally {
        await slowRequests.close();
        await node.stop();
      }
    }
  } finally {
    await upstream.close();
  }
  return { rows, summaries };
}
