/**
 * Every option declared once: its default, its CLI flag and help, and its
 * validation. The CLI, createProvider and createServer all resolve through here.
 */
import { type Address, createAddressFromString } from '@ethereumjs/util';
import { HARDFORK_NAMES, createChainCommon, isPostMerge, newestLiveHardfork } from './engine/hardforks.js';
import type { WallClock } from './engine/clock.js';
import { DEFAULT_CORS_ORIGINS } from './server/cors.js';
import { DEFAULT_ALLOWED_HOSTS } from './server/hostCheck.js';
import { clip } from './engine/clip.js';
import { FORK_OPTION_DECLARATIONS, type ForkDefaults, type ForkOptionsInput, type ResolvedFork, resolveFork, resolveForkDefaults } from './fork/options.js';
import { MAX_GAS_LIMIT, OptionError, flag, integer } from './optionValues.js';
import {
  GANACHE_DETERMINISTIC_MNEMONIC,
  accountKeysOf,
  checkInstamine,
  codeSizeLimitOf,
  compatOf,
  gasLimitOf,
  ganacheTime,
  genesisNumberOf,
  jsonLines,
  miningIntervalOf,
  unlockOf,
} from './startupOptions.js';

export const DEFAULT_MNEMONIC = 'test test test test test test test test test test test junk';
export { GANACHE_DETERMINISTIC_MNEMONIC } from './startupOptions.js';
export { OptionError } from './optionValues.js';

/** What a user may pass to createProvider / createServer (all optional). */
export interface ChainSimOptions extends ForkOptionsInput {
  chainId?: number | bigint;
  hardfork?: string;
  mnemonic?: string;
  accounts?: number;
  /** Initial balance of each account, in ether (decimal string or number). */
  balance?: number | string;
  derivationPath?: string;
  gasLimit?: number | bigint;
  /** Base fee of the genesis block, in wei. */
  baseFee?: number | bigint;
  coinbase?: string;
  order?: 'fees' | 'fifo';
  host?: string;
  port?: number;
  maxBatchSize?: number;
  maxBodyBytes?: number;
  /** Seconds a filter lives without being polled. */
  filterTimeout?: number;
  /** Milliseconds the HTTP server keeps polling for the next request after an answer (0: sleep at once). */
  busyPoll?: number;
  /** Interval mining: seconds between blocks (fractions allowed); automine is off. 0: instant automine. */
  blockTime?: number;
  /** Most logs one eth_getLogs / eth_getFilterLogs answer may hold. */
  maxLogs?: number;
  quiet?: boolean;
  verbose?: boolean;
  /** Where log lines go (default: console.log unless quiet). */
  logger?: (line: string) => void;
  /** Injectable wall clock in milliseconds, for tests. */
  wallClock?: WallClock;
  /** 'pow': blocks are sealed only by solutions to chain_getWork (chain_submitWork). */
  mining?: 'instant' | 'pow';
  /** Proof-of-work difficulty: a whole number, or 'canonical' for the hardfork's formula. */
  difficulty?: number | bigint | string;
  /** Threads of the built-in CPU miner in pow mode (0: none, external miners only). */
  minerThreads?: number;
  /** Directory for Ethash cache files (default ~/.cache/chain-sim/ethash; null: no files). */
  ethashCacheDir?: string | null;
  /** Host headers the HTTP server answers (comma-separated or a list; `*`: any). */
  allowedHosts?: string | readonly string[];
  /** Browser origins allowed to read replies (comma-separated or a list; `*`: any). */
  cors?: string | readonly string[];
  /** State file: loaded at start if it exists, saved atomically on shutdown. */
  /** State files (the chain_dumpState format, a superset of a geth genesis alloc) written into the genesis state, in order. */
  fixtures?: string[];
  /** A chain file as `geth export` writes it (RLP blocks): executed, validated and appended at start. */
  import?: string;
  /** A go-ethereum genesis.json: chain id, fork schedule, genesis header and alloc. */
  genesis?: string;
  stateFile?: string;
  /** With stateFile: also save every this many seconds (fractions allowed; 0: only on shutdown). */
  stateInterval?: number;
  /**
   * Present as Hardhat's node (default true): web3_clientVersion starts with `HardhatNetwork/`, and
   * under automine a send whose transaction fails answers Hardhat's error (the transaction is
   * still mined). false: `chain-sim/...` and sends answer the hash, as go-ethereum and Anvil.
   */
  hardhatNode?: boolean;
  /** net_version's answer (default: the chain id). Ganache's networkId. */
  networkId?: number | bigint;
  /** Ganache's vmErrorsOnRPCResponse: a send whose transaction fails (mined with status 0) answers an error. */
  vmErrorsOnRPCResponse?: boolean;
  /** 'ganache': web3_clientVersion and the shared evm_* names answer as Ganache 7 does (chain-sim/ganache sets it). */
  compat?: 'ganache';
  /** Accounts by private key (0x hex), each with an optional balance in wei; without `accounts`, no derived accounts. */
  accountKeys?: ReadonlyArray<string | { readonly privateKey: string; readonly balance?: number | bigint | string }>;
  /** Addresses that may send without a signature from the start (Ganache's unlocked accounts); an account index names one of the node's accounts (unlocked already). */
  unlock?: ReadonlyArray<string | number>;
  /** Every address may send without a signature (Anvil's --auto-impersonate). */
  autoImpersonate?: boolean;
  /** Genesis block time, in seconds since 1970; later blocks continue from it. */
  timestamp?: number | bigint | string;
  /** Legacy gas price: eth_gasPrice's answer and the price of legacy sends without one, in wei. */
  gasPrice?: number | bigint | string;
  /** Ganache's deterministic accounts (its fixed mnemonic); cannot be combined with `mnemonic`. */
  deterministic?: boolean;
  /** Ganache's miner.instamine: 'eager' and 'strict' both hold here (the hash is answered, then the block is mined before any later request is read). */
  instamine?: 'eager' | 'strict';
  /** Largest contract code in bytes (init code: twice that); default the hardfork's (24576). */
  codeSizeLimit?: number;
  /** No contract size limits (Hardhat's and Ganache's allowUnlimitedContractSize). */
  disableCodeSizeLimit?: boolean;
  /** Block gas limit as large as it goes (2^63-1), so no transaction is too large for a block. */
  disableBlockGasLimit?: boolean;
  /** Gas cap of eth_call and eth_estimateGas (go-ethereum's --rpc.gascap). */
  transactionGasCap?: number | bigint | string;
  /** Suggest and fill in a tip of 0 instead of 1 gwei (Anvil's --disable-min-priority-fee). */
  disableMinPriorityFee?: boolean;
  /** No automine from the first block: blocks only by evm_mine (or an interval). */
  noMining?: boolean;
  /** With blockTime or miningInterval: automine as well (Hardhat's auto + interval). */
  mixedMining?: boolean;
  /** Hardhat's mining.interval, in milliseconds: a fixed interval or a random one in [min, max]. */
  miningInterval?: number | readonly [number, number] | string;
  /** Hardhat's allowBlocksWithSameTimestamp: a block may have its parent's timestamp. */
  allowSameTimestamp?: boolean;
  /** Write the accounts, their keys and the chain id as JSON to this file at start (Anvil's --config-out). */
  accountsOut?: string;
  /** 'safe' lags the head by this many blocks and 'finalized' by twice as many (Anvil). */
  slotsInAnEpoch?: number;
  /** The genesis block's number (Anvil's --number): the chain starts there, later blocks count on from it. */
  number?: number | bigint | string;
  /** Do not print Solidity console.log lines. */
  noConsoleLog?: boolean;
  /**
   * Leave the CREATE2 deployer (0x4e59…956C, which Anvil and forge scripts expect) out of the
   * genesis state of a local chain. It is never added to a fork or a --genesis file's chain.
   */
  noCreate2Deployer?: boolean;
  /** Print a call tree for each mined transaction (Anvil's -vvvv). */
  printTraces?: boolean;
  /** Log lines as JSON objects, one per line. */
  json?: boolean;
}

