/**
 * A fork upstream that misbehaves on request: a small HTTP JSON-RPC server in the calling
 * process that answers as a healthy chain would (through `answer`), except the requests naming
 * `badAddress`, which get the fault `mode` says. The fork fault tests (test/fork/faults.test.ts)
 * and the reliability bench's hostile-upstream rows (bench/reliabilityFork.ts) share it, so
 * the bench measures the faults the tests define.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FaultMode =
  /** Answers as `answer` says. */
  | 'ok'
  /** Never answers, until released. */
  | 'timeout'
  /** HTTP 429 with Retry-After, `refusals` times, then answers. */
  | '429'
  /** HTTP 503, `refusals` times, then answers. */
  | '503'
  /** A body cut short: not JSON. */
  | 'malformed'
  /** Closes the connection without a status line. */
  | 'drop'
  /** A JSON-RPC error (a pruned node's). */
  | 'error'
  /** A body of `hugeBytes`, streamed without Content-Length. */
  | 'huge'
  /** A space every 50 ms, never the end. */
  | 'trickle'
  /** An answer with another id. */
  | 'wrongId'
  /** A JSON-RPC rate-limit error (code `rateCode`), `refusals` times, then answers. */
  | 'rateError'
  /** Headers, part of the body, then the connection closes. */
  | 'dropMidBody';

export interface JsonRpcCall {
  readonly id: unknown;
  readonly method: string;
  readonly params: unknown[];
}

export interface FaultyUpstream {
  /** Where it listens (with user:secret credentials, which error messages must mask). */
  readonly url: string;
  mode: FaultMode;
  /** With 429, 503 or rateError: how many refusals before answering. */
  refusals: number;
  /** With 429: the Retry-After header sent. */
  retryAfter: string;
  /** With huge: the size of the answer's body. */
  hugeBytes: number;
  /** With rateError: the JSON-RPC error code of the refusals. */
  rateCode: number;
  /** HTTP requests received. */
  readonly requests: number;
  /** Requests that got a fault instead of an answer (a refusal, a hang, garbage...). */
  readonly faults: number;
  /** Answer (as 'ok' would) the requests a 'timeout' kept unanswered so far. */
  release(): void;
  close(): Promise<void>;
}

export interface FaultyUpstreamOptions {
  /** Requests whose body contains this get the fault: an address, or the prefix of a family of addresses. */
  readonly badAddress: string;
  /** A healthy answer: a JSON-RPC response object for one call. */
  readonly answer: (call: JsonRpcCall) => unknown;
}

export async function startFaultyUpstream({ badAddress, answer }: FaultyUpstreamOptions): Promise<FaultyUpstream> {
  const held: Array<() => void> = [];
  let requests = 0;
  let faults = 0;
  let url = '';
  let server: Server | undefined;
  const fake: FaultyUpstream = {
    get url() {
      return url;
    },
    mode: 'ok',
    refusals: 0,
    retryAfter: '1',
    hugeBytes: 0,
    rateCode: 429,
    get requests() {
      return requests;
    },
    get faults() {
      return faults;
    },
    release: () => {
      for (const answerNow of held.splice(0)) answerNow();
    },
    close: () =>
      new Promise((resolve) => {
        server?.closeAllConnections();
        server?.close(() => resolve());
      }),
  };
  const healthy = (parsed: unknown, calls: readonly JsonRpcCall[]): string => JSON.stringify(Array.isArray(parsed) ? calls.map(answer) : answer(calls[0]!));

  /** Sends the fault for `mode`; false when the mode answers normally this time (refusals spent). */
  function fault(mode: FaultMode, request: IncomingMessage, response: ServerResponse, parsed: unknown, calls: readonly JsonRpcCall[]): boolean {
    const json = () => response.writeHead(200, { 'content-type': 'application/json' });
    switch (mode) {
      case 'ok':
        return false;
      case 'timeout':
        held.push(() => {
          if (response.destroyed) return;
          json();
          response.end(healthy(parsed, calls));
        });
        return true;
      case 'drop':
        request.socket.destroy();
        return true;
      case '429':
      case '503':
      case 'rateError': {
        if (fake.refusals <= 0) return false;
        fake.refusals--;
        if (mode === '429') {
          response.writeHead(429, { 'retry-after': fake.retryAfter });
          response.end('slow down');
        } else if (mode === '503') {
          response.writeHead(503);
          response.end('unavailable');
        } else {
          json();
          const message = 'Your app has exceeded its compute units per second capacity';
          const errors = calls.map((call) => ({ jsonrpc: '2.0', id: call.id, error: { code: fake.rateCode, message } }));
          response.end(JSON.stringify(Array.isArray(parsed) ? errors : errors[0]));
        }
        return true;
      }
      case 'malformed':
        json();
        response.end('{"jsonrpc":"2.0","id":0,"resu');
        return true;
      case 'huge': {
        // No Content-Length: the cap must hold while the body streams in.
        json();
        const piece = Buffer.alloc(1024 * 1024, 0x61);
        let sent = 0;
        const more = () => {
          while (sent < fake.hugeBytes) {
            sent += piece.length;
            if (!response.write(piece)) return void response.once('drain', more);
          }
          response.end();
        };
        response.on('error', () => {});
        more();
        return true;
      }
      case 'trickle': {
        json();
        const timer = setInterval(() => response.write(' '), 50);
        response.on('close', () => clearInterval(timer));
        return true;
      }
      case 'dropMidBody':
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        response.write('{"jsonrpc":"2.0","id":0,');
        setTimeout(() => request.socket.destroy(), 20);
        return true;
      case 'wrongId': {
        json();
        const answers = calls.map((call) => ({ ...(answer(call) as object), id: 9999 }));
        response.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
        return true;
      }
      case 'error': {
        json();
        const errors = calls.map((call) => ({ jsonrpc: '2.0', id: call.id, error: { code: -32000, message: 'missing trie node (state is pruned)' } }));
        response.end(JSON.stringify(Array.isArray(parsed) ? errors : errors[0]));
        return true;
      }
    }
  }

  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      requests++;
      const parsed = JSON.parse(body) as unknown;
      const calls = (Array.isArray(parsed) ? parsed : [parsed]) as JsonRpcCall[];
      const bad = body.toLowerCase().includes(badAddress.toLowerCase());
      if (bad && fault(fake.mode, request, response, parsed, calls)) {
        faults++;
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(healthy(parsed, calls));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  url = `http://user:secret@127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return fake;
}
