/**
 * The fork upstream's HTTP requests, made from a worker thread (postWorker.ts). A hostile or
 * careless upstream can send an answer of hundreds of megabytes: read on the node's thread, up
 * to --fork-max-response-bytes, it took that thread 170-200 ms of CPU per 64 MiB in 'data'
 * callbacks, and every other client's request waited behind them (issue 35). Read there, the
 * node's thread is idle meanwhile and answers the others at once; it only receives the answer's
 * bytes (transferred, not copied) or the failure's kind when the read is over.
 *
 * One thread for the process, shared by every forked node in it: started by the first request,
 * which, like any request made before the thread says it is ready, is made on the calling
 * thread (a fork's start-up does not wait the thread's 20-50 ms start); holding the process
 * open only while requests are in flight on it (an idle thread is unref'd); ended after IDLE_MS
 * without requests and when a node closes (closeWhenIdle). If the thread cannot start (its file
 * missing from a broken install), a process warning says so and every request is made on the
 * calling thread, as before it.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Worker } from 'node:worker_threads';
import { agentsByOrigin, decodeBody, type PostAnswer, PostFailure, type PostLimits, postCapped } from './httpPost.js';

/** What the node's thread asks: one POST. */
export interface PostRequest {
  readonly id: number;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly limits: PostLimits;
}

/** What the reading thread answers: the answer, or the failure as PostFailure's kind and message. */
export type PostReply =
  | { readonly id: number; readonly ok: true; readonly status: number; readonly headers: IncomingHttpHeaders; readonly bytes: Uint8Array }
  | { readonly id: number; readonly ok: false; readonly kind: PostFailure['kind']; readonly message: string };

/** The reading thread's first message: it has loaded and takes requests. */
export interface ThreadReady {
  readonly ready: true;
}

/** A thread idle this long is ended (a later request starts another). */
const IDLE_MS = 10_000;

interface Pending {
  resolve(answer: PostAnswer): void;
  reject(failure: PostFailure): void;
}

export class PostThread {
  /** Requests made, by where they were read: the tests assert on them. */
  readonly counts = { onThread: 0, inThread: 0 };
  private worker: Worker | undefined;
  /** The running thread said it is ready: requests go to it. */
  private ready = false;
  private readyWaiters: Array<() => void> = [];
  /** The thread could not start: every request is made on the calling thread. */
  private inThread = false;
  private closing = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private idleTimer: NodeJS.Timeout | undefined;
  /** Keep-alive connections of the requests made on the calling thread, by origin. */
  private readonly agentFor = agentsByOrigin();

  constructor(private readonly workerUrl: URL = new URL('./postWorker.js', import.meta.url)) {}

  /** 'thread' while the reading thread can be used, 'inThread' once it failed to start. */
  get mode(): 'thread' | 'inThread' {
    return this.inThread ? 'inThread' : 'thread';
  }

  /** Whether a reading thread is running now (ready or starting). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** Starts the thread if it is not running; resolves once it takes requests, or it failed to start. */
  whenReady(): Promise<void> {
    if (this.inThread || this.ready) return Promise.resolve();
    if (this.worker === undefined) this.start();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** POST `body` to `url`; resolves with the answer, rejects with a PostFailure. */
  post(url: URL, headers: Readonly<Record<string, string>>, body: string, limits: PostLimits): Promise<PostAnswer> {
    if (!this.inThread) {
      this.closing = false;
      clearTimeout(this.idleTimer);
      if (this.worker === undefined) this.start();
    }
    const worker = this.worker;
    if (worker === undefined || !this.ready) {
      this.counts.inThread++;
      return postCapped(url, this.agentFor(url), headers, body, limits);
    }
    this.counts.onThread++;
    const request: PostRequest = { id: this.nextId++, url: url.toString(), headers, body, limits };
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) worker.ref();
      this.pending.set(request.id, { resolve, reject });
      worker.postMessage(request);
    });
  }

  /** Ends the thread now if it has nothing in flight, else once it has (a later request starts another). */
  closeWhenIdle(): void {
    this.closing = true;
    if (this.pending.size === 0) this.stop();
  }

  private start(): void {
    let worker: Worker;
    try {
      worker = new Worker(this.workerUrl);
    } catch (error) {
      this.fallBack(error instanceof Error ? error.message : String(error));
      return;
    }
    worker.unref();
    worker.on('message', (message: PostReply | ThreadReady) => {
      if (this.worker !== worker) return; // a thread stopped meanwhile (its requests were settled first)
      if ('ready' in message) {
        this.ready = true;
        this.wakeReadyWaiters();
        // Nothing asked meanwhile: idle from now.
        if (this.pending.size === 0) this.idle();
      } else this.settle(message);
    });
    const died = (reason: string) => {
      if (this.worker !== worker) return; // stopped on purpose, or already seen
      const wasReady = this.ready;
      this.worker = undefined;
      this.ready = false;
      clearTimeout(this.idleTimer);
      if (!wasReady) this.fallBack(reason); // it never ran: requests stay on the calling thread
      this.wakeReadyWaiters();
      const pending = [...this.pending.values()];
      this.pending.clear();
      for (const { reject } of pending) reject(new PostFailure('unreachable', `unreachable (the upstream reading thread stopped: ${reason})`));
    };
    worker.on('error', (error) => died(error.message));
    worker.on('exit', (code) => died(`exit code ${code}`));
    this.worker = worker;
  }

  private settle(reply: PostReply): void {
    const pending = this.pending.get(reply.id);
    if (pending === undefined) return;
    this.pending.delete(reply.id);
    if (reply.ok) pending.resolve({ status: reply.status, headers: reply.headers, text: decodeBody(reply.bytes) });
    else pending.reject(new PostFailure(reply.kind, reply.message));
    if (this.pending.size > 0) return;
    if (this.closing) this.stop();
    else this.idle();
  }

  /** Nothing in flight: the thread no longer holds the process, and ends if nothing comes for IDLE_MS. */
  private idle(): void {
    this.worker?.unref();
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.stop(), IDLE_MS).unref();
  }

  private stop(): void {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    this.ready = false;
    this.closing = false;
    this.wakeReadyWaiters();
    if (worker) void worker.terminate();
  }

  /** The thread cannot start: requests are read on the calling thread from now on, said once on stderr (a broken install, not a failed fork). */
  private fallBack(reason: string): void {
    this.inThread = true;
    this.wakeReadyWaiters();
    process.emitWarning(`the fork upstream's reading thread could not start (${reason}); answers are read on the main thread`, {
      code: 'CHAIN_SIM_UPSTREAM_THREAD',
    });
  }

  private wakeReadyWaiters(): void {
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const wake of waiters) wake();
  }
}

/** The process's reading thread, shared by every upstream. */
export const upstreamReader = new PostThread();
