/**
 * The forking options, in every spelling users bring: chain-sim's flags (--fork URL[@BLOCK],
 * --fork-block-number, --fork-header, ...), Ganache's (--fork.url, --fork.blockNumber,
 * --fork.headers, and `fork: { url, blockNumber, headers }` in code), Anvil's (--fork-url, -f)
 * and Hardhat's config shape (`forking: { url, blockNumber, httpHeaders, enabled }`).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LIMITS, type UpstreamLimits } from './upstream.js';
import { refuseUnknownKeys } from '../options/suggest.js';

/** Header list: `{ Name: value }`, Ganache's `[{ name, value }]`, or `["Name: value"]`. */
export type ForkHeadersInput = Readonly<Record<string, string>> | ReadonlyArray<string | { name: string; value: string }>;

export interface ForkOptionsInput {
  /** URL (optionally URL@BLOCK), or { url, blockNumber, headers } (Ganache's programmatic shape). */
  fork?: string | { url?: string; blockNumber?: number | bigint | string; headers?: ForkHeadersInput; jsonRpcUrl?: string };
  /** Hardhat's config shape. */
  forking?: { url?: string; blockNumber?: number | bigint | string; httpHeaders?: Readonly<Record<string, string>>; enabled?: boolean };
  /** The pinned block; negative counts back from the upstream's head. */
  forkBlockNumber?: number | bigint | string;
  /** "Name: value", repeatable. */
  forkHeader?: string | string[];
  forkRetries?: number;
  /** Milliseconds one upstream request may take. */
  forkTimeout?: number;
  forkRequestsPerSecond?: number;
  /** Largest upstream answer read, in bytes. */
  forkMaxResponseBytes?: number;
  /** Milliseconds before the first retry (doubling after each). */
  forkRetryBackoff?: number;
  /** Anvil's assumed compute units a second of the upstream: spaces retries after a rate limit. */
  computeUnitsPerSecond?: number;
  /** Anvil's --no-rate-limit: retries after a rate limit wait only the backoff (and Retry-After). */
  noRateLimit?: boolean;
  /** false (--no-fork-cache): no disk cache. */
  forkCache?: boolean;
  forkCacheDir?: string;
}

export interface ResolvedFork extends ForkDefaults {
  readonly url: string;
  readonly blockNumber: bigint | undefined;
}

/** Settings of forks opened later by a reset (the same cache, limits and headers). */
export interface ForkDefaults extends UpstreamLimits {
  readonly headers: Readonly<Record<string, string>>;
  readonly cacheDir: string | null;
}

/**
 * The forking rows of the options table (options/table.ts). Their values are resolved together
 * (resolveFork, resolveForkDefaults: several spellings fill one fork), so no row fills a field of its own.
 */
export const FORK_ROWS = {
  fork: {
    flag: 'fork',
    alias: 'f',
    cli: 'string',
    help: 'fork the chain at this JSON-RPC URL (URL@BLOCK pins a block; also --fork-url, --fork.url)',
    parse: given<ForkOptionsInput['fork']>,
    as: null,
  },
  forkBlockNumber: {
    flag: 'fork-block-number',
    cli: 'string',
    help: 'block to fork at; negative counts back from the upstream head (also --fork.blockNumber)',
    shown: 'the upstream head at start-up',
    parse: given<ForkOptionsInput['forkBlockNumber']>,
    as: null,
  },
  forkHeader: {
    flag: 'fork-header',
    cli: 'string',
    array: true,
    help: "HTTP header for upstream requests, 'Name: value' (repeatable; also --fork.headers)",
    parse: given<ForkOptionsInput['forkHeader']>,
    as: null,
  },
  forkRetries: {
    flag: 'fork-retries',
    alias: 'retries', // Anvil's spelling
    cli: 'number',
    help: 'retries of a failed upstream request (network, timeout, rate limit, 5xx)',
    default: DEFAULT_LIMITS.retries,
    parse: given<ForkOptionsInput['forkRetries']>,
    as: null,
  },
  forkTimeout: {
    flag: 'fork-timeout',
    alias: 'timeout', // Anvil's spelling (milliseconds too)
    cli: 'number',
    help: 'milliseconds an upstream request may take',
    default: DEFAULT_LIMITS.timeoutMs,
    parse: given<ForkOptionsInput['forkTimeout']>,
    as: null,
  },
  forkRequestsPerSecond: {
    flag: 'fork-requests-per-second',
    cli: 'number',
    help: 'most upstream HTTP requests a second (0: no limit)',
    default: DEFAULT_LIMITS.requestsPerSecond,
    parse: given<ForkOptionsInput['forkRequestsPerSecond']>,
    as: null,
  },
  forkMaxResponseBytes: {
    flag: 'fork-max-response-bytes',
    cli: 'number',
    help: 'largest upstream answer read, in bytes; a larger one fails its request',
    default: DEFAULT_LIMITS.maxResponseBytes,
    shown: '67108864 (64 MiB)',
    parse: given<ForkOptionsInput['forkMaxResponseBytes']>,
    as: null,
  },
  forkRetryBackoff: {
    flag: 'fork-retry-backoff',
    cli: 'number',
    help: 'milliseconds before the first retry of a failed upstream request, doubling after each',
    default: DEFAULT_LIMITS.retryBackoffMs,
    parse: given<ForkOptionsInput['forkRetryBackoff']>,
    as: null,
  },
  computeUnitsPerSecond: {
    flag: 'compute-units-per-second',
    cli: 'number',
    help: "the upstream's assumed compute units a second (Anvil's): after a rate limit, retries wait for the calls in flight to fit it",
    default: DEFAULT_LIMITS.computeUnitsPerSecond,
    parse: given<ForkOptionsInput['computeUnitsPerSecond']>,
    as: null,
  },
  noRateLimit: {
    flag: 'no-rate-limit',
    cli: 'boolean',
    help: "Anvil's: no compute-unit budget; retries after a rate limit wait only the backoff and Retry-After",
    default: false,
    parse: given<ForkOptionsInput['noRateLimit']>,
    as: null,
  },
  forkCache: {
    flag: 'fork-cache',
    // Anvil's --no-storage-caching turns its disk cache off too.
    alias: 'storage-caching',
    cli: 'boolean',
    help: "keep fetched upstream state on disk (--no-fork-cache, Anvil's --no-storage-caching: memory only)",
    default: true,
    parse: given<ForkOptionsInput['forkCache']>,
    as: null,
  },
  forkCacheDir: {
    flag: 'fork-cache-dir',
    cli: 'string',
    help: 'directory of the fork disk cache',
    shown: '~/.cache/chain-sim/fork',
    parse: given<ForkOptionsInput['forkCacheDir']>,
    as: null,
  },
  /** Hardhat's config shape: { url, blockNumber, httpHeaders, enabled }. */
  forking: { parse: given<ForkOptionsInput['forking']>, as: null },
} as const;

