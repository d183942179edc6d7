/**
 * The explorer page (docs/explorer.md): `GET /` answers the single-page app built by
 * scripts/bundle.mjs into dist/bundle/explorer/, and `GET /_ui/<file>` its scripts and styles.
 * Nothing is read at start: the folder is listed and each file read on the first GET that needs
 * it, then kept in memory (a node nobody opens in a browser pays nothing). The page itself is a
 * client of the node's public JSON-RPC (POST /) and WebSocket interface, like any other.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';

/** Where the explorer's files are asked for: `/` for the page, this prefix for the rest. */
export const EXPLORER_ASSET_PREFIX = '/_ui/';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  png: 'image/png',
  svg: 'image/svg+xml',
  json: 'application/json',
};

/**
 * The page runs with the node's authority (unlocked accounts), so it is locked down: scripts and
 * connections only to its own origin (`'self'` covers ws:// to the same host and port), no
 * framing by another site (clickjacking), no inline script, no referrer to anyone.
 */
const PAGE_HEADERS: OutgoingHttpHeaders = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

/**
 * The built files: next to the bundled CLI (dist/bundle/cli.cjs → dist/bundle/explorer/), or,
 * for the library's unbundled modules (dist/src/server/explorer.js), in the same folder.
 */
function explorerFolder(): string | undefined {
  const candidates = [new URL('./explorer/', import.meta.url), new URL('../../bundle/explorer/', import.meta.url)];
  for (const candidate of candidates) {
    const path = fileURLToPath(candidate);
    if (existsSync(`${path}index.html`)) return path;
  }
  return undefined;
}

export interface ExplorerFiles {
  /** Answers a GET or HEAD; false when `path` is none of the explorer's (the caller answers 404). */
  serve(path: string, req: IncomingMessage, res: ServerResponse): boolean;
}

/** The explorer's files, read lazily from `folder` (found next to the build when not given). */
export function createExplorerFiles(folder?: string): ExplorerFiles {
  let listed: { readonly folder: string; readonly names: ReadonlySet<string> } | null | undefined;
  const cache = new Map<string, Buffer>();
  const list = () => {
    if (listed !== undefined) return listed;
    const found = folder ?? explorerFolder();
    listed = found === undefined ? null : { folder: found, names: new Set(readdirSync(found)) };
    return listed;
  };
  return {
    serve(path, req, res) {
      const name = path === '/' ? 'index.html' : path.startsWith(EXPLORER_ASSET_PREFIX) ? path.slice(EXPLORER_ASSET_PREFIX.length) : undefined;
      if (name === undefined) return false;
      const files = list();
      if (files === null) {
        const body = 'the explorer was not built: run `npm run build` (or start with --no-ui)\n';
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) });
        res.end(req.method === 'HEAD' ? undefined : body);
        return true;
      }
      // Only names the folder holds: no path of the request reaches the file system.
      if (name === 'index.html' && path !== '/') return false;
      if (!files.names.has(name)) return false;
      let body = cache.get(name);
      if (body === undefined) {
        body = readFileSync(`${files.folder}${name}`);
        cache.set(name, body);
      }
      const type = CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
      res.writeHead(200, { ...PAGE_HEADERS, 'content-type': type, 'content-length': body.length });
      res.end(req.method === 'HEAD' ? undefined : body);
      return true;
    },
  };
}
