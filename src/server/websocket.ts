/**
 * JSON-RPC over WebSocket on the HTTP port, as Hardhat and Anvil serve it (go-ethereum's
 * --ws): every method, plus eth_subscribe notifications for the connection. The upgrade is
 * refused with 403 for a path, Host name or browser origin the HTTP side would refuse: a
 * browser lets any page open a WebSocket, so the origin check (--cors's list) is what keeps
 * other sites away from the unlocked accounts.
 */
import type { Server } from 'node:http';
import { type WebSocket, WebSocketServer } from 'ws';
import type { SimNode } from '../node.js';
import { ErrorCode } from '../rpc/errors.js';
import { openConnection } from '../rpc/subscriptions.js';
import { type HostCheck, refuseHost } from './hostCheck.js';

/** What a connection needs of the node. */
type NodeParts = Pick<SimNode, 'chain' | 'filters' | 'dispatcher'>;

export interface WebSocketOptions {
  /** The largest message a client may send (--max-body-bytes); a larger one closes the connection (1009). */
  readonly maxMessageBytes: number;
  readonly hostCheck: HostCheck;
  /** Browser origins allowed to connect; clients that send no Origin (not browsers) always may. */
  readonly originAllowed: (origin: string) => boolean;
}

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
    if (path !== '/' || refused || (origin !== undefined && !options.originAllowed(origin))) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    server.handleUpgrade(req, socket, head, (ws) => connect(ws, node));
  });
  return server;
}

function connect(ws: WebSocket, node: NodeParts): void {
  const send = (message: unknown): void => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  const { dispatcher, subscriptions } = openConnection(node, (subscription, result) =>
    send({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription, result } }),
  );
  ws.on('message', (data) => {
    let body: unknown;
    try {
      body = JSON.parse(data.toString());
    } catch {
      send({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.parse, message: 'parse error: message is not valid JSON' } });
      return;
    }
    void dispatcher.handle(body).then((response) => {
      if (response !== undefined) send(response);
    });
  });
  ws.on('close', () => subscriptions.close());
  // A protocol error or an oversized message: ws closes the connection itself.
  ws.on('error', () => {});
}
