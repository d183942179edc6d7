/**
 * chain-sim/ganache: `import ganache from 'chain-sim/ganache'` (or `require`) in place of
 * `ganache`. provider(options) and server(options) take Ganache 7's options (and
 * ganache-core 2's flat names); the chain behind them is chain-sim's, answering the names
 * whose forms differ as Ganache does (compat 'ganache').
 */
import { EventEmitter } from 'node:events';
import { bytesToHex } from '@ethereumjs/util';
import { addressOfKey, deriveAccounts } from '../engine/index.js';
import type { SimNode } from '../startup/node.js';
import { OptionError, type ResolvedOptions, resolveOptions } from '../options.js';
import { ChainSimProvider, ProviderRpcError } from '../provider.js';
import type { Json } from '../rpc/json.js';
import { ChainSimServer, type ListeningInfo } from '../server/index.js';
import { GANACHE_DETERMINISTIC_MNEMONIC, type GanacheSettings, inGanacheTerms, mapGanacheOptions } from './options.js';

export { GANACHE_DETERMINISTIC_MNEMONIC, mapGanacheOptions };

export interface InitialAccount {
  readonly secretKey: string;
  readonly balance: bigint;
  readonly unlocked: boolean;
}

interface JsonRpcPayload {
  readonly jsonrpc?: string;
  readonly id?: unknown;
  readonly method: string;
  readonly params?: readonly unknown[];
}

interface JsonRpcResponse {
  jsonrpc: '2.0';
  id?: unknown;
  result?: Json;
  error?: { code: number; message: string; data?: Json };
}

// The response is one answer, or a list of them for a batch.
// biome-ignore lint/suspicious/noExplicitAny: a legacy callback is handed one answer or a batch; callers narrow it
type Callback = (error: Error | null, response?: any) => void;

/** Ganache's provider: EIP-1193 request(), the legacy send/sendAsync shapes, 'message' and 'data' events. */
export class GanacheProvider extends ChainSimProvider {
  private readonly initialAccounts: Record<string, InitialAccount>;

  /** Use provider(options); `settings` are Ganache's options, mapped. */
  constructor(settings: GanacheSettings) {
    const { options: mapped, unlockIndexes } = settings;
    // Resolved here as well so a bad option throws at once, as Ganache's constructor does.
    let resolved: ResolvedOptions;
    try {
      resolved = resolveOptions(mapped);
    } catch (error) {
      throw inGanacheTerms(error, settings);
    }
    const derived = deriveAccounts(resolved.mnemonic, resolved.accounts, resolved.derivationPath);
    for (const index of unlockIndexes) {
      if (index >= derived.length + resolved.accountKeys.length) throw new OptionError('wallet.unlockedAccounts', `there is no account ${index}`);
    }
    super(mapped);
    this.initialAccounts = {};
    for (const account of derived) {
      this.initialAccounts[account.address.toString()] = { secretKey: bytesToHex(account.privateKey), balance: resolved.balanceWei, unlocked: true };
    }
    for (const { privateKey, balance } of resolved.accountKeys) {
      this.initialAccounts[addressOfKey(privateKey).toString()] = {
        secretKey: bytesToHex(privateKey),
        balance: balance ?? resolved.balanceWei,
        unlocked: true,
      };
    }
    // web3.js 1.x listens for 'data' with the legacy notification shape.
    this.on('message', (message: { data: Json }) => this.emit('data', { jsonrpc: '2.0', method: 'eth_subscription', params: message.data }));
  }

  /** Ganache's words once disconnect() was called. */
  protected override disconnectedError(): ProviderRpcError {
    return new ProviderRpcError(4900, 'Cannot process request, Ganache is disconnected.');
  }

  /** The accounts present at start: address → { secretKey, balance (wei), unlocked }. */
  getInitialAccounts(): Record<string, InitialAccount> {
    return structuredClone(this.initialAccounts);
  }

  /** send(method, params) → Promise (deprecated in Ganache 7); send(payload or batch, callback) → legacy callback. */
  override send(method: string, params?: readonly unknown[]): Promise<Json>;
  override send(payload: JsonRpcPayload | JsonRpcPayload[], callback: Callback): void;
  override send(first: string | JsonRpcPayload | JsonRpcPayload[], second?: readonly unknown[] | Callback): Promise<Json> | undefined {
    if (typeof first === 'string') return this.request({ method: first, params: second as readonly unknown[] | undefined });
    this.legacy(first, second as Callback);
    return undefined;
  }

