// The hostile-upstream rows' upstream (test/helpers/faultyUpstream.ts), served from a worker
// thread. In the probe's own thread, streaming the 400 MB answer (1 MiB writes, each refilled on
// 'drain') stopped the probe's event loop between its timers: the probe timed the bench's upstream
// beside the node. Here the probe's thread only sends the fault's settings and reads the counts.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { fakeUpstreamBlock } from '../test/helpers/fakeUpstreamBlock.js';
import { type FaultMode, type JsonRpcCall, startFaultyUpstream } from '../test/helpers/faultyUpstream.js';
import { CHAIN_ID } from './targets.js';

/** The fault to commit on the bad account's reads, and its parameters (faultyUpstream.ts's fields). */
export interface UpstreamSettings {
  readonly mode: FaultMode;
  readonly hugeBytes?: number;
  readonly refusals?: number;
  readonly retryAfter?: string;
}

type Command = { readonly op: 'set'; readonly settings: UpstreamSettings } | { readonly op: 'release' } | { readonly op: 'counts' };
interface Reply {
  readonly id: number;
  readonly url?: string;
  readonly faults?: number;
}

/** The upstream in a worker thread: what the rows change and read of it, each a message. */
export class ThreadedUpstream {
  private nextId = 1;
  private readonly waiting = new Map<number, (reply: Reply) => void>();

  private constructor(
    private readonly worker: Worker,
    readonly url: string,
  ) {
    worker.on('message', (reply: Reply) => {
      this.waiting.get(reply.id)?.(reply);
      this.waiting.delete(reply.id);
    });
  }

  /** Starts the upstream, faulty on the reads of accounts starting with `badAddress`. */
  static async start(badAddress: string): Promise<ThreadedUpstream> {
    const worker = new Worker(new URL(import.meta.url), { workerData: { badAddress } });
    const url = await new Promise<string>((resolve, reject) => {
      worker.once('message', (reply: Reply) => resolve(reply.url!));
      worker.once('error', reject);
    });
    return new ThreadedUpstream(worker, url);
  }

  set(settings: UpstreamSettings): Promise<void> {
    return this.send({ op: 'set', settings }).then(() => undefined);
  }

  /** Answer the requests a 'timeout' kept unanswered. */
  release(): Promise<void> {
    return this.send({ op: 'release' }).then(() => undefined);
  }

  /** Requests that got a fault instead of an answer so far. */
  async faults(): Promise<number> {
    return (await this.send({ op: 'counts' })).faults!;
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }

  private send(command: Command): Promise<Reply> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ id, ...command });
    });
  }
}

/** What an empty chain at block 0x64 answers: everything the forked nodes ask but the bad account's reads. */
export function emptyChainAnswer(call: JsonRpcCall): unknown {
  const zero32 = `0x${'00'.repeat(32)}`;
  // Anvil also wants what go-ethereum answers beside the header (totalDifficulty, size, uncles).
  const block = fakeUpstreamBlock({
    timestamp: `0x${Math.floor(Date.now() / 1000 - 60).toString(16)}`,
    totalDifficulty: '0x0',
    withdrawals: [],
    size: '0x200',
    uncles: [],
  });
  const results: Record<string, unknown> = {
    eth_chainId: `0x${CHAIN_ID.toString(16)}`,
    net_version: String(CHAIN_ID),
    eth_blockNumber: '0x64',
    eth_getBlockByNumber: block,
    eth_getBlockByHash: block,
    eth_getBalance: '0x0',
    eth_getTransactionCount: '0x0',
    eth_getCode: '0x',
    eth_getStorageAt: zero32,
    eth_gasPrice: '0x3b9aca00',
  };
  // Anvil asks the upstream for what it does not know (a receipt not mined yet): nothing.
  for (const method of ['eth_getTransactionReceipt', 'eth_getTransactionByHash']) results[method] = null;
  return call.method in results
    ? { jsonrpc: '2.0', id: call.id, result: results[call.method] }
    : { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: `the method ${call.method} does not exist/is not available` } };
}

async function serveInWorker(): Promise<void> {
  const upstream = await startFaultyUpstream({ badAddress: (workerData as { badAddress: string }).badAddress, answer: emptyChainAnswer });
  const port = parentPort!;
  port.on('message', (message: Command & { readonly id: number }) => {
    if (message.op === 'set') {
      const { mode, hugeBytes, refusals, retryAfter } = message.settings;
      upstream.mode = mode;
      if (hugeBytes !== undefined) upstream.hugeBytes = hugeBytes;
      if (refusals !== undefined) upstream.refusals = refusals;
      if (retryAfter !== undefined) upstream.retryAfter = retryAfter;
    } else if (message.op === 'release') {
      upstream.release();
    }
    port.postMessage({ id: message.id, faults: upstream.faults } satisfies Reply);
  });
  port.postMessage({ id: 0, url: upstream.url } satisfies Reply);
}

if (!isMainThread && parentPort) await serveInWorker();
