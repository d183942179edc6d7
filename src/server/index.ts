import type { Server } from 'node:http';
import type { ChainSimOptions } from '../options.js';
import { type SimNode, startNode } from '../startup/node.js';
import { createCorsPolicy, createOriginCheck } from './cors.js';
import { createHostCheck } from './hostCheck.js';
import { createExplorerFiles } from './explorer.js';
import { createBusyPoll } from './busyPoll.js';
import { type HttpTimeouts, createRpcHttpServer, listen } from './http.js';
import { serveWebSocket } from './websocket.js';
import type { WebSocketServer } from 'ws';
import type { SaveReport } from '../persistence/persistence.js';

export interface ListeningInfo {
  readonly host: string;
  readonly port: number;
  readonly url: string;
}

/** A simulator behind an HTTP JSON-RPC endpoint. */
export class ChainSimServer {
  private http: Server | undefined;
  private webSocket: WebSocketServer | undefined;
  private readonly sockets = new Set<import('node:net').Socket>();

  /** @param timeouts internal: tests shorten the slow-client timeouts (subscriberStallMs: a WebSocket subscriber's). */
  constructor(
    readonly node: SimNode,
    private readonly timeouts: Partial<HttpTimeouts> & { readonly subscriberStallMs?: number } = {},
  ) {
    // As Hardhat's node: failed calls and sends are printed with their Solidity stack (docs/contracts.md).
    node.failureLog.enabled = true;
  }

  async listen(port = this.node.options.port, host = this.node.options.host): Promise<ListeningInfo> {
    if (this.http) throw new Error('server is already listening');
    const { maxBodyBytes, allowedHosts, cors, busyPoll, ui } = this.node.options;
    const hostCheck = createHostCheck(allowedHosts, host);
    const http = createRpcHttpServer(this.node.dispatcher, {
      maxBodyBytes,
      afterAnswer: createBusyPoll(busyPoll),
      hostCheck,
      cors: createCorsPolicy(cors),
      timeouts: this.timeouts,
      explorer: ui ? createExplorerFiles() : undefined,
    });
    this.webSocket = serveWebSocket(http, this.node, {
      maxMessageBytes: maxBodyBytes,
      hostCheck,
      originAllowed: createOriginCheck(cors),
      sameOriginAllowed: ui,
      stallMs: this.timeouts.subscriberStallMs,
    });
    http.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    const address = await listen(http, port, host);
    this.http = http;
    const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return { host: address.address, port: address.port, url: `http://${shownHost}:${address.port}` };
  }

  /** Stop accepting connections, close idle keep-alive sockets, then save the state file (if any): what the save did. */
  async close(): Promise<SaveReport | undefined> {
    for (const client of this.webSocket?.clients ?? []) client.terminate();
    this.webSocket?.close();
    this.node.close();
    const http = this.http;
    this.http = undefined;
    // Saved after the last request is answered, so a send the client saw succeed is in the file.
    if (http) await this.closeHttp(http);
    return this.node.stateSaver?.save();
  }

  private async closeHttp(http: Server): Promise<void> {
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeIdleConnections();
      // Sockets still busy get a moment to finish, then go.
      setTimeout(() => {
        for (const socket of this.sockets) socket.destroy();
      }, 1000).unref();
    });
  }
}

/**
 * Build the chain and return a server ready to listen (call listen() to open the port). Rejects
 * with OptionError for an option it refuses (startNode resolves the options before it builds the
 * chain or reads a file).
 */
export async function createServer(options: ChainSimOptions = {}): Promise<ChainSimServer> {
  return new ChainSimServer(await startNode(options));
}
