/**
 * A JSON-RPC method is a record: its name, its parameter decoders and a handler
 * that calls the engine and returns JSON. The method table is built from these
 * records, so aliases are data, not code.
 */
import type { ForkController } from '../fork/controller.js';
import type { Chain } from '../engine/chain.js';
import type { FilterManager } from '../engine/filters.js';
import type { PowSealer } from '../engine/pow/sealer.js';
import type { Decoder } from './codec.js';
import type { Subscriptions } from './subscriptions.js';
import { invalidParams } from './errors.js';
import type { Json } from './json.js';

/** What a handler may use besides its decoded parameters. */
export interface RpcContext {
  readonly chain: Chain;
  readonly filters: FilterManager;
  readonly clientVersion: string;
  /** net_version's answer when it is not the chain id (--network-id). */
  readonly networkId?: bigint;
  /** Whether each call is logged (--verbose; chain_setLoggingEnabled switches it). */
  readonly requestLog: { enabled: boolean };
  /** Forking (fork/controller.ts): the open fork session, if any, and resets to other fork points. */
  readonly fork?: ForkController;
  /** Present in proof-of-work mode (--mining pow). */
  readonly pow?: PowSealer;
  /**
   * Which tool's rules a name shared by Hardhat and Anvil follows (evm_setIntervalMining): the
   * family of the last anvil_/hardhat_ method called on this node (dispatch.ts), Hardhat's before any.
   */
  readonly dialect?: { current: 'hardhat' | 'anvil' };
  /** The connection's eth_subscribe state; absent over plain HTTP, which cannot push. */
  readonly subscriptions?: Subscriptions;
}

export interface Param<T> {
  readonly name: string;
  readonly decode: Decoder<T>;
  /** Optional parameters may be omitted or null; the handler receives undefined. */
  readonly optional: boolean;
}

export function param<T>(name: string, decode: Decoder<T>): Param<T> {
  return { name, decode, optional: false };
}

export function optionalParam<T>(name: string, decode: Decoder<T>): Param<T | undefined> {
  return {
    name,
    decode: (value, path) => (value === undefined || value === null ? undefined : decode(value, path)),
    optional: true,
  };
}

type Values<P extends readonly Param<unknown>[]> = { [K in keyof P]: P[K] extends Param<infer T> ? T : never };

export interface RpcMethod {
  readonly name: string;
  readonly params: readonly Param<unknown>[];
  invoke(ctx: RpcContext, params: readonly unknown[]): Promise<Json>;
}

export function defineMethod<const P extends readonly Param<unknown>[]>(
  name: string,
  params: P,
  handler: (ctx: RpcContext, ...args: Values<P>) => Promise<Json> | Json,
): RpcMethod {
  const required = params.filter((p) => !p.optional).length;
  return {
    name,
    params,
    async invoke(ctx, raw) {
      if (raw.length > params.length) {
        throw invalidParams(`too many arguments, want at most ${params.length}`);
      }
      if (raw.length < required) {
        throw invalidParams(`missing value for required argument ${raw.length} (${params[raw.length]!.name})`);
      }
      const args = params.map((p, i) => p.decode(raw[i], `${i} (${p.name})`)) as Values<P>;
      return handler(ctx, ...args);
    },
  };
}
