/**
 * JSON-RPC over HTTP: `POST /`; `GET /` and `/_ui/*` serve the explorer page unless --no-ui
 * (explorer.ts). HTTP-level faults use http-errors (403, 404, 405,
 * 413, 415); JSON-RPC errors travel inside HTTP 200, as go-ethereum sends them.
 */
import { isLargeAnswer, writeLargeJson } from './jsonBody.js';
import { type IncomingMessage, type OutgoingHttpHeaders, Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import createHttpError, { type HttpError } from 'http-errors';
import type { Dispatcher } from '../rpc/dispatch.js';
import { ErrorCode } from '../rpc/errors.js';
import type { CorsPolicy } from './cors.js';
import type { ExplorerFiles } from './explorer.js';
import { type HostCheck, refuseHost } from './hostCheck.js';
import { clientOf } from './userAgent.js';
import { clip } from '../engine/index.js';
import { FastHttpPath } from './fastHttp.js';
import { isJsonMediaType, mediaTypeOf } from './contentType.js';

/** How long a slow or idle client may hold a socket. */
export interface HttpTimeouts {
  /** Until the request headers are complete. */
  readonly headersMs: number;
  /** Until the whole request (headers and body) has arrived. */
  readonly requestMs: number;
  /** An idle keep-alive socket between requests. */
  readonly keepAliveMs: number;
  /** How often Node looks for sockets past headersMs / requestMs (its default, 30 s, would stretch them). */
  readonly checkIntervalMs: number;
}

/**
 * Idle keep-alive sockets stay 120 s, go-ethereum's idle timeout: Node's HTTP client reuses a
 * kept-alive socket without knowing the server closed it, so a client that pauses longer
 * than the server's timeout (a test signing or compiling between requests) would see
 * "socket hang up" on its next request.
 */
export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 120_000, checkIntervalMs: 1_000 };

export interface HttpOptions {
  readonly maxBodyBytes: number;
  /** Which Host headers are served (DNS-rebinding guard); others get 403. */
  readonly hostCheck: HostCheck;
  /** CORS headers for a request's Origin. */
  readonly cors: CorsPolicy;
  /** Shorter in tests; the defaults otherwise. */
  readonly timeouts?: Partial<HttpTimeouts>;
  /** Called after each answer (busyPoll.ts). */
  readonly afterAnswer?: () => void;
  /** The explorer page, answered to GET and HEAD; absent (--no-ui): GET gets 405 as any other method but POST. */
  readonly explorer?: ExplorerFiles;
}

function send(res: ServerResponse, status: number, body: string, headers: OutgoingHttpHeaders): void {
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** An HTTP fault, with a JSON-RPC error body so JSON clients can still read why. */
function sendHttpError(res: ServerResponse, error: HttpError, headers: OutgoingHttpHeaders, rpcCode: number = ErrorCode.invalidRequest): void {
  if (error.status === 405) res.setHeader('allow', 'POST, OPTIONS');
  // A malformed request (duplicate or bad Host) may be a smuggling attempt: nothing more on that connection.
  if (error.status === 413 || error.status === 400) res.setHeader('connection', 'close');
  send(res, error.status, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: rpcCode, message: error.message } }), headers);
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      reject(createHttpError(413, `request body too large: ${declared} bytes, at most ${limit}`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(createHttpError(413, `request body too large: more than ${limit} bytes`));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks, size)));
    req.on('error', reject);
    req.on('aborted', () => reject(createHttpError(400, 'request aborted')));
  });
}

/**
 * Node's HTTP server with a faster way in (fastHttp.ts): every connection starts on the fast
 * path, and Node's own connection handling takes those that send anything else. Closing idle
 * or all connections closes the fast path's too (close() calls closeIdleConnections).
 */
export class RpcHttpServer extends Server {
  readonly fast: FastHttpPath;

