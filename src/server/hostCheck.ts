/**
 * The Host-header allowlist that stops DNS-rebinding pages, as go-ethereum's `--http.vhosts`:
 * a page on evil.example that re-points its name at 127.0.0.1 reaches the node same-origin,
 * so CORS does not apply, but the browser still sends `Host: evil.example`.
 *
 * IP literals are always accepted, as go-ethereum does: a rebinding page is always reached
 * through a name it controls, never through an address, so an address in Host is harmless
 * (and keeps `--host 0.0.0.0` usable from other machines by IP).
 */
import type { IncomingMessage } from 'node:http';
import { isIPv4, isIPv6 } from 'node:net';

/** The names answered when no list is given; the bound host is added if it is a name. */
export const DEFAULT_ALLOWED_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** Answers whether a request's Host header may be served. */
export type HostCheck = (hostHeader: string | undefined) => boolean;

/** Addresses that mean "every interface": they name no host a client would type. */
const WILDCARDS = new Set(['', '0.0.0.0', '::', '[::]']);

/** RFC 3986's reg-name characters (an IPv4 address is one too), then an optional port. */
const NAME_AND_PORT = /^[a-z0-9\-._~!$&'()*+,;=%]+(:\d*)?$/i;
/** An IP literal in brackets, then an optional port: nothing else may follow the bracket. */
const IP_LITERAL_AND_PORT = /^\[([0-9a-f:.]+)\](:\d*)?$/i;

/**
 * Whether `hostHeader` is a Host header at all (RFC 9110 §7.2: host, then an optional port).
 * A malformed one such as `[::1]evil.com` must not be read as the address it starts with; a
 * bare IPv6 address (no brackets) is taken as the address it is.
 */
export function isWellFormedHost(hostHeader: string): boolean {
  const value = hostHeader.trim();
  const literal = IP_LITERAL_AND_PORT.exec(value);
  if (literal) return isIPv6(literal[1]!);
  return NAME_AND_PORT.test(value) || isIPv6Literal(value);
}

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

/** IPv6 entries are compared in brackets, as they appear in a Host header (an entry in brackets already is one). */
function normalise(entry: string): string {
  const name = entry.trim().toLowerCase();
  return !name.startsWith('[') && isIPv6Literal(name) ? `[${name}]` : name;
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
  // Wildcards first: `::` would otherwise cost Node's IPv6 check at every start.
  const bound = boundHost.trim().toLowerCase();
  if (!WILDCARDS.has(bound)) names.add(normalise(bound));
  return (hostHeader) => {
    // HTTP/1.0 clients may omit Host; browsers always send it, so there is nothing to guard.
    if (hostHeader === undefined || hostHeader === '') return true;
    if (!isWellFormedHost(hostHeader)) return false;
    const name = hostnameOf(hostHeader);
    return isAddress(name) || names.has(name);
  };
}

/** Why a request may not be served, as an HTTP status and a reason; undefined if it may. */
export interface HostRefusal {
  readonly status: 400 | 403;
  readonly message: string;
}

/**
 * The Host check of a whole request, for the HTTP and WebSocket sides alike. Node's parser
 * keeps the first of several Host headers and drops the others, so the check would see one
 * name while a proxy in front may have used another: more than one is refused, from the raw
 * headers, with 400 as go-ethereum's net/http answers it; so is a malformed one. A
 * well-formed name outside the allowlist gets 403.
 */
export function refuseHost(req: IncomingMessage, check: HostCheck): HostRefusal | undefined {
  let hosts = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === 'host') hosts++;
  if (hosts > 1) return { status: 400, message: 'too many Host headers' };
  const host = req.headers.host;
  if (host !== undefined && host !== '' && !isWellFormedHost(host)) return { status: 400, message: 'malformed Host header' };
  return check(host) ? undefined : { status: 403, message: 'invalid host specified' };
}
