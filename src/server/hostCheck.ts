/**
 * The Host-header allowlist that stops DNS-rebinding pages, as go-ethereum's `--http.vhosts`:
 * a page on evil.example that re-points its name at 127.0.0.1 reaches the node same-origin,
 * so CORS does not apply, but the browser still sends `Host: evil.example`.
 *
 * IP literals are always accepted, as go-ethereum does: a rebinding page is always reached
 * through a name it controls, never through an address, so an address in Host is harmless
 * (and keeps `--host 0.0.0.0` usable from other machines by IP).
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The names answered when no list is given; the bound host is added if it is a name. */
export const DEFAULT_ALLOWED_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** Answers whether a request's Host header may be served. */
export type HostCheck = (hostHeader: string | undefined) => boolean;

/** Addresses that mean "every interface": they name no host a client would type. */
const WILDCARDS = new Set(['', '0.0.0.0', '::', '[::]']);

/** `Example.COM:8545` → `example.com`; `[::1]:8545` → `[::1]`; a bare IPv6 address is kept whole. */
export function hostnameOf(hostHeader: string): string {
  const value = hostHeader.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return end < 0 ? value : value.slice(0, end + 1);
  }
  const colon = value.indexOf(':');
  if (colon < 0) return value;
  return value.indexOf(':', colon + 1) < 0 ? value.slice(0, colon) : value;
}

/**
 * An IPv6 literal always has a colon. Node's IPv6 check is a large regular expression whose
 * first use compiles it (~7 ms), so names like `localhost` skip it, at start-up and per request.
 */
function isIPv6Literal(name: string): boolean {
  return name.includes(':') && isIPv6(name);
}

/** IPv6 entries are compared in brackets, as they appear in a Host header. */
function normalise(entry: string): string {
  const name = entry.trim().toLowerCase();
  return isIPv6Literal(name) ? `[${name}]` : name;
}

function isAddress(name: string): boolean {
  const bare = name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name;
  return isIPv4(bare) || isIPv6Literal(bare);
}

/**
 * `allowed` is the configured list (`*` allows every host); `boundHost` is the address the
 * server listens on, accepted too unless it is a wildcard.
 */
export function createHostCheck(allowed: readonly string[], boundHost: string): HostCheck {
  if (allowed.includes('*')) return () => true;
  const names = new Set(allowed.map(normalise));
  if (!WILDCARDS.has(normalise(boundHost))) names.add(normalise(boundHost));
  return (hostHeader) => {
    // HTTP/1.0 clients may omit Host; browsers always send it, so there is nothing to guard.
    if (hostHeader === undefined || hostHeader === '') return true;
    const name = hostnameOf(hostHeader);
    return isAddress(name) || names.has(name);
  };
}
