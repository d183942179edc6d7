/**
 * Small helpers shared by the RPC and HTTP tests: catching JSON-RPC errors,
 * bounding calls with a timeout, raw HTTP exchanges, and EVM init code that reverts.
 */
import { request as httpRequest } from 'node:http';
import type { ChainSimProvider } from '../../src/provider.js';
import { type ChainSimOptions, type ChainSimServer, createServer } from '../../src/index.js';

export const FIRST_ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
export const SECOND_ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/** What a JSON-RPC error looks like to a client, whichever path it came through. */
export interface CaughtRpcError {
  readonly code: unknown;
  readonly message: string;
  readonly data?: unknown;
  readonly error: unknown;
}

/** Run `fn` and return the error it throws (fails the test if it resolves). */
export async function rpcError(fn: () => Promise<unknown>): Promise<CaughtRpcError> {
  let result: unknown;
  try {
    result = await fn();
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown; data?: unknown };
    return { code: e.code, message: String(e.message), data: e.data, error };
  }
  throw new Error(`expected an error, got result ${JSON.stringify(result)?.slice(0, 200)}`);
}

/** Call provider.request and return the error it rejects with. */
export function requestError(provider: ChainSimProvider, method: string, params?: readonly unknown[] | object): Promise<CaughtRpcError> {
  return rpcError(() => provider.request({ method, params }));
}

/** Synchronous variant of rpcError, for decoders. */
export function thrownBy(fn: () => unknown): CaughtRpcError {
  let result: unknown;
  try {
    result = fn();
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown; data?: unknown };
    return { code: e.code, message: String(e.message), data: e.data, error };
  }
  throw new Error(`expected an error, got result ${String(result)}`);
}

export class TimeoutError extends Error {
  constructor(label: string, ms: number) {
    super(`${label}: no answer within ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/** Resolve or reject as `promise` does, or reject with TimeoutError after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, label: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(label, ms)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// ---- EVM code -------------------------------------------------------------------------------

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

/** The ABI encoding of Error(string): selector, offset, length, padded UTF-8 bytes. */
export function errorStringPayload(reason: string): string {
  const text = Buffer.from(reason, 'utf8');
  const padded = Buffer.alloc(Math.ceil(text.length / 32) * 32);
  text.copy(padded);
  const word = (n: number) => n.toString(16).padStart(64, '0');
  return `0x08c379a0${word(32)}${word(text.length)}${hex(padded)}`;
}

/**
 * Init code that writes `payload` into memory with PUSH32/MSTORE and REVERTs with it.
 * Run with `eth_call` and no `to`, it reverts with exactly these bytes.
 */
export function revertingInitCode(payloadHex: string): string {
  const payload = Buffer.from(payloadHex.replace(/^0x/, ''), 'hex');
  const words = Buffer.alloc(Math.ceil(payload.length / 32) * 32);
  payload.copy(words);
  let code = '';
  for (let offset = 0; offset < words.length; offset += 32) {
    // PUSH32 word, PUSH2 offset, MSTORE
    code += `7f${hex(words.subarray(offset, offset + 32))}61${offset.toString(16).padStart(4, '0')}52`;
  }
  // PUSH2 size, PUSH1 0, REVERT
  code += `61${payload.length.toString(16).padStart(4, '0')}6000fd`;
  return `0x${code}`;
}

// ---- HTTP -----------------------------------------------------------------------------------

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** One HTTP exchange with node:http, so every header and method can be chosen freely. */
export function httpExchange(
  url: string,
  options: { method?: string; path?: string; headers?: Record<string, string | number>; body?: string | Buffer; agent?: import('node:http').Agent },
): Promise<RawResponse & { reusedSocket: boolean }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: options.method ?? 'POST',
        path: options.path ?? '/',
        headers: options.headers,
        agent: options.agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), reusedSocket: req.reusedSocket }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** POST a JSON-RPC body (a string is sent as is) with Content-Type application/json. */
export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return httpExchange(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers },
    body: text,
  });
}

/**
 * A chain-sim HTTP server on a free loopback port for the `describe` block this is called in:
 * started before its tests, closed after them. Answers a getter of its URL.
 */
export function httpServerPerSuite(options: ChainSimOptions = {}): () => string {
  let server: ChainSimServer | undefined;
  let url = '';
  before(async () => {
    server = await createServer({ quiet: true, ...options });
    url = (await server.listen(0, '127.0.0.1')).url;
  });
  after(() => server?.close());
  return () => url;
}

/** JSON-RPC over HTTP with fetch: the result, or an Error carrying the node's message (prefixed with `who`). */
export function fetchRpc(url: () => string, who = '') {
  let id = 0;
  return async <T = unknown>(method: string, params: unknown[] = []): Promise<T> => {
    const response = await fetch(url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    const body = (await response.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${who}${body.error.message}`);
    return body.result as T;
  };
}