/** A private key with its genesis balance (wei). */
export interface KeyedAccount {
  readonly privateKey: Uint8Array;
  readonly balance: bigint | undefined;
}

export interface ResolvedOptions {
  readonly chainId: bigint;
  readonly hardfork: string;
  readonly mnemonic: string;
  readonly accounts: number;
  readonly balanceWei: bigint;
  readonly derivationPath: string;
  readonly gasLimit: bigint;
  readonly baseFee: bigint;
  readonly coinbase: Address;
  readonly order: 'fees' | 'fifo';
  readonly host: string;
  readonly port: number;
  readonly maxBatchSize: number;
  readonly maxBodyBytes: number;
  readonly filterTimeout: number;
  readonly busyPoll: number;
  readonly blockTime: number;
  readonly maxLogs: number;
  readonly quiet: boolean;
  readonly verbose: boolean;
  readonly logger: (line: string) => void;
  readonly wallClock: WallClock | undefined;
  readonly mining: 'instant' | 'pow';
  readonly difficulty: bigint | 'canonical';
  readonly minerThreads: number;
  readonly ethashCacheDir: string | null | undefined;
  readonly allowedHosts: readonly string[];
  readonly cors: readonly string[];
  readonly fixtures: readonly string[];
  readonly importFile: string | undefined;
  readonly genesis: string | undefined;
  readonly stateFile: string | undefined;
  readonly stateInterval: number;
  readonly hardhatNode: boolean;
  // ---- forking (fork/options.ts) ----
  /** The fork opened at start-up; undefined: a local chain. */
  readonly fork: ResolvedFork | undefined;
  /** Settings of forks opened later by hardhat_reset / anvil_reset. */
  readonly forkDefaults: ForkDefaults;
  /** Given explicitly (else a fork takes the upstream's): chain id, hardfork, block gas limit. */
  readonly given: { readonly chainId: boolean; readonly hardfork: boolean; readonly gasLimit: boolean };
  readonly networkId: bigint | undefined;
  readonly vmErrorsOnRPCResponse: boolean;
  readonly compat: 'ganache' | undefined;
  readonly accountKeys: readonly KeyedAccount[];
  readonly unlock: ReadonlyArray<Address | number>;
  readonly autoImpersonate: boolean;
  readonly timestamp: bigint | undefined;
  readonly gasPrice: bigint | undefined;
  readonly codeSizeLimit: number | 'unlimited' | undefined;
  readonly transactionGasCap: bigint | undefined;
  readonly disableMinPriorityFee: boolean;
  readonly noMining: boolean;
  readonly mixedMining: boolean;
  /** Interval mining in ms, [min, max] (equal for a fixed interval); undefined: none. */
  readonly miningInterval: readonly [number, number] | undefined;
  readonly allowSameTimestamp: boolean;
  readonly accountsOut: string | undefined;
  readonly slotsInAnEpoch: number;
  readonly genesisNumber: bigint;
  readonly noConsoleLog: boolean;
  readonly noCreate2Deployer: boolean;
  readonly printTraces: boolean;
  readonly json: boolean;
}

