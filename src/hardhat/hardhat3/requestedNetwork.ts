/**
 * What a network.create() / connect() / getOrCreate() / createServer() call asked for, kept for
 * the `newConnection` hook it leads to. Hardhat 3 does not tell that hook which network it creates:
 * its default implementation resolves the name and config and starts an EDR provider, which
 * chain-sim would only close again. The `hre` hook (hreHooks.ts) wraps hre.network's methods so
 * that each call runs with its parameters in this store; networkHooks.ts resolves them as Hardhat
 * does where that is plain (no config override, the network's own chain type) and leaves the rest
 * to Hardhat.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestedNetwork {
  readonly network?: string;
  readonly chainType?: string;
  readonly override?: object;
}

export const requestedNetwork = new AsyncLocalStorage<RequestedNetwork>();

/** A call's first argument as Hardhat reads it: a network name, the parameters, or nothing. */
export function requestOf(networkOrParams: unknown): RequestedNetwork {
  if (typeof networkOrParams === 'string') return { network: networkOrParams };
  if (typeof networkOrParams !== 'object' || networkOrParams === null) return {};
  const { network, chainType, override } = networkOrParams as { network?: unknown; chainType?: unknown; override?: unknown };
  return {
    ...(typeof network === 'string' ? { network } : {}),
    ...(typeof chainType === 'string' ? { chainType } : {}),
    ...(typeof override === 'object' && override !== null ? { override } : {}),
  };
}
