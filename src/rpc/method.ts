/**
 * A JSON-RPC method is a record: its names, its parameter decoders and a handler
 * that calls the engine and returns JSON. The record owns every name it answers to
 * (its aliases, a `chain_` method's `eth_` twin among them, and other tools' names that
 * answer in their own form), so a record answers to the same names in whichever file
 * it sits; table.ts only collects records.
 */
import type { ForkController } from '../fork/controller.js';
import type { ContractRegistry } from '../contracts/registry.js';
import type { Chain } from '../engine/chain.js';
import type { FilterManager } from '../engine/logs/filters.js';
import type { PowSealer } from '../engine/pow/sealer.js';
import type { ClientRules } from './clientRules.js';
import type { Decoder } from './codec.js';
import type { Subscriptions } from './subscriptions.js';
import { invalidParams } from './errors.js';
import { type ForkForwarding, forwardOnFork } from './forkForwarding.js';
import type { Json } from './json.js';

/** What a handler may use besides its decoded parameters. */
export interface RpcContext {
  readonly chain: Chain;
  readonly filters: FilterManager;
  /** The rules of the client this request comes from (clientRules.ts): which forms its answers take. */
  readonly rules: ClientRules;
  /** chain-sim's version (package.json), for web3_clientVersion. */
  readonly version: string;
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
  /** The project's contracts (--artifacts, chain_loadArtifacts): names and ABIs for failures and traces. */
  readonly contracts?: ContractRegistry;
  /** The node's console (its logger): explained failures are printed there. */
  readonly print?: (line: string) => void;
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

/** What the method table serves under a name. */
export interface RpcMethod {
  readonly name: string;
  readonly params: readonly Param<unknown>[];
  invoke(ctx: RpcContext, params: readonly unknown[]): Promise<Json>;
}

/** A method served under a name of its own, and the names that answer exactly as it does. */
export interface NamedMethod extends RpcMethod {
  readonly aliases: readonly string[];
}

/** What defineMethod makes: the method under its own name and aliases, and its variants. */
export interface MethodRecord extends NamedMethod {
  /** The same parameters and work under other tools' names, each answering in its tool's form. */
  readonly variants: readonly NamedMethod[];
}

type Handler<P extends readonly Param<unknown>[], R> = (ctx: RpcContext, ...args: Values<P>) => Promise<R> | R;

/** A name whose answer is the handler's value put in one tool's form (and any aliases that answer the same). */
export interface Variant<A extends readonly unknown[], R> {
  readonly name: string;
  readonly aliases?: readonly string[];
  /** The answer under this name, from the handler's value and the decoded arguments. */
  readonly answer: (value: R, ...args: A) => Json;
}

/**
 * The names of a record. `name` is its own (the reference lists it under it); every other
 * name it answers to is listed here, nothing is added by the table:
 * - `aliases`: names answered exactly as `name` is, e.g. `['eth_getBalance']` for
 *   `chain_getBalance` (the `eth_` twin is an alias like any other: list it) or
 *   `['hardhat_setBalance', 'anvil_setBalance']`;
 * - `variants`: other tools' names for the same work that answer in their own form, e.g.
 *   `{ name: 'hardhat_mine', answer: () => true }`. Each is served as a method of its own
 *   (its own row in the reference), with its own aliases if it has any.
 */
export interface MethodNames<A extends readonly unknown[], R> {
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly variants?: readonly Variant<A, R>[];
  /**
   * On a fork, what the upstream answers for this method under its name and aliases: state
   * before the pinned block, traces of the upstream's blocks and transactions (forkForwarding.ts).
   * History needs none: the engine reads the upstream's.
   */
  readonly forwardOnFork?: ForkForwarding<A>;
}

/**
 * A method record. `names` is the record's name, or its names (MethodNames). The handler's
 * value is the answer, unless `names.answer` puts it in form (then variants can put the same
 * value in their own forms, e.g. an offset as a quantity, a decimal string or a number).
 */
export function defineMethod<const P extends readonly Param<unknown>[]>(
  names: string | MethodNames<Values<P>, Json>,
  params: P,
  handler: Handler<P, Json>,
): MethodRecord;
export function defineMethod<const P extends readonly Param<unknown>[], R>(
  names: MethodNames<Values<P>, R> & { readonly answer: (value: R, ...args: Values<P>) => Json },
  params: P,
  handler: Handler<P, R>,
): MethodRecord;
export function defineMethod<const P extends readonly Param<unknown>[], R>(
  names: string | (MethodNames<Values<P>, R> & { readonly answer?: (value: R, ...args: Values<P>) => Json }),
  params: P,
  handler: Handler<P, R>,
): MethodRecord {
  const spec = typeof names === 'string' ? { name: names } : names;
  const required = params.filter((p) => !p.optional).length;
  const decode = (raw: readonly unknown[]): Values<P> => {
    if (raw.length > params.length) {
      throw invalidParams(`too many arguments, want at most ${params.length}`);
    }
    if (raw.length < required) {
      throw invalidParams(`missing value for required argument ${raw.length} (${params[raw.length]!.name})`);
    }
    return params.map((p, i) => p.decode(raw[i], `${i} (${p.name})`)) as Values<P>;
  };
  const served = (name: string, aliases: readonly string[] = [], answer?: (value: R, ...args: Values<P>) => Json): NamedMethod => ({
    name,
    params,
    aliases,
    invoke: answer
      ? async (ctx, raw) => {
          const args = decode(raw);
          return answer(await handler(ctx, ...args), ...args);
        }
      : // Without an answer form the handler's value is JSON (the first overload).
        async (ctx, raw) => handler(ctx, ...decode(raw)) as Promise<Json> | Json,
  });
  const own = served(spec.name, spec.aliases, spec.answer);
  const forwarding = spec.forwardOnFork;
  return {
    ...own,
    ...(forwarding && {
      async invoke(ctx: RpcContext, raw: readonly unknown[]): Promise<Json> {
        if (ctx.fork?.session) {
          const forwarded = await forwardOnFork(ctx, forwarding, decode(raw), raw, (params) => own.invoke(ctx, params));
          if (forwarded) return forwarded.answer;
        }
        return own.invoke(ctx, raw);
      },
    }),
    variants: (spec.variants ?? []).map((v) => served(v.name, v.aliases, v.answer)),
  };
}
