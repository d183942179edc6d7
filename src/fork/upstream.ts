/**
 * The JSON-RPC client of a forked chain's upstream. Calls made in the same tick go out as
 * one JSON-RPC batch (an account's balance, nonce and code are one round trip; so are the
 * slots a block of work reads together). It retries what can be retried (a dropped
 * connection, a timeout, a rate limit after its Retry-After, a 5xx), spaces requests when a
 * rate is set, reads no answer past a size cap, and turns every failure into an UpstreamError
 * naming the upstream (credentials masked), the method, the key and the limit that was hit:
 * the caller's request fails, the node keeps serving.
 */
import { EngineError } from '../engine/index.js';
import { type PostAnswer, PostFailure } from './httpPost.js';
import { upstreamReader } from './postThread.js';

/** What an upstream may cost the node: time, attempts, rate and memory. */
export interface UpstreamLimits {
  /** Milliseconds one HTTP request may take, its whole answer read. */
  readonly timeoutMs: number;
  /** Further attempts after a failure that may pass (network, timeout, rate limit, 5xx). */
  readonly retries: number;
  /** At most this many HTTP requests a second (0: no limit). */
  readonly requestsPerSecond: number;
  /** Largest answer read, in bytes: a larger one is abandoned as it arrives (its memory goes with it). */
  readonly maxResponseBytes: number;
  /** Milliseconds before the first retry, doubling after each (at most MAX_BACKOFF_MS). */
  readonly retryBackoffMs: number;
  /**
   * The upstream's assumed compute units a second (Anvil's --compute-units-per-second, a hosted
   * endpoint's budget): after a rate limit, a retry also waits until the calls in flight fit it.
   * Infinity: no budget (Anvil's --no-rate-limit).
   */
  readonly computeUnitsPerSecond: number;
}

export const DEFAULT_LIMITS: UpstreamLimits = {
  timeoutMs: 45_000,
  retries: 3,
  requestsPerSecond: 0,
  maxResponseBytes: 64 * 1024 * 1024,
  retryBackoffMs: 100,
  // Anvil's default: a free hosted tier's budget.
  computeUnitsPerSecond: 330,
};

