/**
 * Which browser origins may read the node's replies. By default only pages served from this
 * machine (`http://localhost:*`, `http://127.0.0.1:*`, `http://[::1]:*`), so a web page
 * elsewhere cannot read balances or drive the unlocked accounts through the user's browser.
 * An allowed origin is echoed back (with `Vary: Origin`); any other gets no CORS header, and
 * the browser withholds the reply (and never sends the POST after a failed preflight).
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

export const DEFAULT_CORS_ORIGINS: readonly string[] = ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'];

const ALLOW_METHODS = 'POST, OPTIONS';
const ALLOW_HEADERS = 'content-type, authorization';
const MAX_AGE_SECONDS = '600';

export type CorsPolicy = (headers: IncomingHttpHeaders, preflight: boolean) => OutgoingHttpHeaders;

/** Whether a browser origin is one of `origins`: exact origins, `scheme://host:*` for any port of a host, or `*` for every origin. */
export function createOriginCheck(origins: readonly string[]): (origin: string) => boolean {
  if (origins.includes('*')) return () => true;
  const exact = new Set<string>();
  const anyPort: string[] = [];
  for (const origin of origins) {
    const lower = origin.trim().toLowerCase();
    if (lower.endsWith(':*')) anyPort.push(lower.slice(0, -2));
    else exact.add(lower);
  }
  return (origin) => {
    const lower = origin.toLowerCase();
    if (exact.has(lower)) return true;
    return anyPort.some((base) => lower === base || (lower.startsWith(`${base}:`) && /^\d+$/.test(lower.slice(base.length + 1))));
  };
}

/** `origins` as createOriginCheck reads them. */
export function createCorsPolicy(origins: readonly string[]): CorsPolicy {
  const any = origins.includes('*');
  const allows = createOriginCheck(origins);
  return (headers, preflight) => {
    const origin = headers.origin;
    let allowOrigin: string | undefined;
    if (any) allowOrigin = '*';
    else if (typeof origin === 'string' && allows(origin)) allowOrigin = origin;
    // The answer depends on Origin unless every origin is allowed: caches must keep them apart.
    const out: OutgoingHttpHeaders = any ? {} : { vary: 'origin' };
    if (allowOrigin === undefined) return out;
    out['access-control-allow-origin'] = allowOrigin;
    if (preflight) {
      out['access-control-allow-methods'] = ALLOW_METHODS;
      out['access-control-allow-headers'] = ALLOW_HEADERS;
      out['access-control-max-age'] = MAX_AGE_SECONDS;
      // Chrome's Private Network Access: a public page allowed by --cors may reach a loopback node.
      if (headers['access-control-request-private-network'] === 'true') out['access-control-allow-private-network'] = 'true';
    }
    return out;
  };
}
