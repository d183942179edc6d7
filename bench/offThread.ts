// The reliability bench's slow requests, sent from a worker thread. Their answers can be large (a
// struct-logger trace of 262,230 records is about 60 MB of JSON): read and parsed on the probe's
// thread, they stopped the probe's own event loop for up to half a second, and the probe timed
// the bench instead of the node (the node's longest gap meanwhile was 52 ms). From here the
// probe's thread sees only the outcome's description, and a large answer is scanned, not
// parsed (`ask` below).
import http from 'node:http';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { unwrap } from './rpc.js';

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

/** Answers up to this size are parsed whole; larger ones (long traces) are only scanned. */
const PARSED_BYTES = 1024 * 1024;
const PC_KEY = Buffer.from('"pc":');

/**
 * The outcome of one request: a small answer parsed (its error, or its result described), a
 * large one scanned as it streams in, never held or parsed whole. Parsing 60 MB of struct
 * logs took 300-450 ms of one of the machine's two cores, at the end of the row, beside the node
 * and the probe it measures. A large answer is a result when its first bytes name one, and
 * its struct logs are counted by their "pc" keys (one per record, in chain-sim's and Anvil's
 * answers; no other field's text contains it). Whether the answer is right is the tests' job.
 */
function ask(agent: http.Agent, { url, method, params, timeoutMs }: Ask): Promise<Outcome> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  return new Promise((resolve) => {
    const req = http.request(
      url,
      { method: 'POST', agent, timeout: timeoutMs, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const small: Buffer[] = [];
        let size = 0;
        let head = '';
        let pcKeys = 0;
        let tail = Buffer.alloc(0);
        res.on('data', (chunk: Buffer) => {
          size += chunk.byteLength;
          if (head.length < 200) head += chunk.subarray(0, 200).toString('utf8');
          if (size <= PARSED_BYTES) small.push(chunk);
          // Keys split between two chunks are counted once: the scan starts in the last chunk's tail.
          const scanned = Buffer.concat([tail, chunk]);
          for (let at = scanned.indexOf(PC_KEY); at >= 0; at = scanned.indexOf(PC_KEY, at + PC_KEY.length)) pcKeys++;
          tail = scanned.subarray(Math.max(0, scanned.length - (PC_KEY.length - 1)));
        });
        res.on('error', (error) => resolve({ ok: false, message: `${method}: ${error.message}` }));
        res.on('end', () => {
          if (size > PARSED_BYTES) {
            const isResult = /^\s*\{[\s\S]*?"result"\s*:/.test(head) && !/"error"\s*:/.test(head);
            if (!isResult) return resolve({ ok: false, message: `${method}: a large answer that is not a result: ${head.slice(0, 150)}` });
            return resolve({ ok: true, description: pcKeys > 0 ? `answered, ${pcKeys.toLocaleString('en-US')} struct logs` : 'answered' });
          }
          try {
            resolve({ ok: true, description: describeAnswer(unwrap(method, Buffer.concat(small).toString('utf8'))) });
          } catch (error) {
            resolve({ ok: false, message: error instanceof Error ? error.message : String(error) });
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error) => resolve({ ok: false, message: `${method}: ${error.message}` }));
    req.end(body);
  });
}

// In the worker: one keep-alive agent for every request.
if (!isMainThread && parentPort) {
  const port = parentPort;
  const agent = new http.Agent({ keepAlive: true });
  port.on('message', (message: Ask) => {
    void ask(agent, message).then((outcome) => port.postMessage({ id: message.id, outcome } satisfies Reply));
  });
}
