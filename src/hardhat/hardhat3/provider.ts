/**
 * The provider of a Hardhat 3 connection served by chain-sim. Hardhat 3's own providers hand
 * every request to the `onRequest` hook chain (Hardhat's request handlers for from, gas and
 * gasPrice, then other plugins') with the network's answer as the chain's end; this one does the
 * same with chain-sim's answer there, so every handler keeps running. Answers and errors are those
 * of chain-sim/hardhat's Hardhat 2 provider (hardhat2/provider.ts): Hardhat 3's network answers
 * in the same forms (EDR under both).
 */
import { EventEmitter } from 'node:events';
import { callbackify } from 'node:util';
import { HardhatNetworkProvider, RESET_EVENT, REVERT_SNAPSHOT_EVENT } from '../hardhat2/provider.js';
import type { HardhatNetworkSettings } from '../hardhat2/networkConfig.js';
import { OPEN_CHAINS } from './openChains.js';
import { InvalidArgumentsError, InvalidInputError, ProviderClosedError, ProviderError } from './errors.js';
import type { HookManager, JsonRpcRequest, JsonRpcResponse, NetworkConnection } from './types.js';

const EVENTS = ['message', 'notification', RESET_EVENT, REVERT_SNAPSHOT_EVENT];

export class Hardhat3Provider extends EventEmitter {
  #core: HardhatNetworkProvider | undefined;
  #nextId = 0;

  constructor(
    settings: HardhatNetworkSettings,
    private readonly hooks: HookManager,
    /** The connection this provider belongs to (the hook chain is told which). */
    private readonly connection: () => NetworkConnection,
  ) {
    super();
    this.#core = new HardhatNetworkProvider(settings.options, settings, { ProviderError, InvalidArgumentsError, InvalidInputError });
    OPEN_CHAINS.add(this);
    for (const event of EVENTS) this.#core.on(event, (...args: unknown[]) => this.emit(event, ...args));
  }

  async request({ method, params }: { readonly method: string; readonly params?: readonly unknown[] | object }): Promise<unknown> {
    const core = this.#core;
    if (core === undefined) throw new ProviderClosedError();
    const request: JsonRpcRequest = { jsonrpc: '2.0', id: this.#nextId++, method, params: params ?? [] };
    const answer = async (_context: unknown, _connection: NetworkConnection, next: JsonRpcRequest): Promise<JsonRpcResponse> => ({
      jsonrpc: '2.0',
      id: next.id,
      result: await core.request({ method: next.method, ...(next.params === undefined ? {} : { params: next.params }) }),
    });
    const response = await this.hooks.runHandlerChain('network', 'onRequest', [this.connection(), request], answer);
    // A handler may answer with an error response instead of throwing (Hardhat 3's providers turn it into a ProviderError).
    if ('error' in response) {
      const error = new ProviderError(response.error.message, response.error.code);
      error.data = response.error.data;
      throw error;
    }
    return response.result;
  }

  send(method: string, params?: readonly unknown[]): Promise<unknown> {
    return this.request({ method, ...(params === undefined ? {} : { params }) });
  }

  /** The legacy callback form, answered as Hardhat 3's providers answer it. */
  sendAsync(request: JsonRpcRequest, callback: (error: Error | null, response: JsonRpcResponse) => void): void {
    const answer = async (): Promise<JsonRpcResponse> => {
      try {
        return { jsonrpc: '2.0', id: request.id, result: await this.request(request) };
      } catch (error) {
        const e = error as Error & { code?: unknown };
        const code = Number.parseInt(`${e.code}`, 10);
        return { jsonrpc: '2.0', id: request.id, error: { code: Number.isNaN(code) ? -1 : code, message: e.message, data: { stack: e.stack, name: e.name } } };
      }
    };
    callbackify(answer)(callback as (error: NodeJS.ErrnoException | null, response: JsonRpcResponse) => void);
  }

  /** Reads the project's artifacts again (after a build), where the chain has started. */
  async reloadArtifacts(folder: string): Promise<void> {
    await this.#core?.reloadArtifacts(folder);
  }

  /** Ends the chain (connection.close() comes here); later requests are refused. */
  async close(): Promise<void> {
    const core = this.#core;
    this.#core = undefined;
    OPEN_CHAINS.delete(this);
    this.removeAllListeners();
    await core?.close();
  }
}