type CliType = 'string' | 'number' | 'boolean';

/** One option as the CLI shows it; `key` is the ChainSimOptions field it fills. */
export interface OptionDeclaration {
  readonly key: keyof ChainSimOptions;
  readonly flag: string;
  readonly type: CliType;
  readonly describe: string;
  readonly defaultText: string;
  /** Other spellings: short flags, and other tools' names (Ganache's --wallet.totalAccounts, Anvil's, Hardhat's). */
  readonly alias?: string | readonly string[];
  readonly choices?: readonly string[];
  /** Turns the CLI's value into the option's (another tool's unit or form). */
  readonly coerce?: (value: unknown) => unknown;
  /** Repeatable flag: the option is an array. */
  readonly array?: boolean;
}

/** Low enough that a JavaScript miner finds a seal in ~0.1 s (16 attempts of ~5 ms on average). */
export const DEFAULT_DIFFICULTY = 16n;
/** The last proof-of-work hardfork: the default in pow mode. */
export const POW_DEFAULT_HARDFORK = 'grayGlacier';

export const OPTION_DECLARATIONS: readonly OptionDeclaration[] = [
  { key: 'port', flag: 'port', alias: 'p', type: 'number', describe: 'HTTP port (0 picks a free one)', defaultText: '8545' },
  { key: 'host', flag: 'host', alias: 'H', type: 'string', describe: 'address to listen on (short flag -H: -h is help)', defaultText: '127.0.0.1' },
  { key: 'accounts', flag: 'accounts', alias: ['a', 'wallet.totalAccounts'], type: 'number', describe: 'number of prefunded accounts', defaultText: '10' },
  {
    key: 'balance',
    flag: 'balance',
    alias: ['e', 'wallet.defaultBalance', 'defaultBalanceEther'],
    type: 'string',
    describe: 'initial balance of each account, in ether',
    defaultText: '10000',
  },
  {
    key: 'mnemonic',
    flag: 'mnemonic',
    alias: ['m', 'wallet.mnemonic'],
    type: 'string',
    describe: 'BIP-39 mnemonic the accounts derive from',
    defaultText: DEFAULT_MNEMONIC,
  },
  {
    key: 'derivationPath',
    flag: 'derivation-path',
    alias: ['wallet.hdPath', 'hd_path'],
    type: 'string',
    describe: 'HD path prefix; account i is <path>/i',
    defaultText: "m/44'/60'/0'/0",
  },
  { key: 'chainId', flag: 'chain-id', alias: ['chain.chainId', 'chainId'], type: 'number', describe: 'chain id (EIP-155)', defaultText: '1337' },
  {
    key: 'hardfork',
    flag: 'hardfork',
    alias: ['k', 'chain.hardfork'],
    type: 'string',
    describe: 'hardfork rules for every block',
    defaultText: 'newest live on mainnet',
    choices: HARDFORK_NAMES,
  },
  { key: 'gasLimit', flag: 'gas-limit', alias: ['l', 'miner.blockGasLimit', 'gasLimit'], type: 'string', describe: 'block gas limit', defaultText: '30000000' },
  { key: 'baseFee', flag: 'base-fee', type: 'string', describe: 'base fee of the genesis block, in wei', defaultText: '1000000000' },
  { key: 'coinbase', flag: 'coinbase', type: 'string', describe: 'block beneficiary address', defaultText: '0x0000000000000000000000000000000000000000' },
  {
    key: 'order',
    flag: 'order',
    type: 'string',
    describe: 'pool ordering when several transactions fit a block',
    defaultText: 'fees',
    choices: ['fees', 'fifo'],
  },
  { key: 'maxBatchSize', flag: 'max-batch-size', type: 'number', describe: 'most requests in one JSON-RPC batch', defaultText: '1000' },
  { key: 'maxBodyBytes', flag: 'max-body-bytes', type: 'number', describe: 'largest HTTP request body, in bytes', defaultText: '5242880' },
  {
    key: 'blockTime',
    flag: 'block-time',
    alias: ['b', 'miner.blockTime', 'blockTime'],
    type: 'number',
    describe: 'mine a block every N seconds (fractions allowed) instead of one per transaction',
    defaultText: '0 (instant automine)',
  },
  {
    key: 'busyPoll',
    flag: 'busy-poll',
    type: 'number',
    describe:
      'milliseconds the HTTP server keeps polling for the next request after answering, instead of sleeping (lower latency; 0: off; always off on one core)',
    defaultText: '0.5',
  },
  { key: 'filterTimeout', flag: 'filter-timeout', type: 'number', describe: 'seconds a filter lives without being polled', defaultText: '300' },
  { key: 'maxLogs', flag: 'max-logs', type: 'number', describe: 'most logs one eth_getLogs answer may hold', defaultText: '10000' },
  {
    key: 'mining',
    flag: 'mining',
    type: 'string',
    describe: 'instant: automine; pow: blocks sealed by chain_getWork/chain_submitWork miners',
    defaultText: 'instant',
    choices: ['instant', 'pow'],
  },
  {
    key: 'difficulty',
    flag: 'difficulty',
    type: 'string',
    describe: "pow mode: block difficulty, or 'canonical' for the hardfork's formula",
    defaultText: String(DEFAULT_DIFFICULTY),
  },
  { key: 'minerThreads', flag: 'miner-threads', type: 'number', describe: 'pow mode: threads of the built-in CPU miner', defaultText: '0' },
  {
    key: 'allowedHosts',
    flag: 'allowed-hosts',
    type: 'string',
    describe: 'comma-separated Host names the HTTP server answers (DNS-rebinding guard; IP addresses always pass); * for any',
    defaultText: `${DEFAULT_ALLOWED_HOSTS.join(',')} and the --host name`,
  },
  {
    key: 'cors',
    flag: 'cors',
    type: 'string',
    describe: 'comma-separated browser origins allowed to read replies (scheme://host, scheme://host:* for any port); * for any',
    defaultText: DEFAULT_CORS_ORIGINS.join(','),
  },
  {
    key: 'fixtures',
    flag: 'fixture',
    type: 'string',
    array: true,
    describe: 'state file loaded into the genesis block (repeatable; later files win)',
    defaultText: 'none',
  },
  {
    key: 'import',
    flag: 'import',
    type: 'string',
    describe: 'chain file of RLP blocks (geth export format): each block executed, validated and appended at start',
    defaultText: 'none',
  },
  {
    key: 'genesis',
    flag: 'genesis',
    type: 'string',
    describe: 'go-ethereum genesis.json: chain id, fork schedule (by block and time), genesis header and alloc',
    defaultText: 'none',
  },
  {
    key: 'stateFile',
    flag: 'state',
    alias: ['database.dbPath', 'db'],
    type: 'string',
    describe: 'state file: loaded at start if it exists, saved atomically on exit (SIGINT, SIGTERM, SIGHUP)',
    defaultText: 'none',
  },
  { key: 'stateInterval', flag: 'state-interval', type: 'number', describe: 'with --state: also save every N seconds', defaultText: '0 (only on exit)' },
  {
    key: 'hardhatNode',
    flag: 'hardhat-node',
    type: 'boolean',
    describe:
      "present as Hardhat's node: HardhatNetwork/ client version, and a send whose transaction fails under automine answers Hardhat's error (the transaction is still mined); --no-hardhat-node: chain-sim/ version, sends answer the hash",
    defaultText: 'true',
  },
  ...FORK_OPTION_DECLARATIONS,
  { key: 'quiet', flag: 'quiet', alias: ['q', 'logging.quiet'], type: 'boolean', describe: 'print nothing but errors', defaultText: 'false' },
  {
    key: 'verbose',
    flag: 'verbose',
    alias: ['v', 'logging.verbose'],
    type: 'boolean',
    describe: 'log each request: method and duration',
    defaultText: 'false',
  },
  // Other tools' switches (Ganache, Hardhat, Anvil), with their spellings as aliases.
  {
    key: 'deterministic',
    flag: 'deterministic',
    alias: ['d', 'wallet.deterministic'],
    type: 'boolean',
    describe: 'Ganache\'s deterministic accounts (its mnemonic "myth like bonus ...")',
    defaultText: 'false',
  },
  {
    key: 'accountKeys',
    flag: 'account',
    alias: ['wallet.accounts'],
    type: 'string',
    array: true,
    describe: 'an account by private key, KEY or KEY,BALANCE_IN_WEI (repeatable); replaces the derived accounts unless --accounts is given',
    defaultText: 'none',
  },
  {
    key: 'unlock',
    flag: 'unlock',
    alias: ['u', 'wallet.unlockedAccounts'],
    type: 'string',
    array: true,
    describe: "an address that may send without a signature (repeatable; Ganache's unlocked accounts)",
    defaultText: 'none',
  },
  { key: 'autoImpersonate', flag: 'auto-impersonate', type: 'boolean', describe: 'every address may send without a signature (Anvil)', defaultText: 'false' },
  {
    key: 'accountsOut',
    flag: 'accounts-out',
    alias: ['config-out'],
    type: 'string',
    describe: "write the accounts, their keys and the chain id as JSON to FILE at start (Anvil's --config-out)",
    defaultText: 'none',
  },
  {
    key: 'networkId',
    flag: 'network-id',
    alias: ['i', 'chain.networkId', 'networkId'],
    type: 'string',
    describe: "net_version's answer",
    defaultText: 'the chain id',
  },
  {
    key: 'vmErrorsOnRPCResponse',
    flag: 'vm-errors-on-rpc-response',
    alias: ['chain.vmErrorsOnRPCResponse'],
    type: 'boolean',
    describe: "a send whose transaction fails answers Ganache's error (the transaction is still mined)",
    defaultText: 'false',
  },
  {
    key: 'timestamp',
    flag: 'timestamp',
    type: 'string',
    describe: 'genesis block time, seconds since 1970; later blocks continue from it',
    defaultText: 'now',
  },
  {
    key: 'timestamp',
    flag: 'chain.time',
    alias: ['t', 'time'],
    type: 'string',
    coerce: ganacheTime,
    describe: "Ganache's spelling of --timestamp: a date, or milliseconds since 1970",
    defaultText: 'now',
  },
  {
    key: 'gasPrice',
    flag: 'gas-price',
    alias: ['g', 'miner.defaultGasPrice', 'gasPrice'],
    type: 'string',
    describe: 'eth_gasPrice and the price of legacy sends without one, in wei',
    defaultText: 'base fee + 1 gwei',
  },
  {
    key: 'instamine',
    flag: 'miner.instamine',
    alias: ['instamine'],
    type: 'string',
    choices: ['eager', 'strict'],
    describe: "Ganache's instamine mode; both hold (the hash is answered, then the block is mined before any later request)",
    defaultText: 'eager',
  },
  {
    key: 'codeSizeLimit',
    flag: 'code-size-limit',
    type: 'number',
    describe: 'largest contract code in bytes (init code: twice that)',
    defaultText: "the hardfork's (24576)",
  },
  {
    key: 'disableCodeSizeLimit',
    flag: 'disable-code-size-limit',
    alias: ['chain.allowUnlimitedContractSize', 'allowUnlimitedContractSize', 'allow-unlimited-contract-size'],
    type: 'boolean',
    describe: 'no contract size limits',
    defaultText: 'false',
  },
  {
    key: 'disableBlockGasLimit',
    flag: 'disable-block-gas-limit',
    type: 'boolean',
    describe: 'block gas limit 2^63-1, so no transaction is too large for a block',
    defaultText: 'false',
  },
  {
    key: 'transactionGasCap',
    flag: 'transaction-gas-cap',
    alias: ['rpc.gascap', 'miner.callGasLimit', 'callGasLimit'],
    type: 'string',
    describe: 'gas cap of eth_call and eth_estimateGas',
    defaultText: 'the block gas limit',
  },
  {
    key: 'disableMinPriorityFee',
    flag: 'disable-min-priority-fee',
    type: 'boolean',
    describe: 'suggest and fill in a tip of 0 instead of 1 gwei',
    defaultText: 'false',
  },
  {
    key: 'noMining',
    flag: 'no-mining',
    type: 'boolean',
    describe: 'no automine from the first block: blocks only by evm_mine (or an interval)',
    defaultText: 'false',
  },
  { key: 'mixedMining', flag: 'mixed-mining', type: 'boolean', describe: 'with --block-time or --mining-interval: automine as well', defaultText: 'false' },
  {
    key: 'miningInterval',
    flag: 'mining-interval',
    alias: ['mining.interval'],
    type: 'string',
    describe: "Hardhat's mining.interval in ms: N, or MIN,MAX for a random interval",
    defaultText: 'none',
  },
  {
    key: 'allowSameTimestamp',
    flag: 'allow-same-timestamp',
    alias: ['allowBlocksWithSameTimestamp'],
    type: 'boolean',
    describe: "a block may have its parent's timestamp (Hardhat's allowBlocksWithSameTimestamp)",
    defaultText: 'false',
  },
  {
    key: 'number',
    flag: 'number',
    type: 'string',
    describe: "number of the genesis block; later blocks count on from it (Anvil's --number)",
    defaultText: '0',
  },
  {
    key: 'slotsInAnEpoch',
    flag: 'slots-in-an-epoch',
    type: 'number',
    describe: "'safe' is N blocks behind the head and 'finalized' 2N (Anvil)",
    defaultText: '0 (both are the head)',
  },
  { key: 'noConsoleLog', flag: 'no-console-log', type: 'boolean', describe: "don't print Solidity console.log lines", defaultText: 'false' },
  {
    key: 'noCreate2Deployer',
    flag: 'no-create2-deployer',
    alias: ['disable-default-create2-deployer', 'no-create2'],
    type: 'boolean',
    describe:
      "leave the CREATE2 deployer at 0x4e59b44847b379578588920cA78FbF26c0B4956C (forge scripts' salted deployments) out of a local chain's genesis state (never added to a fork or a --genesis file's chain)",
    defaultText: 'false',
  },
  { key: 'printTraces', flag: 'print-traces', type: 'boolean', describe: "print a call tree for each mined transaction (Anvil's -vvvv)", defaultText: 'false' },
  { key: 'json', flag: 'json', type: 'boolean', describe: 'log lines as JSON objects, one per line', defaultText: 'false' },
];

