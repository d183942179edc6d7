// JSON-RPC transport for the bench: one keep-alive HTTP client for spawned
// servers and one adapter for an in-process EIP-1193 provider, behind the same
// interface so every workload runs unchanged against either.
import http from 'node:http';

export interface RpcClient {
  /** One call; rejects on transport failure, timeout or a JSON-RPC error. */
  request(method: string, params?: readonly unknown[]): Promise<unknown>;
  close(): void;
}

export class RpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number | undefined,
    message: string,
  ) {
    super(`${method}: ${message}${code === undefined ? '' : ` (code ${code})`}`);
    this.name = 'RpcError';
  }
}

interface JsonRpcResponse {
  result?: unknown;
  error?: { code?: number; message?: string };
}

export function unwrap(method: string, body: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new RpcError(method, undefined, `non-JSON answer: ${body.slice(0, 200)}`);
  }
  if (typeof parsed !== 'object' || parsed === null) {
    throw new RpcError(method, undefined, `unexpected answer: ${body.slice(0, 200)}`);
  }
  const response = parsed as JsonRpcResponse;
  if (response.error !== undefined && response.error !== null) {
    throw new RpcError(method, response.error.code, response.error.message ?? 'unknown error');
  }
  if (!('result' in response)) {
    throw new RpcError(method, undefined, `answer without result: ${body.slice(0, 200)}`);
  }
  return response.result;
}

export interface HttpClientOptions {
  /** Socket inactivity bound per request, so a stalled server fails the workload instead of hanging the run. */
  timeoutMs?: number;
  /** false for start-up polling, where each probe must open a fresh connection. */
  keepAlive?: boolean;
}

export function httpClient(url: string, options: HttpClientOptions = {}): RpcClient {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const agent = new http.Agent({ keepAlive: options.keepAlive ?? true });
  let nextId = 1;
  return {
    request(method, params = []) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params });
      const send = (retried: boolean): Promise<unknown> =>
        new Promise((resolve, reject) => {
          const req = http.request(
            url,
            {
              method: 'POST',
              agent,
              timeout: timeoutMs,
              headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
            },
            (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (chunk: Buffer) => chunks.push(chunk));
              res.on('error', reject);
              res.on('end', () => {
                // Servers disagree on HTTP status for JSON-RPC errors; the body is authoritative.
                try {
                  resolve(unwrap(method, Buffer.concat(chunks).toString('utf8')));
                } catch (error) {
                  reject(error);
                }
              });
            },
          );
          req.on('timeout', () => req.destroy(new RpcError(method, undefined, `no answer within ${timeoutMs} ms`)));
          req.on('error', (error: NodeJS.ErrnoException) => {
            // A kept-alive connection the server closed while idle (Ganache does, between the
            // interleaved samples) fails at its next use before the request reached the server:
            // Node's documented case for sending it again on a new connection.
            if (req.reusedSocket && !retried && error.code === 'ECONNRESET') resolve(send(true));
            else reject(error);
          });
          req.end(body);
        });
      return send(false);
    },
    close() {
      agent.destroy();
    },
  };
}

/** The EIP-1193 surface the bench needs from an in-process provider. */
export interface Eip1193Provider {
  request(args: { method: string; params?: readonly unknown[] }): Promise<unknown>;
}

export function providerClient(provider: Eip1193Provider): RpcClient {
  return {
    async request(method, params = []) {
      try {
        return await provider.request({ method, params });
      } catch (error) {
        const code = typeof error === 'object' && error !== null && 'code' in error ? Number(error.code) : undefined;
        throw new RpcError(method, code, error instanceof Error ? error.message : String(error));
      }
    },
    close() {},
  };
}

// Parsers for the few answer shapes the bench relies on.

export function asQuantity(method: string, value: unknown): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]+$/.test(value)) {
    throw new RpcError(method, undefined, `expected a hex quantity, got ${JSON.stringify(value)}`);
  }
  return BigInt(value);
}

export function asData(method: string, value: unknown): string {
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value)) {
    throw new RpcError(method, undefined, `expected hex data, got ${JSON.stringify(value)}`);
  }
  return value;
}

export function asRecord(method: string, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RpcError(method, undefined, `expected an object, got ${JSON.stringify(value)}`);
  }
  return value as Record<string, unknown>;
}
