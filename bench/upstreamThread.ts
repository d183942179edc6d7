// The hostile-upstream rows' upstream (test/helpers/faultyUpstream.ts), served from a worker
// thread. In the probe's own thread, streaming the 400 MB answer (1 MiB writes, each refilled on
// 'drain') stopped the probe's event loop between its timers: the probe timed the bench's upstream
// beside the node. Here the probe's thread only sends the fault's settings and reads the counts.
// With CHAIN_SIM_BENCH_UPSTREAM=process it is served from a child process at nice 10 instead:
// a real hostile upstream is on another machine, while a thread of the bench's own process
// writing 400 MB takes one of the two cores from the node and the probe as a peer. Niced, it
// writes with the cores the node and the probe leave (a weight of 110 against their 1024).
import { type ChildProcess, fork } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
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

/** Where the upstream runs: a worker thread of the bench (the default), or a child process at nice 10. */
export type UpstreamHost = 'thread' | 'process';

export function upstreamHost(): UpstreamHost {
  const host = process.env.CHAIN_SIM_BENCH_UPSTREAM ?? 'thread';
  if (host !== 'thread' && host !== 'process') throw new Error(`CHAIN_SIM_BENCH_UPSTREAM: expected thread or process, got ${host}`);
  return host;
}

/** The two ends a message goes through: a worker thread's, or a child process's IPC channel. */
interface Channel {
  send(message: unknown): void;
  onMessage(listener: (reply: Reply) => void): void;
  close(): Promise<void>;
}

/** The upstream in a worker thread or a child process: what the rows change and read of it, each a message. */
export class ThreadedUpstream {
  private nextId = 1;
  private readonly waiting = new Map<number, (reply: Reply) => void>();

  private constructor(
    private readonly channel: Channel,
    readonly url: string,
    readonly host: UpstreamHost,
  ) {
    channel.onMessage((reply: Reply) => {
      this.waiting.get(reply.id)?.(reply);
      this.waiting.delete(reply.id);
    });
  }

  /** Starts the upstream, faulty on the reads of accounts starting with `badAddress`. */
  static async start(badAddress: string, host: UpstreamHost = upstreamHost()): Promise<ThreadedUpstream> {
    const channel = host === 'thread' ? threadChannel(badAddress) : processChannel(badAddress);
    const url = await new Promise<string>((resolve, reject) => {
      channel.onMessage((reply: Reply) => {
        if (reply.url !== undefined) resolve(reply.url);
      });
      channel.onError(reject);
    });
    return new ThreadedUpstream(channel, url, host);
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
    await this.channel.close();
  }

  private send(command: Command): Promise<Reply> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.channel.send({ id, ...command });
    });
  }
}

function threadChannel(badAddress: string): Channel & { onError(listener: (error: Error) => void): void } {
  const worker = new Worker(new URL(import.meta.url), { workerData: { badAddress } });
  return {
    send: (message) => worker.postMessage(message),
    onMessage: (listener) => worker.on('message', listener),
    onError: (listener) => worker.once('error', listener),
    close: async () => void (await worker.terminate()),
  };
}

const CHILD_FLAG = '--faulty-upstream-child';

function processChannel(badAddress: string): Channel & { onError(listener: (error: Error) => void): void } {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [CHILD_FLAG, badAddress], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  if (child.pid !== undefined) setPriority(child.pid, 10);
  return {
    send: (message) => child.send(message as object),
    onMessage: (listener) => child.on('message', (message) => listener(message as Reply)),
    onError: (listener) => {
      child.once('error', listener);
      child.once('exit', (code) => listener(new Error(`the upstream process exited (code ${code})`)));
    },
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
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

type CommandMessage = Command & { readonly id: number };

/** Serves the upstream, taking commands through `port` (a worker's parent port, or a child process's IPC channel). */
async function serve(
  badAddress: string,
  port: { onCommand(listener: (message: CommandMessage) => void): void; postMessage(reply: Reply): void },
): Promise<void> {
  const upstream = await startFaultyUpstream({ badAddress, answer: emptyChainAnswer });
  port.onCommand((message) => {
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

if (!isMainThread && parentPort) {
  const thread = parentPort;
  await serve((workerData as { badAddress: string }).badAddress, {
    onCommand: (listener) => thread.on('message', listener),
    postMessage: (reply) => thread.postMessage(reply),
  });
} else if (process.argv[2] === CHILD_FLAG && process.send) {
  // A child process: it ends with its parent's channel.
  process.on('disconnect', () => process.exit(0));
  await serve(process.argv[3]!, {
    onCommand: (listener) => process.on('message', (message) => listener(message as CommandMessage)),
    postMessage: (reply) => process.send!(reply),
  });
}