/** Checked with the other fork options (resolveFork), not by itself. */
function given<T>(value: T): T {
  return value;
}

/** Other tools' flag spellings, rewritten to ours before parsing. */
const FLAG_SPELLINGS: Readonly<Record<string, string>> = {
  '--fork-url': '--fork',
  '--fork.url': '--fork',
  '--fork.blockNumber': '--fork-block-number',
  '--fork.headers': '--fork-header',
  '--fork.requestsPerSecond': '--fork-requests-per-second',
};

export function normalizeForkFlags(argv: readonly string[]): string[] {
  return argv.map((arg) => {
    const [flag, ...rest] = arg.split('=');
    const ours = FLAG_SPELLINGS[flag!];
    if (!ours) return arg;
    return rest.length > 0 ? `${ours}=${rest.join('=')}` : ours;
  });
}

type Fail = (option: string, problem: string) => Error;

export function defaultForkCacheDir(): string {
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'chain-sim', 'fork');
}

function blockNumberOf(value: unknown, option: string, fail: Fail): bigint | undefined {
  if (value === undefined || value === null || value === 'latest') return undefined;
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return BigInt(value.trim());
  if (typeof value === 'string' && /^0x[0-9a-fA-F]+$/.test(value.trim())) return BigInt(value.trim());
  throw fail(option, `expected a block number (negative counts back from the upstream head), got "${String(value)}"`);
}

export function headersOf(value: unknown, option: string, fail: Fail): Record<string, string> {
  const headers: Record<string, string> = {};
  if (value === undefined || value === null) return headers;
  const entries = typeof value === 'string' ? [value] : value;
  if (Array.isArray(entries)) {
    for (const entry of entries) {
      if (typeof entry === 'string') {
        const at = entry.indexOf(':');
        if (at <= 0) throw fail(option, `expected "Name: value", got "${entry}"`);
        headers[entry.slice(0, at).trim()] = entry.slice(at + 1).trim();
      } else if (typeof entry === 'object' && entry !== null && typeof entry.name === 'string' && typeof entry.value === 'string') {
        headers[entry.name] = entry.value;
      } else throw fail(option, 'expected "Name: value" strings or { name, value } objects');
    }
    return headers;
  }
  if (typeof entries === 'object') {
    for (const [name, text] of Object.entries(entries as Record<string, unknown>)) {
      if (typeof text !== 'string') throw fail(option, `header ${name}: expected a string value`);
      headers[name] = text;
    }
    return headers;
  }
  throw fail(option, 'expected headers');
}