export interface UpstreamOptions extends Partial<UpstreamLimits> {
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A failed upstream request; -32000 for the caller. */
export class UpstreamError extends EngineError {
  constructor(
    message: string,
    /** The JSON-RPC error code when the upstream answered the call with an error (it refused it); undefined when no answer came. */
    readonly upstreamCode?: number,
  ) {
    super('upstream', message);
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
  /** Times this call was answered with a rate-limit error and sent again. */
  rateLimited: number;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** Most calls in one batch (public endpoints refuse large batches). */
const MAX_BATCH = 100;
/** Longest Retry-After honoured, in milliseconds; longer waits fail the request instead. */
const MAX_RETRY_AFTER_MS = 30_000;
/** Longest backoff between two attempts. */
const MAX_BACKOFF_MS = 10_000;
/** A call's average cost in compute units, as hosted endpoints count them (an account read is 17-26). */
const AVERAGE_CALL_COST = 20;

/**
 * JSON-RPC errors that mean "too many requests" rather than "this request is wrong": 429 (as
 * some endpoints put the HTTP status in the error), -32005 (EIP-1474's limit exceeded, which
 * hosted endpoints answer for request rates) and -32007 (QuickNode's request limit).
 */
const RATE_LIMIT_CODES = new Set([429, -32005, -32007]);

export class Upstream {
  readonly masked: string;
  /** HTTP requests sent, and calls by method: tests and the bench assert on them. */
  readonly stats = { httpRequests: 0, calls: new Map<string, number>() };
  private queue: Call[] = [];
  private scheduled = false;
  /** Some servers refuse batches: after the first refusal, calls go one by one. */
  private batching = true;
  private nextSlot = 0;
  /** The URL without credentials (sent as Basic authorization in the headers instead). */
  private readonly target: URL;
  private readonly headers: Record<string, string>;
  private readonly limits: UpstreamLimits;
  /** Calls sent and not yet answered: what a retry after a rate limit waits to fit the compute-unit budget. */
  private inFlight = 0;

  constructor(options: UpstreamOptions) {
    const { url: _url, headers: _headers, ...limits } = options;
    this.limits = { ...DEFAULT_LIMITS, ...definedFields(limits) };
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
    this.target = url;
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
      this.queue.push({ method, params, key, rateLimited: 0, resolve, reject });
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

  private failure(call: Call, reason: string, upstreamCode?: number): UpstreamError {
    const key = call.key === '' ? '' : ` for ${call.key}`;
    return new UpstreamError(`fork upstream ${this.masked}: ${call.method}${key} failed: ${reason}`, upstreamCode);
  }

  private async send(calls: Call[]): Promise<void> {
    for (const call of calls) this.stats.calls.set(call.method, (this.stats.calls.get(call.method) ?? 0) + 1);
    const single = calls.length === 1 && !this.batching;
    const body = calls.map((call, id) => ({ jsonrpc: '2.0', id, method: call.method, params: call.params }));
    let answer: unknown;
    this.inFlight += calls.length;
    try {
      answer = await this.post(single ? body[0] : body);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      for (const call of calls) call.reject(this.failure(call, reason));
      return;
    } finally {
      this.inFlight -= calls.length;
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
    const limited: Call[] = [];
    calls.forEach((call, id) => {
      const response = byId.get(id);
      if (!isObject(response)) return call.reject(this.failure(call, 'no answer for this call in the upstream response'));
      if (isObject(response.error)) {
        const { code, message } = response.error as { code?: unknown; message?: unknown };
        const reason = `upstream error ${String(code)}: ${String(message)}`;
        if (!RATE_LIMIT_CODES.has(code as number)) return call.reject(this.failure(call, reason, typeof code === 'number' ? code : 0));
        if (call.rateLimited >= this.limits.retries)
          return call.reject(this.failure(call, `rate limited (${reason}), ${call.rateLimited + 1} times (--fork-retries ${this.limits.retries})`));
        call.rateLimited++;
        return limited.push(call);
      }
      if (!('result' in response)) return call.reject(this.failure(call, 'malformed answer (no result)'));
      call.resolve(response.result);
    });
    if (limited.length > 0) void this.resendAfterRateLimit(limited);
  }

  /** Calls a JSON-RPC rate-limit error refused, sent again after the backoff (the others of their batch are answered). */
  private async resendAfterRateLimit(calls: Call[]): Promise<void> {
    const attempt = Math.max(...calls.map((call) => call.rateLimited)) - 1;
    await sleep(this.backoffMs(attempt, undefined, true));
    for (const call of calls) this.stats.calls.set(call.method, this.stats.calls.get(call.method)! - 1);
    await this.send(calls);
  }

  /**
   * How long to wait before attempt `attempt + 1`: the backoff, doubling (or the server's
   * Retry-After when longer), and after a rate limit also the time the calls in flight take
   * to fit the compute-unit budget.
   */
  private backoffMs(attempt: number, retryAfterMs: number | undefined, rateLimited: boolean): number {
    const backoff = Math.min(MAX_BACKOFF_MS, this.limits.retryBackoffMs * 2 ** attempt);
    const budget = rateLimited ? ((this.inFlight + 1) * AVERAGE_CALL_COST * 1000) / this.limits.computeUnitsPerSecond : 0;
    return Math.max(backoff, retryAfterMs ?? 0) + budget;
  }

  /** POST one body with retries; resolves to the parsed JSON answer. */
  private async post(body: unknown): Promise<unknown> {
    const { retries } = this.limits;
    let lastError = 'no attempt made';
    for (let attempt = 0; attempt <= retries; attempt++) {
      await this.rateSlot();
      this.stats.httpRequests++;
      const outcome = await this.attempt(body);
      if (outcome.ok) return outcome.value;
      lastError = outcome.reason;
      if (!outcome.retry) break;
      if (attempt === retries) {
        if (retries > 0) lastError += ` (after ${retries + 1} attempts, --fork-retries ${retries})`;
        break;
      }
      if (outcome.retryAfterMs !== undefined && outcome.retryAfterMs > MAX_RETRY_AFTER_MS) {
        lastError += ` (Retry-After ${Math.round(outcome.retryAfterMs / 1000)} s is longer than ${MAX_RETRY_AFTER_MS / 1000} s)`;
        break;
      }
      await sleep(this.backoffMs(attempt, outcome.retryAfterMs, outcome.rateLimited === true));
    }
    throw new Error(lastError);
  }

  private async attempt(
    body: unknown,
  ): Promise<{ ok: true; value: unknown } | { ok: false; reason: string; retry: boolean; retryAfterMs?: number; rateLimited?: boolean }> {
    let response: PostAnswer;
    try {
      // Read on the upstream reading thread (postThread.ts): a huge answer does not hold this one.
      const { timeoutMs, maxResponseBytes } = this.limits;
      response = await upstreamReader.post(this.target, this.headers, JSON.stringify(body), { timeoutMs, maxResponseBytes });
    } catch (error) {
      if (!(error instanceof PostFailure)) throw error;
      // A larger answer would come again: not retried.
      return { ok: false, reason: error.message.split(this.target.toString()).join(this.masked), retry: error.kind !== 'tooLarge' };
    }
    const { status, text } = response;
    if (status === 429) {
      const retryAfter = response.headers['retry-after'];
      return {
        ok: false,
        reason: 'rate limited (HTTP 429)',
        retry: true,
        rateLimited: true,
        retryAfterMs: retryAfterMs(typeof retryAfter === 'string' ? retryAfter : null),
      };
    }
    if (status >= 500) return { ok: false, reason: `HTTP ${status}`, retry: true };
    if (status !== 200) return { ok: false, reason: `HTTP ${status}${text ? `: ${text.slice(0, 200)}` : ''}`, retry: false };
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch {
      return { ok: false, reason: `malformed answer (not JSON: ${JSON.stringify(text.slice(0, 60))})`, retry: true };
    }
  }

  /** Waits until the next request may go, with --fork-requests-per-second. */
  private async rateSlot(): Promise<void> {
    const rate = this.limits.requestsPerSecond;
    if (rate <= 0) return;
    const now = Date.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + 1000 / rate;
    if (slot > now) await sleep(slot - now);
  }
}

/** The fields of `options` that are set (an undefined one keeps the default). */
function definedFields<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
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