const WEI_PER_ETHER = 10n ** 18n;
const ZERO_ADDRESS = `0x${'00'.repeat(20)}`;

/** "10000", "0.5", 1e3 → wei. */
function ether(option: string, value: number | string | undefined, fallback: bigint): bigint {
  if (value === undefined) return fallback;
  const text = String(value).trim();
  const match = /^(\d+)(?:\.(\d{1,18}))?$/.exec(text);
  if (!match) throw new OptionError(option, `expected an amount of ether like 10000 or 0.5, got "${clip(text)}"`);
  return BigInt(match[1]!) * WEI_PER_ETHER + BigInt((match[2] ?? '').padEnd(18, '0'));
}

/** Seconds between interval-mined blocks; Node timers hold at most 2^31-1 ms. */
function blockTimeOf(value: number | undefined): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value * 1000 > 2 ** 31 - 1) {
    throw new OptionError('block-time', `expected seconds between 0 and ${Math.floor((2 ** 31 - 1) / 1000)}, got "${String(value)}"`);
  }
  return value;
}

/** Milliseconds of polling after an answer: 0 to 100. */
function busyPollOf(value: number | undefined): number {
  if (value === undefined) return 0.5;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100) {
    throw new OptionError('busy-poll', `expected milliseconds between 0 and 100, got "${String(value)}"`);
  }
  return value;
}

