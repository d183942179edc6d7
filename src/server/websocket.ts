/**
 * JSON-RPC over WebSocket on the HTTP port, as Hardhat and Anvil serve it (go-ethereum's
 * --ws): every method, plus eth_subscribe notifications for the connection. The upgrade is
 * refused with 403 for a path, Host name or browser origin the HTTP side would refuse: a
 * browser lets any page open a WebSocket, so the origin check (--cors's list) is what keeps
 * other sites away from the unlocked accounts.
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { SimNode } from '../startup/node.js';
import type { KnownClient } from '../rpc/clientRules.js';
import { ErrorCode } from '../rpc/errors.js';
import { type FlowControl, HIGH_WATER_BYTES, openConnection } from '../rpc/subscriptions.js';
import { type HostCheck, refuseHost } from './hostCheck.js';
import { clientOf } from './userAgent.js';

/** What a connection needs of the node. */
type NodeParts = Pick<SimNode, 'chain' | 'filters' | 'dispatcher'>;

export interface WebSocketOptions {
  /** The largest message a client may send (--max-body-bytes); a larger one closes the connection (1009). */
  readonly maxMessageBytes: number;
  readonly hostCheck: HostCheck;
  /** Browser origins allowed to connect; clients that send no Origin (not browsers) always may. */
  readonly originAllowed: (origin: string) => boolean;
  /**
   * Whether a page served by this node (its Origin is `http://` + the request's Host, which the
   * Host check passed) may connect though --cors does not list it: the explorer opened at an
   * address outside the defaults (`--host 0.0.0.0`, reached by the machine's IP).
   */
  readonly sameOriginAllowed?: boolean;
  /** Internal: tests shorten how long a client may leave its notifications unread. */
  readonly stallMs?: number;
}

/** WebSocket close code for a subscriber dropped for falling behind (1008: policy violation). */
export const DROPPED_CLOSE_CODE = 1008;
/** After the close frame, how long a client that reads nothing keeps its connection (and its queued bytes). */
const CLOSE_GRACE_MS = 10_000;

export function serveWebSocket(http: Server, node: NodeParts, options: WebSocketOptions): WebSocketServer {
  const server = new WebSocketServer({ noServer: true, maxPayload: options.maxMessageBytes });
  http.on('upgrade', (req, socket, head) => {
    const path = (req.url ?? '/').split('?')[0];
    const origin = req.headers.origin;
    const refused = refuseHost(req, options.hostCheck);
    if (refused?.status === 400) {
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const sameOrigin = options.sameOriginAllowed === true && origin !== undefined && origin.toLowerCase() === `http://${req.headers.host ?? ''}`.toLowerCase();
    if (path !== '/' || refused || (origin !== undefined && !sameOrigin && !options.originAllowed(origin))) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    // A connection keeps the rules of the client its upgrade request named.
    const client = clientOf(req.headers);
    server.handleUpgrade(req, socket, head, (ws) => connect(ws, socket, node, options.stallMs, client));
  });
  return server;
}

function connect(ws: WebSocket, socket: Duplex, node: NodeParts, stallMs: number | undefined, client: KnownClient | undefined): void {
  const send = (message: unknown): void => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  const flow: FlowControl = {
    queuedBytes: () => ws.bufferedAmount,
    onceDrained: (resume) => {
      const check = () => {
        if (ws.bufferedAmount >= HIGH_WATER_BYTES) return;
        socket.off('drain', check);
        resume();
      };
      socket.on('drain', check);
      check();
      return () => socket.off('drain', check);
    },
    drop: (reason) => {
      if (ws.readyState !== ws.OPEN) return;
      // The close frame is the notice: a client that reads again gets what was queued, then it.
      ws.close(DROPPED_CLOSE_CODE, reason.slice(0, 123));
      setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
    },
    stallMs,
  };
  // A header notified to many subscriptions is one object (subscriptions.ts formats it once): serialized once too.
  const serialized = new WeakMap<object, string>();
  // A slice of notifications is sent synchronously: written to the socket in one go (one writev), not one syscall each.
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  const { dispatcher, subscriptions } = openConnection(
    node,
    (subscription, result) => {
      if (ws.readyState !== ws.OPEN) return;
      let json = typeof result === 'object' && result !== null ? serialized.get(result) : undefined;
      if (json === undefined) {
        json = JSON.stringify(result);
        if (typeof result === 'object' && result !== null) serialized.set(result, json);
      }
      if (!corked) {
        corked = true;
        socket.cork();
        process.nextTick(uncork);
      }
      // The id is a QUANTITY (hex digits): nothing in it needs escaping.
      ws.send(`{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${subscription}","result":${json}}}`);
    },
    flow,
    client,
  );
  // A client that sends requests but reads no answers: stop reading its requests until it has read.
  const answer = (response: unknown): void => {
    send(response);
    if (ws.bufferedAmount < HIGH_WATER_BYTES || ws.isPaused) return;
    ws.pause();
    flow.onceDrained(() => ws.resume());
  };
  ws.on('message', (data) => {
    let body: unknown;
    try {
      body = JSON.parse(data.toString());
    } catch {
      answer({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.parse, message: 'parse error: message is not valid JSON' } });
      return;
    }
    void dispatcher.handle(body).then((response) => {
      if (response !== undefined) answer(response);
    });
  });
  ws.on('close', () => subscriptions.close());
  // A protocol error or an oversized message: ws closes the connection itself.
  ws.on('error', () => {});
}
