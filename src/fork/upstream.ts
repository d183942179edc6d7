/**
 * The JSON-RPC client of a forked chain's upstream. Calls made in the same tick go out as
 * one JSON-RPC batch (an account's balance, nonce and code are one round trip; so are the
 * slots a block of work reads together). It retries what can be retried (a dropped
 * connection, a timeout, HTTP 429 after its Retry-After, a 5xx), spaces requests when a rate
 * is set, and turns every failure into an UpstreamError naming the upstream (credentials
 * masked), the method and the key: the caller's request fails, the node keeps serving.
 */
import { EngineError } from '../engine/util/errors.js';

export interface UpstreamOptions {
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Milliseconds one HTTP request may take. */
  readonly timeoutMs?: number;
  /** Further attempts after a failure that may pass (network, timeout, 429, 5xx). */
  readonly retries?: number;
  /** At most this many HTTP requests a second (0: no limit). */
  readonly requestsPerSecond?: number;
}

/** A failed upstream request; -32000 for the caller. */
export class UpstreamError extends EngineError {
  constructor(message: string) {
    super('rejected', message);
    this.name = 'UpstreamError';
  }
}

/** The URL as it may be printed: no user/password, no query values, no long path tokens (API keys). */
export function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username) parsed.username = '***';
    if (parsed.password) parsed.password = '***';
    for (const key of [...parsed.searchParams.keys()]) parsed.searchParams.set(key, '***');
    parsed.pathname = parsed.pathname
      .split('/')
      .map((segment) => (/^[A-Za-z0-9_-]{20,}$/.test(segment) ? '***' : segment))
      .join('/');
    return parsed.toString().replace(/%2A/g, '*');
  } catch {
    return '<invalid url>';
  }
}

interface Call {
  readonly method: string;
  readonly params: readonly unknown[];
  /** What the call is about, for the error message (an address, an address and slot, a block). */
  readonly key: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** Most calls in one batch (public endpoints refuse large batches). */
const MAX_BATCH = 100;
/** Longest Retry-After honoured, in milliseconds; longer waits fail the request instead. */
const MAX_RETRY_AFTER_MS = 30_000;

export class Upstream {
  readonly masked: string;
  /** HTTP requests sent, and calls by method: tests and the bench assert on them. */
  readonly stats = { httpRequests: 0, calls: new Map<string, number>() };
  private queue: Call[] = [];
  private scheduled = false;
  /** Some servers refuse batches: after the first refusal, calls go one by one. */
  private batching = true;
  private nextSlot = 0;
  /** The URL without credentials (fetch refuses them) and the headers, with Basic authorization for them. */
  private readonly target: string;
  private readonly headers: Record<string, string>;

