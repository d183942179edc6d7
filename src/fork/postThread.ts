/**
 * The fork upstream's HTTP requests, made from a worker thread (postWorker.ts). A hostile or
 * careless upstream can send an answer of hundreds of megabytes: read on the node's thread, up
 * to --fork-max-response-bytes, it took that thread 170-200 ms of CPU per 64 MiB in 'data'
 * callbacks, and every other client's request waited behind them (issue 35). Read here, the
 * node's thread is idle meanwhile and answers the others at once; it only receives the answer's
 * text (or the failure's kind) when the read is over.
 *
 * One thread for the process, shared by every forked node in it: started on the first request,
 * holding the process open only while requests are in flight (an idle thread is unref'd),
 * ended after IDLE_MS without requests and when a node closes (closeWhenIdle). If the thread
 * cannot start (its file missing from a broken install), requests are made on this thread as
 * before: slower for the others while a large answer streams, never a failed fork.
 */
import type { Agent, IncomingHttpHeaders } from 'node:http';
import { Worker } from 'node:worker_threads';
import { type PostAnswer, PostFailure, type PostLimits, postCapped, upstreamAgent } from './httpPost.js';

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
  | { readonly id: number; readonly ok: true; readonly status: number; readonly headers: IncomingHttpHeaders; readonly text: string }
  | { readonly id: number; readonly ok: false; readonly kind: PostFailure['kind']; readonly message: string };

/** A thread idle this long is ended (a later request starts another: some 20-40 ms). */
const IDLE_MS = 10_000;

interface Pending {
  readonly request: PostRequest;
  resolve(answer: PostAnswer): void;
  reject(failure: PostFailure): void;
}

export class PostThread {
  private worker: Worker | undefined;
  /** Set once the thread answered a request: a thread that dies before that is taken as unable to start. */
  private started = false;
  /** The thread could not start: requests go on the caller's thread. */
  private inThread = false;
  private closing = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private idleTimer: NodeJS.Timeout | undefined;
  /** Keep-alive connections of the in-thread fallback, by origin. */
  private readonly agents = new Map<string, Agent>();

  constructor(private readonly workerUrl: URL = new URL('./postWorker.js', import.meta.url)) {}

  /** Where requests are read: 'thread' (started or to be), or 'inThread' after the thread failed to start. */
  get mode(): 'thread' | 'inThread' {
    return this.inThread ? 'inThread' : 'thread';
  }

  /** Whether a reading thread is running now. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** POST `body` to `url`; resolves with the answer, rejects with a PostFailure. */
  post(url: URL, headers: Readonly<Record<string, string>>, body: string, limits: PostLimits): Promise<PostAnswer> {
    if (this.inThread) return postCapped(url, this.agentFor(url), headers, body, limits);
    this.closing = false;
    clearTimeout(this.idleTimer);
    const worker = this.worker ?? this.start();
    const request: PostRequest = { id: this.nextId++, url: url.toString(), headers, body, limits };
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) worker.ref();
      this.pending.set(request.id, { request, resolve, reject });
      worker.postMessage(request);
    });
  }

  /** Ends the thread now if it has nothing in flight, else once it has (a later request starts another). */
  closeWhenIdle(): void {
    this.closing = true;
    if (this.pending.size === 0) this.stop();
  }

  private start(): Worker {
    const worker = new Worker(this.workerUrl);
    worker.unref();
    worker.on('message', (reply: PostReply) => this.settle(reply));
    const died = (reason: string) => {
      if (this.worker !== worker) return; // stopped on purpose
      this.worker = undefined;
      clearTimeout(this.idleTimer);
      const pending = [...this.pending.values()];
      this.pending.clear();
      if (!this.started) {
        // It never ran: read on this thread from now on, these requests included.
        this.inThread = true;
        for (const { request, resolve, reject } of pending) {
          const url = new URL(request.url);
          postCapped(url, this.agentFor(url), request.headers, request.body, request.limits).then(resolve, reject);
        }
        return;
      }
      for (const { reject } of pending) reject(new PostFailure('unreachable', `unreachable (the upstream reading thread stopped: ${reason})`));
    };
    worker.on('error', (error) => died(error.message));
    worker.on('exit', (code) => died(`exit code ${code}`));
    this.worker = worker;
    return worker;
  }

  private settle(reply: PostReply): void {
    const pending = this.pending.get(reply.id);
    if (pending === undefined) return;
    this.started = true;
    this.pending.delete(reply.id);
    if (reply.ok) pending.resolve({ status: reply.status, headers: reply.headers, text: reply.text });
    else pending.reject(new PostFailure(reply.kind, reply.message));
    if (this.pending.size > 0) return;
    if (this.closing) {
      this.stop();
      return;
    }
    this.worker?.unref();
    this.idleTimer = setTimeout(() => this.stop(), IDLE_MS).unref();
  }

  private stop(): void {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    this.closing = false;
    if (worker) void worker.terminate();
  }

  private agentFor(url: URL): Agent {
    const key = `${url.protocol}//${url.host}`;
    let agent = this.agents.get(key);
    if (agent === undefined) {
      agent = upstreamAgent(url);
      this.agents.set(key, agent);
    }
    return agent;
  }
}

/** The process's reading thread, shared by every upstream. */
export const upstreamReader = new PostThread();