  constructor(
    options: ServerOptions,
    handler: (req: IncomingMessage, res: ServerResponse) => void,
    fastPath: (handOff: (socket: Socket) => void) => FastHttpPath,
  ) {
    super(options, handler);
    // Node's server reads a connection through its 'connection' listener: it becomes the hand-off.
    const nodeListeners = this.listeners('connection') as ((socket: Socket) => void)[];
    this.removeAllListeners('connection');
    this.fast = fastPath((socket) => {
      for (const listener of nodeListeners) listener.call(this, socket);
    });
    this.on('connection', (socket: Socket) => this.fast.adopt(socket));
  }

  override closeIdleConnections(): void {
    super.closeIdleConnections();
    this.fast.closeIdle();
  }

  override closeAllConnections(): void {
    super.closeAllConnections();
    this.fast.closeAll();
  }
}

export function createRpcHttpServer(dispatcher: Dispatcher, options: HttpOptions): RpcHttpServer {
  const timeouts = { ...DEFAULT_HTTP_TIMEOUTS, ...options.timeouts };
  // Each request is answered under the rules of the client that sent it (rpc/clientRules.ts).
  const answer = (headers: IncomingMessage['headers'], body: unknown) => dispatcher.forClient(clientOf(headers)).handle(body);
  // Slow or stalled clients must not hold sockets forever: Node answers 408 and closes them.
  const server: RpcHttpServer = new RpcHttpServer(
    { headersTimeout: timeouts.headersMs, requestTimeout: timeouts.requestMs, connectionsCheckingInterval: timeouts.checkIntervalMs },
    async (req, res) => {
      const cors = options.cors(req.headers, req.method === 'OPTIONS');
      try {
        const refused = refuseHost(req, options.hostCheck);
        if (refused) throw createHttpError(refused.status, refused.message);
        const path = (req.url ?? '/').split('?')[0]!;
        // After the Host check: a DNS-rebinding page gets the page no more than it gets answers.
        if (options.explorer && (req.method === 'GET' || req.method === 'HEAD') && options.explorer.serve(path, req, res)) return;
        if (path !== '/') throw createHttpError(404, `not found: only POST / is served`);
        if (req.method === 'OPTIONS') {
          res.writeHead(204, cors);
          res.end();
          return;
        }
        if (req.method !== 'POST') throw createHttpError(405, `method ${req.method} not allowed: use POST`);
        const type = mediaTypeOf(req.headers['content-type']);
        if (!isJsonMediaType(type)) {
          throw createHttpError(415, `invalid content type "${clip(type)}", only application/json is supported`);
        }
        const raw = await readBody(req, options.maxBodyBytes);
        let body: unknown;
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          send(res, 200, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.parse, message: 'parse error: body is not valid JSON' } }), cors);
          return;
        }
        const response = await answer(req.headers, body);
        // A large answer (a long trace) is written a slice at a time, letting other clients in.
        if (isLargeAnswer(response)) await writeLargeJson(res, response, cors);
        else send(res, 200, response === undefined ? '' : JSON.stringify(response), cors);
        options.afterAnswer?.();
      } catch (error) {
        // A client that went away (timeout, abort) has nobody left to answer.
        if (res.headersSent || res.destroyed) return;
        sendHttpError(res, createHttpError.isHttpError(error) ? error : createHttpError(500, 'internal error'), cors);
      }
    },
    (handOff) =>
      new FastHttpPath({
        limits: { maxBodyBytes: options.maxBodyBytes, hostAllowed: options.hostCheck },
        headersMs: timeouts.headersMs,
        keepAliveMs: timeouts.keepAliveMs,
        answer,
        answerHeaders: (headers) => options.cors(headers, false),
        afterAnswer: options.afterAnswer,
        open: () => server.listening,
        handOff,
      }),
  );
  server.keepAliveTimeout = timeouts.keepAliveMs;
  return server;
}

/**
 * Node's default accept backlog (511) makes a burst of more connections (many parallel test
 * workers) wait out 1 s SYN retries; the kernel caps this at net.core.somaxconn.
 */
const LISTEN_BACKLOG = 4096;

export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}
