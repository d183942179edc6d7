/**
 * The parts of Hardhat 2 the plugin reads, written out structurally: chain-sim's types must not
 * depend on a Hardhat version (a Hardhat 3 project has other types under the same package name).
 * Field names and shapes are Hardhat 2's (hardhat/types/config.d.ts, runtime.d.ts).
 */

/** `networks.hardhat` as the user wrote it (hre.userConfig). */
export interface HardhatNetworkUserConfig {
  readonly chainId?: number;
  readonly from?: string;
  readonly gas?: 'auto' | number;
  readonly gasPrice?: 'auto' | number;
  readonly gasMultiplier?: number;
  readonly initialBaseFeePerGas?: number;
  readonly hardfork?: string;
  readonly mining?: { readonly auto?: boolean; readonly interval?: number | readonly [number, number]; readonly mempool?: { readonly order?: string } };
  readonly accounts?: readonly HardhatAccountUserConfig[] | HardhatHDAccountsUserConfig;
  readonly blockGasLimit?: number;
  readonly minGasPrice?: number | string;
  readonly throwOnTransactionFailures?: boolean;
  readonly throwOnCallFailures?: boolean;
  readonly allowUnlimitedContractSize?: boolean;
  readonly allowBlocksWithSameTimestamp?: boolean;
  readonly initialDate?: string;
  readonly loggingEnabled?: boolean;
  readonly forking?: HardhatForkingUserConfig;
  readonly coinbase?: string;
  readonly chains?: Readonly<Record<string, { readonly hardforkHistory?: Readonly<Record<string, number>> }>>;
  readonly enableTransientStorage?: boolean;
  readonly enableRip7212?: boolean;
}

export interface HardhatAccountUserConfig {
  readonly privateKey: string;
  readonly balance: string;
}

export interface HardhatHDAccountsUserConfig {
  readonly mnemonic?: string;
  readonly initialIndex?: number;
  readonly count?: number;
  readonly path?: string;
  readonly accountsBalance?: string;
  readonly passphrase?: string;
}

export interface HardhatForkingUserConfig {
  readonly enabled?: boolean;
  readonly url: string;
  readonly blockNumber?: number;
  readonly httpHeaders?: Readonly<Record<string, string>>;
}

/** `networks.hardhat` after Hardhat filled in its defaults (hre.config). */
export interface HardhatNetworkConfig {
  readonly chainId: number;
  readonly from?: string;
  readonly gas: 'auto' | number;
  readonly gasPrice: 'auto' | number;
  readonly gasMultiplier: number;
  readonly initialBaseFeePerGas?: number;
  readonly hardfork: string;
  readonly mining: { readonly auto: boolean; readonly interval: number | readonly [number, number]; readonly mempool: { readonly order: string } };
  readonly accounts: readonly HardhatAccountUserConfig[] | Required<HardhatHDAccountsUserConfig>;
  readonly blockGasLimit: number;
  readonly minGasPrice: bigint;
  readonly throwOnTransactionFailures: boolean;
  readonly throwOnCallFailures: boolean;
  readonly allowUnlimitedContractSize: boolean;
  readonly allowBlocksWithSameTimestamp?: boolean;
  readonly initialDate: string;
  readonly loggingEnabled: boolean;
  readonly forking?: Required<Omit<HardhatForkingUserConfig, 'blockNumber'>> & { readonly blockNumber?: number };
  readonly coinbase?: string;
  readonly enableTransientStorage?: boolean;
  readonly enableRip7212?: boolean;
}

/** An EIP-1193 provider as Hardhat 2 passes them between its layers (with events). */
export interface Eip1193Provider {
  request(args: { readonly method: string; readonly params?: readonly unknown[] | object }): Promise<unknown>;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

/** The Hardhat Runtime Environment, the parts the plugin reads and replaces. */
export interface HardhatRuntime {
  readonly config: {
    readonly networks: Readonly<Record<string, unknown>>;
    readonly paths: { readonly root: string; readonly configFile: string; readonly artifacts: string };
  };
  readonly userConfig: { readonly networks?: Readonly<Record<string, unknown>> };
  readonly network: { readonly name: string; readonly config: unknown; provider: unknown };
  /** Runs a task (`compile`, or `{ scope, task }`); the plugin wraps it to see compiles end. */
  run: (task: unknown, ...rest: unknown[]) => Promise<unknown>;
}

export type ProviderExtender = (provider: Eip1193Provider, config: unknown, network: string) => Eip1193Provider | Promise<Eip1193Provider>;

/** What `extendEnvironment` and `extendProvider` push into: Hardhat 2's context, a global while Hardhat runs. */
export interface HardhatContext {
  readonly environmentExtenders: Array<(hre: HardhatRuntime) => void>;
  readonly providerExtenders: readonly ProviderExtender[];
  /** Set once the Hardhat Runtime Environment exists: extenders added after that never run. */
  readonly environment?: unknown;
}
