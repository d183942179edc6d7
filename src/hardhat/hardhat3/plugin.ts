/**
 * chain-sim as a Hardhat 3 plugin: `plugins: [chainSim, ...]` in defineConfig serves every
 * network of type `edr-simulated` from chain-sim in process (networkHooks.ts, with hreHooks.ts). Loading this costs
 * nothing: Hardhat imports the hooks, and they chain-sim, when a connection is first created.
 */
import { PLUGIN_ID } from './pluginId.js';

export interface Hardhat3Plugin {
  readonly id: string;
  readonly npmPackage: string;
  readonly hookHandlers: {
    readonly config: () => Promise<{ default: unknown }>;
    readonly hre: () => Promise<{ default: unknown }>;
    readonly network: () => Promise<{ default: unknown }>;
    readonly solidity: () => Promise<{ default: unknown }>;
  };
}

const chainSim: Hardhat3Plugin = {
  id: PLUGIN_ID,
  npmPackage: 'chain-sim',
  hookHandlers: {
    config: () => import('./configHooks.js'),
    hre: () => import('./hreHooks.js'),
    network: () => import('./networkHooks.js'),
    solidity: () => import('./solidityHooks.js'),
  },
};

export default chainSim;
