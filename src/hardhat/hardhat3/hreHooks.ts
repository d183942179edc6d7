/**
 * Hardhat 3's `hre` hooks for chain-sim: once Hardhat has set up hre.network, its methods that
 * create connections run with what they were asked in requestedNetwork's store, so that the
 * `newConnection` hook can serve an edr-simulated network without Hardhat first starting (and
 * chain-sim then closing) an EDR provider.
 */
import { requestOf, requestedNetwork } from './requestedNetwork.js';

type NetworkMethod = (networkOrParams?: unknown, ...rest: unknown[]) => Promise<unknown>;

const CREATING = ['create', 'connect', 'getOrCreate', 'createServer'] as const;

export default async () => ({
  async created(_context: unknown, hre: { network?: Partial<Record<(typeof CREATING)[number], NetworkMethod>> }): Promise<void> {
    const network = hre.network;
    if (network === undefined) return;
    for (const name of CREATING) {
      const method = network[name];
      if (typeof method !== 'function') continue;
      network[name] = (networkOrParams?: unknown, ...rest: unknown[]) =>
        requestedNetwork.run(requestOf(networkOrParams), () => method.call(network, networkOrParams, ...rest));
    }
  },
});
