/**
 * A node behind its HTTP server (createRpcHttpServer), with the default Host and CORS checks
 * the CLI uses, on 127.0.0.1 at a port of the system's choosing: for tests of the server's
 * connection handling with their own body limit and timeouts.
 */
import { DEFAULT_CORS_ORIGINS, createCorsPolicy } from '../../src/server/cors.js';
import { DEFAULT_ALLOWED_HOSTS, createHostCheck } from '../../src/server/hostCheck.js';
import { type HttpTimeouts, type RpcHttpServer, createRpcHttpServer, listen } from '../../src/server/http.js';
import { type SimNode, startNode } from '../../src/startup/node.js';

export interface HttpNode {
  readonly node: SimNode;
  readonly server: RpcHttpServer;
  readonly port: number;
  readonly url: string;
  /** Close every connection, the server and the node. */
  close(): Promise<void>;
}

export async function startHttpNode(options: { readonly maxBodyBytes: number; readonly timeouts: Partial<HttpTimeouts> }): Promise<HttpNode> {
  const node = await startNode({ quiet: true });
  const server = createRpcHttpServer(node.dispatcher, {
    maxBodyBytes: options.maxBodyBytes,
    hostCheck: createHostCheck(DEFAULT_ALLOWED_HOSTS, '127.0.0.1'),
    cors: createCorsPolicy(DEFAULT_CORS_ORIGINS),
    timeouts: options.timeouts,
  });
  const { port } = await listen(server, 0, '127.0.0.1');
  return {
    node,
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      node.close();
    },
  };
}
