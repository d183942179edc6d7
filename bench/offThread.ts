// The reliability bench's slow requests, sent from a worker thread. Their answers can be large (a
// struct-logger trace of 262,230 records is about 60 MB of JSON): read and parsed on the probe's
// thread, they stopped the probe's own event loop for up to half a second, and the probe timed
// the bench instead of the node (the node's longest gap meanwhile was 52 ms). From here the
// probe's thread sees only the outcome's description.
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { httpClient } from './rpc.js';

interface Ask {
  readonly id: number;
  readonly url: string;
  readonly method: string;
  readonly params: readonly unknown[];
  readonly timeoutMs: number;
}

/** What came back: the answer described in a few words (describe), or the error's message. */
export type Outcome = { readonly ok: true; readonly description: string } | { readonly ok: false; readonly message: string };

interface Reply {
  readonly id: number;
  readonly outcome: Outcome;
}

/** 'answered', with the size of a struct-logger trace (Anvil 1.7.1 answers none unless started with --steps-tracing). */
export function describeAnswer(result: unknown): string {
  const logs = typeof result === 'object' && result !== null ? (result as { structLogs?: unknown }).structLogs : undefined;
  return Array.isArray(logs) ? `answered, ${logs.length.toLocaleString('en-US')} struct logs` : 'answered';
}

/** Sends requests from a worker thread of its own; `close()` ends it. */
export class OffThreadRequests {
  private readonly worker = new Worker(new URL(import.meta.url));
  private nextId = 1;
  private readonly waiting = new Map<number, (outcome: Outcome) => void>();

  constructor() {
    this.worker.on('message', (reply: Reply) => {
      this.waiting.get(reply.id)?.(reply.outcome);
      this.waiting.delete(reply.id);
    });
    this.worker.on('error', (error) => {
      for (const settle of this.waiting.values()) settle({ ok: false, message: `worker failed: ${error.message}` });
      this.waiting.clear();
    });
  }

  /** One request to the node at `url`; resolves with its outcome (never rejects). */
  request(url: string, method: string, params: readonly unknown[], timeoutMs: number): Promise<Outcome> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ id, url, method, params, timeoutMs } satisfies Ask);
    });
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}

// In the worker: one client per URL and timeout, kept alive between requests.
if (!isMainThread && parentPort) {
  const port = parentPort;
  const clients = new Map<string, ReturnType<typeof httpClient>>();
  port.on('message', (ask: Ask) => {
    const key = `${ask.url} ${ask.timeoutMs}`;
    let client = clients.get(key);
    if (!client) clients.set(key, (client = httpClient(ask.url, { timeoutMs: ask.timeoutMs })));
    client.request(ask.method, ask.params).then(
      (result) => port.postMessage({ id: ask.id, outcome: { ok: true, description: describeAnswer(result) } } satisfies Reply),
      (error: unknown) =>
        port.postMessage({ id: ask.id, outcome: { ok: false, message: error instanceof Error ? error.message : String(error) } } satisfies Reply),
    );
  });
}