/** A list option as the CLI gives it (`a,b`) or as code does (an array); every entry must match `entry`. */
function list(option: string, value: string | readonly string[] | undefined, fallback: readonly string[], entry: RegExp, what: string): readonly string[] {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' && !Array.isArray(value)) throw new OptionError(option, `expected a comma-separated list`);
  const items = (typeof value === 'string' ? value.split(',') : [...value]).map((item) => String(item).trim()).filter((item) => item.length > 0);
  if (items.length === 0) throw new OptionError(option, `expected at least one ${what} (or *)`);
  for (const item of items) {
    if (item !== '*' && !entry.test(item)) throw new OptionError(option, `"${clip(item)}" is not ${what}`);
  }
  return items;
}

/** A host name, an IPv4 address or an IPv6 address (bracketed or not). */
const HOST_ENTRY = /^([a-z0-9_.-]+|\[?[0-9a-f:.]+\]?)$/i;
/** scheme://host[:port] or scheme://host:* ; `null` for opaque origins (file:// pages), only if listed. */
const ORIGIN_ENTRY = /^([a-z][a-z0-9+.-]*:\/\/([a-z0-9_.-]+|\[[0-9a-f:.]+\])(:(\d+|\*))?|null)$/i;

function fixturesOf(value: string[] | undefined): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((f) => typeof f !== 'string' || f.length === 0)) {
    throw new OptionError('fixture', 'expected file paths');
  }
  return value;
}