  override sendAsync(payload: JsonRpcPayload | JsonRpcPayload[], callback: Callback): void {
    this.legacy(payload, callback);
  }

  private legacy(payload: JsonRpcPayload | JsonRpcPayload[], callback: Callback): void {
    if (typeof callback !== 'function') throw new TypeError('send(payload, callback): the callback must be a function');
    if (Array.isArray(payload)) {
      // A batch: every answer in order; the callback's error is null, each entry carries its own.
      Promise.all(payload.map((one) => this.answer(one))).then((answers) =>
        callback(
          null,
          answers.map(([, response]) => response),
        ),
      );
      return;
    }
    this.answer(payload).then(([error, response]) => callback(error, response));
  }

  private async answer(payload: JsonRpcPayload): Promise<[Error | null, JsonRpcResponse]> {
    // A payload without an id is answered without one, as Ganache answers it.
    const id = payload !== null && typeof payload === 'object' && 'id' in payload ? { id: payload.id } : {};
    try {
      return [null, { jsonrpc: '2.0', ...id, result: await this.request(payload) }];
    } catch (error) {
      const e = error instanceof ProviderRpcError ? error : new ProviderRpcError(-32603, error instanceof Error ? error.message : String(error));
      return [e, { jsonrpc: '2.0', ...id, error: { code: e.code, message: e.message, ...(e.data === undefined ? {} : { data: e.data }) } }];
    }
  }
}

type ListenCallback = (error: Error | null) => void;

/** Ganache's server: listen(port, host?, callback?) (a promise without a callback), address(), close(), provider. */
export class GanacheServer extends EventEmitter {
  readonly provider: GanacheProvider;
  private readonly node: Promise<SimNode>;
  private server: ChainSimServer | undefined;
  private listening: ListeningInfo | undefined;
  private state: 'ready' | 'opening' | 'open' | 'closing' | 'closed' = 'ready';

  constructor(options: unknown = {}) {
    super();
    // The server shares its provider's node.
    this.provider = new GanacheProvider(mapGanacheOptions(options));
    this.node = this.provider.ready();
    this.node.catch(() => {}); // surfaced by listen() and the provider
  }

  get status(): string {
    return this.state;
  }

  listen(port: number | string, host?: string | ListenCallback, callback?: ListenCallback): Promise<void> | undefined {
    if (typeof host === 'function') [callback, host] = [host, undefined];
    const done = this.open(Number(port), host, port);
    if (!callback) return done;
    done.then(
      () => callback(null),
      (error: Error) => callback(error),
    );
    return undefined;
  }

  private async open(port: number, host: string | undefined, given: unknown): Promise<void> {
    if (!Number.isInteger(port) || port < 0 || port > 65535 || (typeof given === 'string' && given.trim() === '')) {
      throw new Error(`Port should be >= 0 and < 65536. Received ${String(given)}.`);
    }
    if (this.state !== 'ready') throw new Error(`Server is already ${this.state === 'closed' ? 'closed' : 'open, or is opening'}.`);
    this.state = 'opening';
    try {
      this.server = new ChainSimServer(await this.node);
      this.listening = await this.server.listen(port, host ?? '127.0.0.1');
      this.state = 'open';
      this.emit('open');
    } catch (error) {
      this.state = 'ready';
      throw error;
    }
  }

  address(): { address: string; family: string; port: number } | null {
    if (!this.listening) return null;
    return { address: this.listening.host, family: this.listening.host.includes(':') ? 'IPv6' : 'IPv4', port: this.listening.port };
  }

  async close(): Promise<void> {
    if (this.state === 'closing' || this.state === 'closed') throw new Error('Server is already closing or closed.');
    this.state = 'closing';
    // The port first (answering what it already took), then the provider, which refuses later requests as Ganache's does.
    if (this.server) await this.server.close();
    await this.provider.disconnect();
    this.listening = undefined;
    this.state = 'closed';
    this.emit('close');
  }
}

/** ganache.provider(options) */
export function provider(options: unknown = {}): GanacheProvider {
  return new GanacheProvider(mapGanacheOptions(options));
}

/** ganache.server(options) */
export function server(options: unknown = {}): GanacheServer {
  return new GanacheServer(options);
}

const ganache = { provider, server };
export default ganache;
