/**
 * One HTTP POST to the upstream, its answer read as it arrives and abandoned past a size cap.
 * On node:http's streams rather than fetch: fetch hands the body over through a web
 * ReadableStream, whose pump copies every chunk and runs a chain of promises per chunk in
 * microtasks. Reading a 400 MB answer up to its 64 MiB cap, the forked node spent 25-40 ms at a
 * time in that pump and in the collections it caused, without the event loop turning (every
 * other client waited: their reads' p99 was 65 ms); a chunk here is one 'data' callback in
 * the event loop's I/O phase, which yields to the other sockets between two reads of this one,
 * and costs half the CPU time of fetch's. A request that fails rejects with a PostFailure
 * telling what went wrong (too large, timed out, unreachable), never anything else. The fork
 * calls it on its reading thread (postThread.ts), which hands the answer or the failure back.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';

export interface PostAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The body, read whole (UTF-8). */
  readonly text: string;
}

export interface PostLimits {
  /** The whole exchange, the answer read to its end, in milliseconds. */
  readonly timeoutMs: number;
  /** Largest answer read, in bytes. */
  readonly maxResponseBytes: number;
}

/** Why a POST failed: a kind the caller tells apart (retry or not), and what to say. */
export class PostFailure extends Error {
  constructor(
    readonly kind: 'tooLarge' | 'timeout' | 'unreachable',
    message: string,
  ) {
    super(message);
    this.name = 'PostFailure';
  }
}

/** Keep-alive connections for one upstream (idle sockets do not keep the process alive: node:http unrefs them). */
function upstreamAgent(url: URL): http.Agent {
  return url.protocol === 'https:' ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
}

/** Keep-alive connections by upstream origin: each URL's agent, made on first use. */
export function agentsByOrigin(): (url: URL) => http.Agent {
  const agents = new Map<string, http.Agent>();
  return (url) => {
    const key = `${url.protocol}//${url.host}`;
    let agent = agents.get(key);
    if (agent === undefined) {
      agent = upstreamAgent(url);
      agents.set(key, agent);
    }
    return agent;
  };
}

/** An answer as read: its body's bytes, joined in an ArrayBuffer of their own (one a thread can transfer, not Node's shared pool). */
export interface PostBytes {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly bytes: Uint8Array;
}

/** POST `body` to `url`; resolves with the answer, rejects with a PostFailure. */
export async function postCapped(
  url: URL,
  agent: http.Agent,
  headers: Readonly<Record<string, string>>,
  body: string,
  limits: PostLimits,
): Promise<PostAnswer> {
  const { status, headers: answerHeaders, bytes } = await postCappedBytes(url, agent, headers, body, limits);
  return { status, headers: answerHeaders, text: decodeBody(bytes) };
}

/** A body's text (UTF-8). */
export function decodeBody(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** postCapped, the body left as bytes. */
export function postCappedBytes(url: URL, agent: http.Agent, headers: Readonly<Record<string, string>>, body: string, limits: PostLimits): Promise<PostBytes> {
  const { timeoutMs, maxResponseBytes: max } = limits;
  const request = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (failure: PostFailure): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // The connection goes with the answer: what was read of it is garbage now.
      req.destroy();
      reject(failure);
    };
    const tooLarge = () => new PostFailure('tooLarge', `answer larger than ${max} bytes (--fork-max-response-bytes ${max})`);
    const timer = setTimeout(() => fail(new PostFailure('timeout', `timed out after ${timeoutMs} ms`)), timeoutMs);
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      // A Content-Length over the cap is refused before reading.
      if (Number(res.headers['content-length'] ?? Number.NaN) > max) return fail(tooLarge());
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > max) return fail(tooLarge());
        chunks.push(chunk);
      });
      res.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: joined(chunks, size) });
      });
      res.on('aborted', () => fail(new PostFailure('unreachable', 'unreachable (the connection closed before the answer was complete)')));
      res.on('error', (error) => fail(new PostFailure('unreachable', `unreachable (${error.message})`)));
    });
    req.on('error', (error) => fail(new PostFailure('unreachable', `unreachable (${error.message})`)));
    req.end(body);
  });
}

/** The chunks in one new ArrayBuffer of exactly `size` bytes. */
function joined(chunks: readonly Buffer[], size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
