/**
 * Hardhat 3's `network` hooks for chain-sim: each connection to a network of type
 * `edr-simulated` (network.create(), connect(), getOrCreate(); Hardhat's `default` network among
 * them) is served by a chain-sim chain of its own, in process. The `newConnection` hook is not
 * told which network it creates, so the plugin lets Hardhat create the connection, takes its name,
 * id and resolved config (overrides included), closes Hardhat's simulated provider and answers
 * with a connection on chain-sim. Plugins that add to connections (hardhat-ethers, viem, the
 * network helpers) must run after this, on chain-sim's connection: chainSim comes first in
 * `plugins`, and a connection already extended is refused with that advice.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type ArtifactLike, contractLocator } from '../hardhat2/contractNames.js';
import { HardhatConfigError } from '../hardhat2/fields.js';
import { ChainSimConnection } from './connection.js';
import { hardhat3NetworkSettings } from './networkConfig.js';
import { Hardhat3Provider } from './provider.js';
import type { EdrNetworkConfig, HookContext, NetworkConnection } from './types.js';

import { PLUGIN_ID } from './pluginId.js';

/** What Hardhat's own connection has before any plugin adds to it. */
const BASE_FIELDS = new Set(['id', 'networkName', 'networkConfig', 'chainType', 'close', 'provider']);

/** chainSim was listed after a plugin that extends connections, which then extended Hardhat's (EDR) connection. */
export class PluginOrderError extends Error {
  constructor(readonly added: readonly string[]) {
    super(
      `the connection was already extended (${added.join(', ')}) when chain-sim received it: put chainSim first in the config's plugins, before hardhat-ethers, viem, the network helpers and the toolboxes, so that they extend chain-sim's connection`,
    );
    this.name = 'PluginOrderError';
  }
}

type PluginErrorClass = new (pluginId: string, message: string, parent?: Error) => Error;

/** Hardhat 3's HardhatPluginError (so that Hardhat prints the error as a plugin's), from the Hardhat that runs. */
async function pluginError(context: HookContext, error: Error): Promise<Error> {
  try {
    const fromProject = createRequire(path.join(context.config.paths.root, 'package.json'));
    const fromHardhat = createRequire(fromProject.resolve('hardhat/package.json'));
    const errors = (await import(pathToFileURL(fromHardhat.resolve('@nomicfoundation/hardhat-errors')).href)) as { HardhatPluginError?: PluginErrorClass };
    if (errors.HardhatPluginError) return new errors.HardhatPluginError(PLUGIN_ID, error.message, error);
  } catch {
    // Not found where Hardhat keeps it: the error as it is still says what is wrong.
  }
  return error;
}

async function onChainSim(context: HookContext, hardhats: NetworkConnection): Promise<NetworkConnection> {
  const added = Object.keys(hardhats).filter((key) => !BASE_FIELDS.has(key));
  if (added.length > 0) throw await pluginError(context, new PluginOrderError(added));
  let settings: Awaited<ReturnType<typeof hardhat3NetworkSettings>>;
  try {
    settings = await hardhat3NetworkSettings(hardhats.networkName, hardhats.networkConfig as EdrNetworkConfig);
  } catch (error) {
    throw error instanceof HardhatConfigError ? await pluginError(context, error) : error;
  }
  // chain-sim serves the connection; Hardhat's simulated provider goes at once.
  await hardhats.close();
  const connection = new ChainSimConnection(hardhats.id, hardhats.networkName, hardhats.networkConfig, hardhats.chainType, (closing) =>
    context.hooks.runHandlerChain('network', 'closeConnection', [closing], async (_context: unknown, conn: NetworkConnection) => {
      await (conn.provider as Hardhat3Provider).close();
    }),
  );
  const { artifacts } = context;
  const locate = contractLocator(async () =>
    Promise.all([...(await artifacts.getAllFullyQualifiedNames())].map(async (name) => (await artifacts.readArtifact(name)) as ArtifactLike)),
  );
  connection.provider = new Hardhat3Provider(settings, context.hooks, () => connection, locate);
  return connection;
}

export default async () => ({
  async newConnection(context: HookContext, next: (context: HookContext) => Promise<NetworkConnection>): Promise<NetworkConnection> {
    const connection = await next(context);
    return connection.networkConfig.type === 'edr-simulated' ? onChainSim(context, connection) : connection;
  },
});