  constructor(private readonly options: UpstreamOptions) {
    const url = new URL(options.url); // throws on a malformed URL: callers validate first
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported protocol ${url.protocol}`);
    this.masked = maskUrl(options.url);
    this.headers = { 'content-type': 'application/json' };
    if (url.username || url.password) {
      const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      this.headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    Object.assign(this.headers, options.headers ?? {});
    this.target = url.toString();
  }

  /** Calls to `method` so far (all of them when no method is named). */
  callCount(method?: string): number {
    if (method !== undefined) return this.stats.calls.get(method) ?? 0;
    let total = 0;
    for (const count of this.stats.calls.values()) total += count;
    return total;
  }

  /** One JSON-RPC call, sent with the others of this tick. */
  request(method: string, params: readonly unknown[], key = ''): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ method, params, key, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.drain());
      }
    });
  }

  private drain(): void {
    this.scheduled = false;
    const calls = this.queue;
    this.queue = [];
    const size = this.batching ? MAX_BATCH : 1;
    for (let i = 0; i < calls.length; i += size) void this.send(calls.slice(i, i + size));
  }

  private failure(call: Call, reason: string): UpstreamError {
    const key = call.key === '' ? '' : ` for ${call.key}`;
    return new UpstreamError(`fork upstream ${this.masked}: ${call.method}${key} failed: ${reason}`);
  }

  private async send(calls: Call[]): Promise<void> {
    for (const call of calls) this.stats.calls.set(call.method, (this.stats.calls.get(call.method) ?? 0) + 1);
    const single = calls.length === 1 && !this.batching;
    const body = calls.map((call, id) => ({ jsonrpc: '2.0', id, method: call.method, params: call.params }));
    let answer: unknown;
    try {
      answer = await this.post(single ? body[0] : body);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      for (const call of calls) call.reject(this.failure(call, reason));
      return;
    }
    if (!single && !Array.isArray(answer) && calls.length > 0 && isObject(answer) && 'error' in answer && this.batching) {
      // A batch refused as a whole: send the calls one by one from now on.
      this.batching = false;
      for (const call of calls) this.queue.push(call);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.drain());
      }
      for (const call of calls) this.stats.calls.set(call.method, this.stats.calls.get(call.method)! - 1);
      return;
    }
    const responses = single ? [answer] : answer;
    if (!Array.isArray(responses)) {
      for (const call of calls) call.reject(this.failure(call, 'malformed answer (expected a JSON-RPC batch response)'));
      return;
    }
    const byId = new Map<unknown, unknown>();
    for (const response of responses) if (isObject(response)) byId.set(single ? 0 : response.id, response);
    calls.forEach((call, id) => {
      const response = byId.get(id);
      if (!isObject(response)) return call.reject(this.failure(call, 'no answer for this call in the upstream response'));
      if (isObject(response.error)) {
        const { code, message } = response.error as { code?: unknown; message?: unknown };
        return call.reject(this.failure(call, `upstream error ${String(code)}: ${String(message)}`));
      }
      if (!('result' in response)) return call.reject(this.failure(call, 'malformed answer (no result)'));
      call.resolve(response.result);
    });
  }

  /** POST one body with retries; resolves to the parsed JSON answer. */
  private async post(body: unknown): Promise<unknown> {
    const retries = this.options.retries ?? 3;
    let lastError = 'no attempt made';
    for (let attempt = 0; attempt <= retries; attempt++) {
      await this.rateSlot();
      this.stats.httpRequests++;
      const outcome = await this.attempt(body);
      if (outcome.ok) return outcome.value;
      lastError = outcome.reason;
      if (!outcome.retry || attempt === retries) break;
      const wait = outcome.waitMs ?? Math.min(2000, 100 * 2 ** attempt);
      if (wait > MAX_RETRY_AFTER_MS) {
        lastError += ` (Retry-After ${Math.round(wait / 1000)} s is longer than ${MAX_RETRY_AFTER_MS / 1000} s)`;
        break;
      }
      await sleep(wait);
    }
    throw new Error(lastError);
  }

  private async attempt(body: unknown): Promise<{ ok: true; value: unknown } | { ok: false; reason: string; retry: boolean; waitMs?: number }> {
    const timeoutMs = this.options.timeoutMs ?? 45_000;
    let response: Response;
    let text: string;
    try {
      const signal = AbortSignal.timeout(timeoutMs);
      response = await fetch(this.target, {
        method: 'POST',
        headers: this.headers,
        body: JSON.stringify(body),
        signal,
      });
      text = await response.text();
    } catch (error) {
      const name = error instanceof Error ? error.name : '';
      if (name === 'TimeoutError' || name === 'AbortError') return { ok: false, reason: `timed out after ${timeoutMs} ms`, retry: true };
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
      const detail = (cause || (error instanceof Error ? error.message : String(error))).split(this.target).join(this.masked);
      return { ok: false, reason: `unreachable (${detail})`, retry: true };
    }
    if (response.status === 429) {
      return { ok: false, reason: 'rate limited (HTTP 429)', retry: true, waitMs: retryAfterMs(response.headers.get('retry-after')) };
    }
    if (response.status >= 500) return { ok: false, reason: `HTTP ${response.status}`, retry: true };
    if (response.status !== 200) return { ok: false, reason: `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`, retry: false };
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch {
      return { ok: false, reason: `malformed answer (not JSON: ${JSON.stringify(text.slice(0, 60))})`, retry: true };
    }
  }

  /** Waits until the next request may go, with --fork-requests-per-second. */
  private async rateSlot(): Promise<void> {
    const rate = this.options.requestsPerSecond ?? 0;
    if (rate <= 0) return;
    const now = Date.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + 1000 / rate;
    if (slot > now) await sleep(slot - now);
  }
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable (then back off exponentially). */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