/**
 * A genesis file sets the chain id, the forks, the genesis gas limit and base fee: the
 * flags that set them too are refused rather than silently overridden (go-ethereum
 * refuses conflicting flags as well). Fixtures may add accounts on top of its alloc.
 */
function genesisOf(input: ChainSimOptions): string | undefined {
  const value = input.genesis;
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new OptionError('genesis', 'expected a file path');
  const conflicts: Array<[keyof ChainSimOptions, string]> = [
    ['hardfork', 'hardfork'],
    ['chainId', 'chain-id'],
    ['gasLimit', 'gas-limit'],
    ['baseFee', 'base-fee'],
    ['stateFile', 'state'],
  ];
  for (const [key, flag] of conflicts) {
    if (input[key] !== undefined)
      throw new OptionError('genesis', `cannot be combined with --${flag}${key === 'stateFile' ? ' (not supported yet)' : ': the genesis file sets it'}`);
  }
  if (input.mining === 'pow') throw new OptionError('genesis', 'cannot be combined with --mining pow (not supported yet)');
  return value;
}

function filePathOf(option: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new OptionError(option, 'expected a file path');
  return value;
}

function stateIntervalOf(value: number | undefined, stateFile: string | undefined): number {
  if (value === undefined) return 0;
  if (stateFile === undefined && value !== 0) throw new OptionError('state-interval', 'needs a state file (--state FILE)');
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value * 1000 > 2 ** 31 - 1) {
    throw new OptionError('state-interval', `expected seconds between 0 and ${Math.floor((2 ** 31 - 1) / 1000)}, got "${String(value)}"`);
  }
  return value;
}

