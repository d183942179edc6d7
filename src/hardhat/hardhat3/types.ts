/**
 * The parts of Hardhat 3 the plugin uses, written out structurally (chain-sim's types cannot name
 * Hardhat 3's package: a Hardhat 2 project has other types under the same name). Shapes are
 * Hardhat 3.18's (hardhat/types/hooks, network, config; the network manager's type extensions).
 */

/** A configuration variable, resolved (Hardhat 3 keeps keys and URLs behind these). */
export interface ResolvedConfigurationVariable {
  get(): Promise<string>;
  getUrl(): Promise<string>;
  getHexString(): Promise<string>;
}

/** A network of type `edr-simulated`, resolved (with the overrides of network.create(), if any). */
export interface EdrNetworkConfig {
  readonly type: 'edr-simulated';
  readonly accounts:
    | readonly { readonly balance: bigint; readonly privateKey: ResolvedConfigurationVariable }[]
    | {
        readonly mnemonic: ResolvedConfigurationVariable;
        readonly accountsBalance: bigint;
        readonly count: number;
        readonly initialIndex: number;
        readonly passphrase: ResolvedConfigurationVariable;
        readonly path: string;
      };
  readonly chainId: number;
  readonly chainType?: string;
  readonly allowBlocksWithSameTimestamp: boolean;
  readonly allowUnlimitedContractSize?: boolean;
  readonly blockGasLimit?: bigint | false;
  readonly coinbase: Uint8Array;
  readonly forking?: {
    readonly enabled: boolean;
    readonly url: ResolvedConfigurationVariable;
    readonly blockNumber?: bigint;
    readonly httpHeaders?: Readonly<Record<string, string>>;
  };
  readonly gasEstimationMode: string;
  readonly hardfork: string;
  readonly initialBaseFeePerGas?: bigint;
  readonly initialDate: string | Date;
  readonly loggingEnabled: boolean;
  readonly minGasPrice: bigint;
  readonly mining: { readonly auto: boolean; readonly interval: number | readonly [number, number]; readonly mempool: { readonly order: string } };
  readonly networkId: number;
  readonly throwOnCallFailures: boolean;
  readonly throwOnTransactionFailures: boolean;
  readonly transactionGasCap?: bigint | false;
}

export interface JsonRpcRequest {
  readonly jsonrpc: '2.0';
  readonly id: number | string;
  readonly method: string;
  readonly params?: readonly unknown[] | object;
}

export type JsonRpcResponse =
  | { readonly jsonrpc: '2.0'; readonly id: number | string; readonly result: unknown }
  | { readonly jsonrpc: '2.0'; readonly id: number | string; readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } };

/** A connection as network.create() returns it, before plugins add their helpers (ethers, viem, networkHelpers, ...). */
export interface NetworkConnection {
  readonly id: number;
  readonly networkName: string;
  readonly networkConfig: { readonly type: string } & Partial<EdrNetworkConfig>;
  readonly chainType: string;
  readonly provider: unknown;
  close(): Promise<void>;
}

export interface HookManager {
  runHandlerChain<Result>(category: string, hook: string, params: unknown[], defaultImplementation: (...args: never[]) => Promise<Result>): Promise<Result>;
}

export interface ArtifactManager {
  getAllFullyQualifiedNames(): Promise<ReadonlySet<string>>;
  readArtifact(name: string): Promise<unknown>;
}

/** The hook context (the Hardhat runtime environment without its tasks), the parts the plugin reads. */
export interface HookContext {
  readonly hooks: HookManager;
  readonly artifacts: ArtifactManager;
  readonly config: {
    readonly paths: { readonly root: string; readonly artifacts?: string };
    /** The resolved networks (optional here: the plugin leaves what it cannot read to Hardhat). */
    readonly networks?: Readonly<Record<string, NetworkConnection['networkConfig'] | undefined>>;
    readonly defaultChainType?: string;
    /** The resolved plugin list, Hardhat's built-ins first. */
    readonly plugins?: readonly { readonly id: string; readonly hookHandlers?: { readonly network?: unknown } }[];
  };
  /** `--network`, when given: the network that network.create() without a name connects to. */
  readonly globalOptions?: { readonly network?: string };
}
