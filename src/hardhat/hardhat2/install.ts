/**
 * Hardhat 2: puts chain-sim under the `hardhat` network of a Hardhat Runtime Environment. Hardhat
 * builds `hre.network.provider` lazily (LazyInitializationProviderAdapter: the provider is created
 * on the first request) from `createProvider` (internal/core/providers/construction.js): the
 * network's own provider (EDR for `hardhat`), then the provider extenders (`extendProvider`), then
 * its wrappers for `from`, `gas`, `gasPrice` and `gasMultiplier` (applyProviderWrappers), then the
 * legacy send/sendAsync adapter. The plugin keeps every layer and replaces only the first: the
 * lazy adapter's factory builds chain-sim's provider where Hardhat's would build EDR, so EDR is
 * never loaded and nothing that holds `hre.network.provider` sees a different object.
 *
 * Hardhat's modules are required from the project (its config file's folder), so the classes are
 * those of the Hardhat that runs, even when chain-sim is linked from elsewhere. The settings are
 * checked when the runtime is created (a refusal stops Hardhat at once, as its own config errors
 * do); chain-sim itself is loaded by the first request, so tasks that never use the network
 * (compile, clean) pay nothing for it.
 */
import { createRequire } from 'node:module';
import { buildInfoFolder } from '../projectArtifacts.js';
import type { OptionError } from '../../options.js';
import { HardhatConfigError, checkHardhatNetwork } from './fields.js';
import type { HardhatNetworkSettings } from './networkConfig.js';
import type { HardhatNetworkProvider, HardhatProviderErrors } from './provider.js';
import type { Eip1193Provider, HardhatContext, HardhatNetworkConfig, HardhatNetworkUserConfig, HardhatRuntime } from './types.js';

export const HARDHAT_NETWORK_NAME = 'hardhat';
const PLUGIN_NAME = 'chain-sim';

interface LazyProvider {
  /** Hardhat's LazyInitializationProviderAdapter: the factory it calls on the first request. */
  _providerFactory?: () => Promise<unknown>;
  /** Set once the factory has run. */
  provider?: unknown;
}

type HardhatPluginErrorClass = new (pluginName: string, message: string, parent?: Error) => Error;

/** The environment extender: runs for every Hardhat Runtime Environment, acts on the `hardhat` network only. */
export function installOn(hre: HardhatRuntime, context: HardhatContext): void {
  if (hre.network.name !== HARDHAT_NETWORK_NAME) return;
  const hardhat = createRequire(hre.config.paths.configFile);
  const { HardhatPluginError } = hardhat('hardhat/plugins') as { HardhatPluginError: HardhatPluginErrorClass };
  const resolved = hre.config.networks[HARDHAT_NETWORK_NAME] as HardhatNetworkConfig;
  const user = hre.userConfig.networks?.[HARDHAT_NETWORK_NAME] as HardhatNetworkUserConfig | undefined;
  try {
    checkHardhatNetwork(resolved, user);
  } catch (error) {
    throw error instanceof HardhatConfigError ? new HardhatPluginError(PLUGIN_NAME, error.message, error) : error;
  }

  // The chain, once the network's first request has started it: a recompile reloads its artifacts.
  let started: HardhatNetworkProvider | undefined;
  reloadAfterCompile(hre, () => started);

  const factory = async (): Promise<unknown> => {
    const [{ hardhatNetworkSettings }, { HardhatNetworkProvider }, { artifactsOption }, { OPTION_DECLARATIONS, OptionError, resolveOptions }] =
      await Promise.all([import('./networkConfig.js'), import('./provider.js'), import('../projectArtifacts.js'), import('../../options.js')]);
    const settings = hardhatNetworkSettings(resolved, user);
    // The project's contracts, for decoded errors and Solidity stack traces (src/contracts/).
    settings.options.artifacts = artifactsOption(hre.config.paths.root, hre.config.paths.artifacts);
    // chain-sim's own checks of the mapped values, in Hardhat's field names.
    try {
      resolveOptions(settings.options);
    } catch (error) {
      if (error instanceof OptionError) throw new HardhatPluginError(PLUGIN_NAME, inHardhatTerms(error, settings, OPTION_DECLARATIONS), error);
      throw error;
    }
    const errors = hardhat('hardhat/internal/core/providers/errors') as HardhatProviderErrors;
    const { applyProviderWrappers } = hardhat('hardhat/internal/core/providers/construction') as {
      applyProviderWrappers: (provider: Eip1193Provider, config: unknown, extenders: unknown[]) => Eip1193Provider;
    };
    const { BackwardsCompatibilityProviderAdapter } = hardhat('hardhat/internal/core/providers/backwards-compatibility') as {
      BackwardsCompatibilityProviderAdapter: new (provider: Eip1193Provider) => unknown;
    };
    const network = new HardhatNetworkProvider(settings.options, settings, errors);
    started = network;
    let provider: Eip1193Provider = network;
    for (const extender of context.providerExtenders) provider = await extender(provider, hre.config, HARDHAT_NETWORK_NAME);
    provider = applyProviderWrappers(provider, resolved, [...context.providerExtenders]);
    return new BackwardsCompatibilityProviderAdapter(provider);
  };

  const current = hre.network.provider as LazyProvider;
  if (typeof current._providerFactory === 'function' && current.provider === undefined) {
    current._providerFactory = factory;
  } else {
    // Not Hardhat's lazy adapter as this plugin knows it (or already started): a new one in its place.
    const { LazyInitializationProviderAdapter } = hardhat('hardhat/internal/core/providers/lazy-initialization') as {
      LazyInitializationProviderAdapter: new (factory: () => Promise<unknown>) => unknown;
    };
    hre.network.provider = new LazyInitializationProviderAdapter(factory);
  }
}

/**
 * After Hardhat's compile task (run from the command line, by `hardhat test`, or by a script's
 * hre.run('compile')), the chain reads the project's build-info again.
 */
function reloadAfterCompile(hre: HardhatRuntime, chain: () => HardhatNetworkProvider | undefined): void {
  const run = hre.run;
  if (typeof run !== 'function') return;
  hre.run = async (task: unknown, ...rest: unknown[]) => {
    const result = await run.call(hre, task, ...rest);
    const name = typeof task === 'string' ? task : (task as { task?: unknown } | undefined)?.task;
    if (name === 'compile') await chain()?.reloadArtifacts(buildInfoFolder(hre.config.paths.artifacts));
    return result;
  };
}

/** chain-sim's complaint about an option, naming the Hardhat field it came from. */
function inHardhatTerms(error: OptionError, settings: HardhatNetworkSettings, declarations: readonly { key: string; flag: string }[]): string {
  const key = declarations.find((declaration) => declaration.flag === error.option)?.key ?? error.option;
  const field = settings.sources.get(key);
  return field === undefined ? error.message : new HardhatConfigError(field, error.problem).message;
}
