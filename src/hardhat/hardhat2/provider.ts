/**
 * The provider under Hardhat 2's `hardhat` network with the plugin: chain-sim's in-process provider,
 * answering as Hardhat's in-process network (EDR) answers, which is not quite how `hardhat node`
 * answers over HTTP (chain-sim's `hardhatNode` forms):
 * - a failed execution throws Hardhat's revert error: Hardhat's message without the node's
 *   "Error: " prefix, `data` the revert payload as a string, `transactionHash` for a send; for an
 *   eth_call or eth_estimateGas too (go-ethereum's code 3 otherwise);
 * - other errors are Hardhat's ProviderError classes (the running Hardhat's, so `instanceof` and
 *   Hardhat's CLI treat them as its own); an unknown method is -32004 "Method X is not supported";
 * - throwOnTransactionFailures: false answers a failed send with its hash, throwOnCallFailures:
 *   false a reverted eth_call with its revert data;
 * - hardhat_reset without `forking` goes to a local chain even when the config forks (as Hardhat
 *   2's does), and emits `hardhatNetworkReset`; evm_revert emits `hardhatNetworkRevertSnapshot`;
 * - subscriptions arrive as EIP-1193 `message` events and as Hardhat's legacy `notification`;
 * - hardhat_getStackTraceFailuresCount (asked by `hardhat test`) answers 0 and
 *   hardhat_addCompilationResult (`hardhat node` after a recompile) true, as Hardhat's do;
 * - with the project's artifacts (the plugins pass Hardhat's artifacts folder as `artifacts`, and
 *   reloadArtifacts() after a recompile), a failure's message names its custom error and its
 *   stack starts with the Solidity frames (src/contracts/, as for every in-process provider).
 */
import { EventEmitter } from 'node:events';
import { hexToBytes } from '@ethereumjs/util';
import type { ChainSimOptions } from '../../options/table.js';
import { type ChainSimProvider, ProviderRpcError, createProvider, solidityStackLines } from '../../provider.js';
import { hardhatFailureMessage } from '../../rpc/hardhatErrors.js';
import { HardhatRevertError } from './revertError.js';

export { HardhatRevertError };

/** Hardhat 2's provider errors (hardhat/internal/core/providers/errors), from the Hardhat that runs. */
export interface HardhatProviderErrors {
  readonly ProviderError: new (message: string, code: number, parent?: Error) => Error & { data?: unknown };
  readonly InvalidArgumentsError: new (message: string, parent?: Error) => Error & { data?: unknown };
  readonly InvalidInputError: new (message: string, parent?: Error) => Error & { data?: unknown };
}

export const RESET_EVENT = 'hardhatNetworkReset';
export const REVERT_SNAPSHOT_EVENT = 'hardhatNetworkRevertSnapshot';

const SENDS = new Set(['eth_sendTransaction', 'eth_sendRawTransaction']);

export interface HardhatNetworkBehaviour {
  readonly throwOnTransactionFailures: boolean;
  readonly throwOnCallFailures: boolean;
}

export class HardhatNetworkProvider extends EventEmitter {
  /** The chain; built on the first request that needs one. */
  private inner: ChainSimProvider | undefined;
  /** Whether `inner` was started on the config's fork: a reset to a local chain then needs a new one. */
  private innerForked = false;
  private readonly relay = (message: { type: string; data: { subscription: string; result: unknown } }) => {
    this.emit('message', message);
    this.emit('notification', message.data);
  };

  constructor(
    private readonly options: ChainSimOptions,
    private readonly behaviour: HardhatNetworkBehaviour,
    private readonly errors: HardhatProviderErrors,
  ) {
    super();
  }

  async request(args: { readonly method: string; readonly params?: readonly unknown[] | object }): Promise<unknown> {
    const { method } = args;
    if (args.params !== undefined && !Array.isArray(args.params)) {
      throw new this.errors.InvalidInputError("Hardhat Network doesn't support JSON-RPC params sent as an object");
    }
    const params = (args.params ?? []) as readonly unknown[];
    switch (method) {
      case 'hardhat_getStackTraceFailuresCount':
        return 0;
      case 'hardhat_addCompilationResult':
        return true;
      case 'hardhat_reset':
        return this.reset(params);
    }
    try {
      const result = await this.chain().request({ method, params });
      if (method === 'evm_revert') this.emit(REVERT_SNAPSHOT_EVENT);
      return result;
    } catch (error) {
      return this.answerFailure(method, params, error);
    }
  }

  /** The chain-sim provider underneath (started if it was not), for what reads it directly. */
  chain(): ChainSimProvider {
    if (this.inner === undefined) {
      this.inner = this.start(this.options);
      this.innerForked = this.options.forking !== undefined;
    }
    return this.inner;
  }