/** Proof-of-work settings mean nothing in instant mode; saying so beats ignoring them. */
function powOnly<T>(mining: 'instant' | 'pow', option: string, value: T | undefined): T | undefined {
  if (value !== undefined && value !== 0 && mining !== 'pow') throw new OptionError(option, 'applies to --mining pow only');
  return value;
}

function powDifficulty(mining: 'instant' | 'pow', value: number | bigint | string | undefined): bigint | 'canonical' {
  if (powOnly(mining, 'difficulty', value) === 'canonical') return 'canonical';
  if (typeof value === 'string' && !/^(0x[0-9a-fA-F]+|\d+)$/.test(value.trim())) {
    throw new OptionError('difficulty', `expected a whole number or "canonical", got "${clip(value)}"`);
  }
  return integer('difficulty', value, DEFAULT_DIFFICULTY, 1n, 2n ** 256n - 1n);
}

function booleanOf(option: string, value: boolean | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new OptionError(option, `expected true or false, got "${String(value)}"`);
  return value;
}

export function resolveOptions(input: ChainSimOptions = {}): ResolvedOptions {
  const mining = input.mining ?? 'instant';
  if (mining !== 'instant' && mining !== 'pow') throw new OptionError('mining', `expected instant or pow, got "${clip(String(mining))}"`);
  const hardfork = input.hardfork ?? (mining === 'pow' ? POW_DEFAULT_HARDFORK : newestLiveHardfork());
  if (!HARDFORK_NAMES.includes(hardfork)) {
    throw new OptionError('hardfork', `unknown hardfork "${clip(hardfork)}"; choose one of ${HARDFORK_NAMES.join(', ')}`);
  }
  if (mining === 'pow' && isPostMerge(createChainCommon(1n, hardfork))) {
    throw new OptionError('mining', `pow needs a pre-merge hardfork (${POW_DEFAULT_HARDFORK} or earlier), but ${hardfork} is after the merge`);
  }
  const coinbaseText = input.coinbase ?? ZERO_ADDRESS;
  if (!/^0x[0-9a-fA-F]{40}$/.test(coinbaseText)) {
    throw new OptionError('coinbase', `expected a 20-byte 0x-prefixed address, got "${clip(coinbaseText)}"`);
  }
  const coinbase = createAddressFromString(coinbaseText);
  const order = input.order ?? 'fees';
  if (order !== 'fees' && order !== 'fifo') throw new OptionError('order', `expected fees or fifo, got "${clip(String(order))}"`);
  const quiet = input.quiet ?? false;
  const fail = (option: string, problem: string) => new OptionError(option, problem);
  const forkDefaults = resolveForkDefaults(input, fail);
  const fork = resolveFork(input, forkDefaults, fail);
  if (fork) {
    const conflicts: Array<[keyof ChainSimOptions, string]> = [
      ['genesis', 'genesis'],
      ['import', 'import'],
      ['fixtures', 'fixture'],
      ['stateFile', 'state'],
    ];
    for (const [key, flag] of conflicts) if (input[key] !== undefined) throw new OptionError('fork', `cannot be combined with --${flag} (not supported yet)`);
    if (mining === 'pow') throw new OptionError('fork', 'cannot be combined with --mining pow');
  }
  return {
    fork,
    forkDefaults,
    given: { chainId: input.chainId !== undefined, hardfork: input.hardfork !== undefined, gasLimit: input.gasLimit !== undefined },
    chainId: integer('chain-id', input.chainId, 1337n, 1n, 2n ** 64n - 1n),
    hardfork,
    mnemonic: mnemonicOf(input),
    // Accounts given by key replace the derived ones unless a count is asked for too (Hardhat, Ganache).
    accounts: Number(integer('accounts', input.accounts, input.accountKeys === undefined ? 10n : 0n, 0n, 100_000n)),
    balanceWei: ether('balance', input.balance, 10_000n * WEI_PER_ETHER),
    derivationPath: input.derivationPath ?? "m/44'/60'/0'/0",
    gasLimit: gasLimitOf(input),
    baseFee: integer('base-fee', input.baseFee, 1_000_000_000n, 0n, 2n ** 256n - 1n),
    coinbase,
    order,
    host: input.host ?? '127.0.0.1',
    port: Number(integer('port', input.port, 8545n, 0n, 65535n)),
    maxBatchSize: Number(integer('max-batch-size', input.maxBatchSize, 1000n, 1n, 1_000_000n)),
    maxBodyBytes: Number(integer('max-body-bytes', input.maxBodyBytes, 5n * 1024n * 1024n, 1024n, 2n ** 31n)),
    blockTime: blockTimeOf(input.blockTime),
    busyPoll: busyPollOf(input.busyPoll),
    filterTimeout: Number(integer('filter-timeout', input.filterTimeout, 300n, 1n, 365n * 24n * 3600n)),
    maxLogs: Number(integer('max-logs', input.maxLogs, 10_000n, 1n, 10_000_000n)),
    quiet,
    verbose: input.verbose ?? false,
    logger: jsonLines(input.json === true, input.logger ?? (quiet ? () => {} : (line: string) => console.log(line))),
    wallClock: input.wallClock,
    mining,
    difficulty: powDifficulty(mining, input.difficulty),
    minerThreads: Number(integer('miner-threads', powOnly(mining, 'miner-threads', input.minerThreads), 0n, 0n, 256n)),
    ethashCacheDir: input.ethashCacheDir,
    allowedHosts: list('allowed-hosts', input.allowedHosts, DEFAULT_ALLOWED_HOSTS, HOST_ENTRY, 'a host name or address'),
    cors: list('cors', input.cors, DEFAULT_CORS_ORIGINS, ORIGIN_ENTRY, 'an origin like http://localhost:3000 or http://localhost:*'),
    fixtures: fixturesOf(input.fixtures),
    importFile: filePathOf('import', input.import),
    genesis: genesisOf(input),
    stateFile: filePathOf('state', input.stateFile),
    stateInterval: stateIntervalOf(input.stateInterval, input.stateFile),
    hardhatNode: booleanOf('hardhat-node', input.hardhatNode, true),
    networkId: input.networkId === undefined ? undefined : integer('network-id', input.networkId, 0n, 1n, 2n ** 64n - 1n),
    vmErrorsOnRPCResponse: flag('vm-errors-on-rpc-response', input.vmErrorsOnRPCResponse),
    compat: compatOf(input.compat),
    accountKeys: accountKeysOf(input.accountKeys),
    unlock: unlockOf(input.unlock),
    autoImpersonate: flag('auto-impersonate', input.autoImpersonate),
    timestamp: input.timestamp === undefined ? undefined : integer('timestamp', input.timestamp, 0n, 0n, 2n ** 64n - 1n),
    gasPrice: input.gasPrice === undefined ? undefined : integer('gas-price', input.gasPrice, 0n, 0n, 2n ** 256n - 1n),
    codeSizeLimit: codeSizeLimitOf(input),
    transactionGasCap: input.transactionGasCap === undefined ? undefined : integer('transaction-gas-cap', input.transactionGasCap, 0n, 21_000n, MAX_GAS_LIMIT),
    disableMinPriorityFee: flag('disable-min-priority-fee', input.disableMinPriorityFee),
    noMining: flag('no-mining', input.noMining),
    mixedMining: flag('mixed-mining', input.mixedMining),
    miningInterval: miningIntervalOf(input),
    allowSameTimestamp: flag('allow-same-timestamp', input.allowSameTimestamp),
    accountsOut: filePathOf('accounts-out', input.accountsOut),
    slotsInAnEpoch: Number(integer('slots-in-an-epoch', input.slotsInAnEpoch, 0n, 0n, 1_000_000n)),
    genesisNumber: genesisNumberOf(input),
    noConsoleLog: flag('no-console-log', input.noConsoleLog),
    noCreate2Deployer: flag('no-create2-deployer', input.noCreate2Deployer),
    printTraces: flag('print-traces', input.printTraces),
    json: flag('json', input.json),
    ...checkInstamine(input.instamine),
  };
}

function mnemonicOf(input: ChainSimOptions): string {
  if (!flag('deterministic', input.deterministic)) return input.mnemonic ?? DEFAULT_MNEMONIC;
  if (input.mnemonic !== undefined && input.mnemonic !== GANACHE_DETERMINISTIC_MNEMONIC)
    throw new OptionError('deterministic', 'cannot be combined with --mnemonic');
  return GANACHE_DETERMINISTIC_MNEMONIC;
}
