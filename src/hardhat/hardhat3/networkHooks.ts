/**
 * Hardhat 3's `network` hooks for chain-sim: each connection to a network of type
 * `edr-simulated` (network.create(), connect(), getOrCreate(); Hardhat's `default` network among
 * them) is served by a chain-sim chain of its own, in process. The `newConnection` hook is not
 * told which network it creates. Where the call asked for a network's own config (no override, its
 * own chain type), which hreHooks.ts records, the hook resolves it as Hardhat does and answers
 * without calling Hardhat's default implementation, so that no EDR provider is started (nor the
 * contract decoder Hardhat builds from every build info for the first one). Otherwise it lets
 * Hardhat create the connection, takes its name, id and resolved config (overrides included),
 * closes Hardhat's simulated provider and answers with a connection on chain-sim. Plugins that add
 * to connections (hardhat-ethers, viem, the network helpers) must run after this, on chain-sim's
 * connection: chainSim comes first in `plugins`, and a connection already extended is refused with
 * that advice.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { HardhatConfigError } from '../hardhat2/fields.js';
import { artifactsOption } from '../projectArtifacts.js';
import { ChainSimConnection } from './connection.js';
import { hardhat3NetworkSettings } from './networkConfig.js';
import { Hardhat3Provider } from './provider.js';
import { requestedNetwork } from './requestedNetwork.js';
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

/** The connection Hardhat would create, as far as chain-sim needs it. */
type ConnectionIdentity = Pick<NetworkConnection, 'id' | 'networkName' | 'networkConfig' | 'chainType'>;

/**
 * Connections chain-sim creates without Hardhat's default implementation are numbered from here,
 * apart from the ids Hardhat gives those it creates (from 0; only EDR's logs read them).
 */
const OWN_CONNECTION_IDS = 1_000_000;
let nextConnectionId = OWN_CONNECTION_IDS;

/**
 * The network, chain type and config Hardhat would resolve for the call being served, when that is
 * the network's config as it stands; undefined when Hardhat must resolve it (an override, another
 * chain type, an unknown name, a call that did not come through hre.network) or when a plugin
 * listed before chain-sim has network hooks of its own (it must see Hardhat's connection: the
 * order check then speaks).
 */
function plainRequest(context: HookContext): ConnectionIdentity | undefined {
  const requested = requestedNetwork.getStore();
  if (requested === undefined || (requested.override !== undefined && Object.keys(requested.override).length > 0)) return undefined;
  const plugins = context.config.plugins;
  const ours = plugins?.findIndex((plugin) => plugin.id === PLUGIN_ID) ?? -1;
  if (ours < 0 || plugins!.slice(0, ours).some((plugin) => !plugin.id.startsWith('builtin:') && plugin.hookHandlers?.network !== undefined)) return undefined;
  const networkName = requested.network ?? context.globalOptions?.network ?? 'default';
  const config = context.config.networks?.[networkName];
  if (config?.type !== 'edr-simulated') return undefined;
  const defaultChainType = context.config.defaultChainType;
  const chainType = requested.chainType ?? config.chainType ?? defaultChainType;
  if (chainType === undefined) return undefined;
  // As Hardhat's network manager: the config itself, or with the default chain type filled in.
  if (chainType === config.chainType) return { id: nextConnectionId++, networkName, networkConfig: config, chainType };
  if (config.chainType === undefined && chainType === defaultChainType)
    return { id: nextConnectionId++, networkName, networkConfig: { ...config, chainType }, chainType };
  return undefined;
}

/** chain-sim's settings for the network, or Hardhat's plugin error naming the field it refuses. */
async function settingsFor(context: HookContext, identity: ConnectionIdentity): Promise<Awaited<ReturnType<typeof hardhat3NetworkSettings>>> {
  try {
    return await hardhat3NetworkSettings(identity.networkName, identity.networkConfig as EdrNetworkConfig);
  } catch (error) {
    throw error instanceof HardhatConfigError ? await pluginError(context, error) : error;
  }
}

function onChainSim(context: HookContext, identity: ConnectionIdentity, settings: Awaited<ReturnType<typeof hardhat3NetworkSettings>>): NetworkConnection {
  const connection = new ChainSimConnection(identity.id, identity.networkName, identity.networkConfig, identity.chainType, (closing) =>
    context.hooks.runHandlerChain('network', 'closeConnection', [closing], async (_context: unknown, conn: NetworkConnection) => {
      await (conn.provider as Hardhat3Provider).close();
    }),
  );
  // The project's contracts, for decoded errors and Solidity stack traces (src/contracts/).
  const { root, artifacts } = context.config.paths;
  const options = artifacts === undefined ? settings.options : { ...settings.options, artifacts: artifactsOption(root, artifacts) };
  connection.provider = new Hardhat3Provider({ ...settings, options }, context.hooks, () => connection);
  return connection;
}

/** Hardhat's own connection (resolved by Hardhat: overrides, other chain types) handed to chain-sim. */
async function fromHardhats(context: HookContext, hardhats: NetworkConnection): Promise<NetworkConnection> {
  const added = Object.keys(hardhats).filter((key) => !BASE_FIELDS.has(key));
  if (added.length > 0) throw await pluginError(context, new PluginOrderError(added));
  const settings = await settingsFor(context, hardhats);
  // chain-sim serves the connection; Hardhat's simulated provider goes at once.
  await hardhats.close();
  return onChainSim(context, hardhats, settings);
}

export default async () => ({
  async newConnection(context: HookContext, next: (context: HookContext) => Promise<NetworkConnection>): Promise<NetworkConnection> {
    const plain = plainRequest(context);
    if (plain !== undefined) return onChainSim(context, plain, await settingsFor(context, plain));
    const connection = await next(context);
    return connection.networkConfig.type === 'edr-simulated' ? fromHardhats(context, connection) : connection;
  },
});
