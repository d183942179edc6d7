/**
 * The in-process EIP-1193 provider: request() goes straight into the dispatcher,
 * with no HTTP and no JSON round trip.
 */
import { EventEmitter } from 'node:events';
import { type ChainSimOptions, resolveOptions } from './options.js';
import { type SimNode, startNode } from './startup/node.js';
import { encodeQuantity } from './rpc/encode.js';
import { RpcError } from './rpc/errors.js';
import { type Connection, openConnection } from './rpc/subscriptions.js';
import type { Json } from './rpc/json.js';

export interface RequestArguments {
  readonly method: string;
  readonly params?: readonly unknown[] | object;
}

/** EIP-1193's ProviderRpcError: an Error with a numeric code and optional data. */
export class ProviderRpcError extends Error {
  readonly code: number;
  readonly data: Json | undefined;
  /** A failure explained with the project's contracts, as over HTTP (docs/contracts.md); absent otherwise. */
  readonly decoded?: Json;
  constructor(code: number, message: string, data?: Json, decoded?: Json) {
    super(message);
    this.name = 'ProviderRpcError';
    this.code = code;
    this.data = data;
    if (decoded !== undefined) this.decoded = decoded;
  }
}

type LegacyCallback = (error: Error | null, response?: { jsonrpc: '2.0'; id: unknown; result?: Json; error?: object }) => void;

export class ChainSimProvider extends EventEmitter {
  private readonly node: Promise<SimNode>;
  /** This provider's view of the node: its own eth_subscribe state, notified as EIP-1193 'message' events. */
  private readonly connection: Promise<Connection>;
  /** Set by disconnect(): from then on request() refuses, and a second disconnect() waits for the first. */
  private disconnecting: Promise<void> | undefined;

  /** @throws OptionError for an option it refuses (an unknown name, a bad value), before any chain is built. */
  constructor(options: ChainSimOptions = {}) {
    super();
    // Checked here, synchronously, so a bad option throws at createProvider() instead of rejecting the first request;
    // startNode resolves again, merging in what the files it reads (state, fixtures, genesis) set.
    resolveOptions(options);
    this.node = startNode(options);
    this.connection = this.node.then((node) =>
      openConnection(node, (subscription, result) => this.emit('message', { type: 'eth_subscription', data: { subscription, result } })),
    );
    this.connection.catch(() => {}); // surfaced by request()
    this.node.then(
      (node) => {
        this.emit('connect', { chainId: encodeQuantity(node.chain.chainId) });
        // EIP-1193: anvil_setChainId (and a reset undoing it) changes the chain id.
        node.chain.on('chainChanged', (chainId) => this.emit('chainChanged', encodeQuantity(chainId)));
      },
      () => {}, // surfaced by ready() and request()
    );
  }

  /** Resolves once the chain is built (request() waits for it too). */
  async ready(): Promise<SimNode> {
    return this.node;
  }

  async request(args: RequestArguments): Promise<Json> {
    if (typeof args !== 'object' || args === null || typeof args.method !== 'string') {
      throw new ProviderRpcError(-32600, 'invalid request: expected { method: string, params?: array }');
    }
    if (this.disconnecting) throw this.disconnectedError();
    const { dispatcher } = await this.connection;
    try {
      return await dispatcher.call(args.method, args.params);
    } catch (error) {
      if (error instanceof RpcError) throw withSolidityStack(new ProviderRpcError(error.code, error.message, error.data, error.decoded));
      throw error;
    }
  }

  /** Stop background work (interval mining, filter sweeps) and save the state file, if any; the provider answers no further requests. */
  disconnect(): Promise<void> {
    this.disconnecting ??= this.close();
    return this.disconnecting;
  }

  /** What request() throws once disconnect() was called (EIP-1193's 4900, Disconnected). */
  protected disconnectedError(): ProviderRpcError {
    return new ProviderRpcError(4900, 'the provider is disconnected: disconnect() was called');
  }

  private async close(): Promise<void> {
    const node = await this.node;
    (await this.connection).subscriptions.close();
    node.close();
    await node.stateSaver?.save();
    this.emit('disconnect', new ProviderRpcError(4900, 'disconnected'));
  }

  /** Legacy web3 shapes: send(method, params) and sendAsync(payload, callback). */
  send(method: string, params?: readonly unknown[]): Promise<Json> {
    return this.request({ method, params });
  }

  sendAsync(payload: { id?: unknown; method: string; params?: readonly unknown[] }, callback: LegacyCallback): void {
    this.request(payload).then(
      (result) => callback(null, { jsonrpc: '2.0', id: payload.id ?? null, result }),
      (error: unknown) => {
        const e = error instanceof ProviderRpcError ? error : new ProviderRpcError(-32603, 'internal error');
        callback(e, {
          jsonrpc: '2.0',
          id: payload.id ?? null,
          error: { code: e.code, message: e.message, data: e.data, ...(e.decoded === undefined ? {} : { decoded: e.decoded }) },
        });
      },
    );
  }
}

/**
 * An explained failure's Solidity frames as the lines of a JavaScript stack, as Hardhat's
 * in-process network gives them: `at Token._transfer (contracts/Token.sol:63)`, innermost first
 * (none when the failure was not explained: no artifacts, or code they do not hold).
 */
export function solidityStackLines(decoded: unknown): string[] {
  const frames = (decoded as { stack?: unknown } | undefined)?.stack;
  if (!Array.isArray(frames)) return [];
  return frames.map((frame: { contract?: string; function?: string; file?: string; address?: string; line?: number }) => {
    const where = `${frame.file ?? frame.address ?? 'unknown'}${frame.line === undefined ? '' : `:${frame.line}`}`;
    return `    at ${frame.contract}.${frame.function} (${where})`;
  });
}

/** The error with its explained failure's Solidity frames on top of its JavaScript stack. */
function withSolidityStack(error: ProviderRpcError): ProviderRpcError {
  const lines = solidityStackLines(error.decoded);
  if (lines.length === 0 || error.stack === undefined) return error;
  const [head, ...rest] = error.stack.split('\n');
  error.stack = [head, ...lines, ...rest].join('\n');
  return error;
}

/**
 * An in-process EIP-1193 provider; the chain is built in the background and the first request waits for it.
 * @throws OptionError for an option it refuses (UnknownOptionError for a name that is no option).
 */
export function createProvider(options: ChainSimOptions = {}): ChainSimProvider {
  return new ChainSimProvider(options);
}