  /**
   * Reads the project's artifacts again (after a recompile), so that failures are explained with
   * the new code at once rather than when the registry next looks at its files. Nothing to do
   * before the chain starts: it reads them then.
   */
  async reloadArtifacts(folder: string): Promise<void> {
    if (this.inner === undefined) return;
    try {
      await this.inner.request({ method: 'chain_loadArtifacts', params: [folder] });
    } catch (error) {
      // A folder without compiler output (nothing compiled) is no failure of the build that asked.
      if (!(error instanceof ProviderRpcError)) throw error;
    }
  }

  /** Stops the chain's background work (interval mining); the process exits without it too. */
  async close(): Promise<void> {
    await this.inner?.disconnect();
    this.inner = undefined;
  }

  private start(options: ChainSimOptions): ChainSimProvider {
    const provider = createProvider(options);
    provider.on('message', this.relay);
    return provider;
  }

  /** hardhat_reset: to a fork when `forking` names one, else to a local chain with the config's settings. */
  private async reset(params: readonly unknown[]): Promise<true> {
    const [config] = params;
    if (params.length > 1 || (config !== undefined && (typeof config !== 'object' || config === null || Array.isArray(config)))) {
      throw new this.errors.InvalidArgumentsError('hardhat_reset takes one optional argument, { forking: { jsonRpcUrl, blockNumber } }');
    }
    const forking = (config as { forking?: unknown } | undefined)?.forking;
    const startedForked = this.inner === undefined ? this.options.forking !== undefined : this.innerForked;
    if (forking === undefined && startedForked) {
      // chain-sim's own reset goes back to the fork it started on; Hardhat 2's leaves forking.
      const old = this.inner;
      const { forking: _started, ...local } = this.options;
      this.inner = this.start(local);
      this.innerForked = false;
      if (old !== undefined) {
        old.removeListener('message', this.relay);
        await old.disconnect();
      }
    } else {
      try {
        await this.chain().request({ method: 'hardhat_reset', params: [...params] });
      } catch (error) {
        await this.answerFailure('hardhat_reset', params, error);
        throw error; // not reached: only sends and calls are ever answered with a result
      }
    }
    this.emit(RESET_EVENT);
    return true;
  }

  /** A chain-sim error, answered in the form Hardhat's network gives (or a result, where Hardhat's settings say so). */
  private async answerFailure(method: string, params: readonly unknown[], error: unknown): Promise<never | string> {
    if (!(error instanceof ProviderRpcError)) throw error;
    const { code, data } = error;
    const sendFailure = sendFailureOf(data);
    if (sendFailure !== undefined) {
      if (!this.behaviour.throwOnTransactionFailures && SENDS.has(method)) return sendFailure.txHash;
      // The node's "Error: " prefix (Hardhat's HTTP server adds it) is not in-process Hardhat's.
      const message = sendFailure.message.replace(/^Error: /, '');
      if (code === -32000) throw this.providerError(message, code, { data: sendFailure.data, transactionHash: sendFailure.txHash });
      throw withFrames(new HardhatRevertError(message, sendFailure.data, sendFailure.txHash), error.decoded);
    }
    if (code === 3 && typeof data === 'string') {
      if (method === 'eth_call' && !this.behaviour.throwOnCallFailures) return data;
      // Hardhat's message, with the custom error named when the artifacts explain the failure.
      const explained = (error.decoded as { message?: unknown } | undefined)?.message;
      const message = typeof explained === 'string' ? explained : hardhatFailureMessage('revert', hexToBytes(data as `0x${string}`));
      throw withFrames(new HardhatRevertError(message, data, undefined), error.decoded);
    }
    if (code === -32601) throw this.providerError(`Method ${method} is not supported`, -32004, { method, params });
    if (code === -32602) {
      const invalid = new this.errors.InvalidArgumentsError(error.message);
      invalid.data = data;
      throw invalid;
    }
    throw this.providerError(error.message, code, data);
  }

  private providerError(message: string, code: number, data: unknown): Error {
    const error = new this.errors.ProviderError(message, code);
    error.data = data;
    return error;
  }
}

/** Hardhat's revert error with the failure's Solidity frames (when explained) on top of its stack. */
function withFrames(error: HardhatRevertError, decoded: unknown): HardhatRevertError {
  const lines = solidityStackLines(decoded);
  if (lines.length > 0 && error.stack !== undefined) {
    const [first, ...rest] = error.stack.split('\n');
    error.stack = [first, ...lines, ...rest].join('\n');
  }
  return error;
}

interface SendFailure {
  readonly message: string;
  readonly txHash: string;
  readonly data: string;
}

/** The data of a failed send in Hardhat's node form: { message, txHash, data }. */
function sendFailureOf(data: unknown): SendFailure | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { message, txHash, data: payload } = data as Partial<SendFailure>;
  return typeof txHash === 'string' && typeof message === 'string' && typeof payload === 'string' ? { message, txHash, data: payload } : undefined;
}