function urlOf(value: unknown, option: string, fail: Fail): string {
  if (typeof value !== 'string' || value.trim() === '') throw fail(option, 'expected an http(s) URL');
  let parsed: URL;
  try {
    parsed = new URL(value.trim());
  } catch {
    throw fail(option, `"${value}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw fail(option, `only http and https upstreams are supported, got ${parsed.protocol}`);
  return value.trim();
}

function positive(value: number | undefined, option: string, fallback: number, min: number, max: number, fail: Fail): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max)
    throw fail(option, `expected a number between ${min} and ${max}, got "${String(value)}"`);
  return value;
}

function noRateLimitOf(input: ForkOptionsInput, fail: Fail): boolean {
  if (input.noRateLimit !== undefined && typeof input.noRateLimit !== 'boolean') throw fail('no-rate-limit', 'expected true or false');
  if (input.noRateLimit && input.computeUnitsPerSecond !== undefined)
    throw fail('no-rate-limit', 'give either --no-rate-limit or --compute-units-per-second, not both');
  return input.noRateLimit === true;
}

export function resolveForkDefaults(input: ForkOptionsInput, fail: Fail): ForkDefaults {
  if (input.forkCache !== undefined && typeof input.forkCache !== 'boolean') throw fail('fork-cache', 'expected true or false');
  if (input.forkCacheDir !== undefined && (typeof input.forkCacheDir !== 'string' || input.forkCacheDir === ''))
    throw fail('fork-cache-dir', 'expected a directory');
  return {
    headers: headersOf(input.forkHeader, 'fork-header', fail),
    retries: positive(input.forkRetries, 'fork-retries', FORK_ROWS.forkRetries.default, 0, 100, fail),
    timeoutMs: positive(input.forkTimeout, 'fork-timeout', FORK_ROWS.forkTimeout.default, 1, 3_600_000, fail),
    requestsPerSecond: positive(input.forkRequestsPerSecond, 'fork-requests-per-second', FORK_ROWS.forkRequestsPerSecond.default, 0, 1_000_000, fail),
    maxResponseBytes: positive(input.forkMaxResponseBytes, 'fork-max-response-bytes', DEFAULT_LIMITS.maxResponseBytes, 1024, 2 ** 31, fail),
    retryBackoffMs: positive(input.forkRetryBackoff, 'fork-retry-backoff', DEFAULT_LIMITS.retryBackoffMs, 0, 60_000, fail),
    computeUnitsPerSecond: noRateLimitOf(input, fail)
      ? Number.POSITIVE_INFINITY
      : positive(input.computeUnitsPerSecond, 'compute-units-per-second', DEFAULT_LIMITS.computeUnitsPerSecond, 1, 1_000_000_000, fail),
    cacheDir: input.forkCache === false ? null : (input.forkCacheDir ?? defaultForkCacheDir()),
  };
}

/** The fork to open at start-up, from whichever spelling was used; undefined: no fork. */
export function resolveFork(input: ForkOptionsInput, defaults: ForkDefaults, fail: Fail): ResolvedFork | undefined {
  let url: string | undefined;
  let blockNumber: bigint | undefined;
  let headers: Record<string, string> = {};
  if (typeof input.fork === 'string') {
    // URL@BLOCK (Anvil and Ganache both accept it); an @ inside the credentials part is not a block.
    const match = /^(.*)@(-?\d+)$/.exec(input.fork.trim());
    url = urlOf(match ? match[1] : input.fork, 'fork', fail);
    if (match) blockNumber = BigInt(match[2]!);
  } else if (typeof input.fork === 'object' && input.fork !== null) {
    refuseUnknownKeys('fork', input.fork, ['url', 'blockNumber', 'headers', 'jsonRpcUrl']);
    url = urlOf(input.fork.url ?? input.fork.jsonRpcUrl, 'fork.url', fail);
    blockNumber = blockNumberOf(input.fork.blockNumber, 'fork.blockNumber', fail);
    headers = headersOf(input.fork.headers, 'fork.headers', fail);
  } else if (input.fork !== undefined) throw fail('fork', 'expected a URL or { url, blockNumber, headers }');
  if (input.forking !== undefined) {
    if (typeof input.forking !== 'object' || input.forking === null) throw fail('forking', 'expected { url, blockNumber, httpHeaders, enabled }');
    refuseUnknownKeys('forking', input.forking, ['url', 'blockNumber', 'httpHeaders', 'enabled']);
    if (input.forking.enabled !== false) {
      if (url !== undefined) throw fail('forking', 'give either fork or forking, not both');
      url = urlOf(input.forking.url, 'forking.url', fail);
      blockNumber = blockNumberOf(input.forking.blockNumber, 'forking.blockNumber', fail);
      headers = headersOf(input.forking.httpHeaders, 'forking.httpHeaders', fail);
    }
  }
  const given = blockNumberOf(input.forkBlockNumber, 'fork-block-number', fail);
  if (url === undefined) {
    if (given !== undefined) throw fail('fork-block-number', 'needs a fork URL (--fork URL)');
    return undefined;
  }
  if (given !== undefined) {
    if (blockNumber !== undefined && blockNumber !== given) throw fail('fork-block-number', `conflicts with the block in the fork URL (${blockNumber})`);
    blockNumber = given;
  }
  return { ...defaults, url, blockNumber, headers: { ...defaults.headers, ...headers } };
}
