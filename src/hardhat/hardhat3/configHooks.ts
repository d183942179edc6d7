/**
 * Hardhat 3's `config` hooks for chain-sim: chainSim must come first in `plugins`, so that the
 * plugins that extend network connections (hardhat-ethers, viem, the network helpers, the toolboxes
 * that bring them) extend chain-sim's connections rather than Hardhat's own (networkHooks.ts).
 * Said when the config loads, before anything runs; networkHooks.ts checks the connection too.
 */
import { PLUGIN_ID } from './pluginId.js';

interface ValidationError {
  readonly path: (string | number)[];
  readonly message: string;
}

export async function validateUserConfig(config: { readonly plugins?: readonly ({ readonly id?: string } | undefined)[] }): Promise<ValidationError[]> {
  const plugins = config.plugins ?? [];
  const index = plugins.findIndex((plugin) => plugin?.id === PLUGIN_ID);
  if (index <= 0) return [];
  const before = plugins
    .slice(0, index)
    .map((plugin) => plugin?.id ?? '?')
    .join(', ');
  return [
    {
      path: ['plugins', index],
      message: `chainSim must come first in plugins (it comes after ${before}): the plugins before it would extend Hardhat's own simulated connections instead of chain-sim's`,
    },
  ];
}

export default async () => ({ validateUserConfig });
