/**
 * Options table, first part: the HTTP server, the accounts, the chain's settings, mining.
 * A row: flag, alias, cli (how yargs reads it), help, default (a value, in the option's own
 * units: --help shows it), parse (checks the value, default included, and resolves it).
 */
import { type WallClock, HARDFORK_NAMES } from '../engine/index.js';
import { MAX_GAS_LIMIT } from './values.js';
import { DEFAULT_CORS_ORIGINS } from '../server/cors.js';
import { DEFAULT_ALLOWED_HOSTS } from '../server/hostCheck.js';
import { HOST_ENTRY, ORIGIN_ENTRY, addressOf, asGiven, bool, busyPollOf, choice, count, difficultyOf, ether, list, timerSeconds, whole } from './parsers.js';
import type { Rows } from './row.js';

export const DEFAULT_MNEMONIC = 'test test test test test test test test test test test junk';
/** Low enough that a JavaScript miner finds a seal in ~0.1 s (16 attempts of ~5 ms on average). */
export const DEFAULT_DIFFICULTY = 16n;

export const CHAIN_ROWS = {
  port: { flag: 'port', alias: ['p', 'server.port'], cli: 'number', help: 'HTTP port (0 picks a free one)', default: 8545, parse: count('port', 0n, 65535n) },
  host: {
    flag: 'host',
    alias: ['H', 'hostname', 'server.host'],
    cli: 'string',
    help: 'address to listen on (short flag -H: -h is help)',
    default: '127.0.0.1',
    parse: asGiven<string>,
  },
  accounts: {
    flag: 'accounts',
    alias: ['a', 'wallet.totalAccounts'],
    cli: 'number',
    help: 'number of prefunded accounts',
    default: 10,
    parse: count('accounts', 0n, 100_000n),
  },
  /** Initial balance of each account, in ether (decimal string or number). */
  balance: {
    flag: 'balance',
    alias: ['e', 'wallet.defaultBalance', 'defaultBalanceEther'],
    cli: 'string',
    help: 'initial balance of each account, in ether',
    default: '10000',
    parse: ether('balance'),
    as: 'balanceWei',
  },
  mnemonic: {
    flag: 'mnemonic',
    alias: ['m', 'wallet.mnemonic'],
    cli: 'string',
    help: 'BIP-39 mnemonic the accounts derive from',
    default: DEFAULT_MNEMONIC,
    parse: asGiven<string>,
  },
  derivationPath: {
    flag: 'derivation-path',
    alias: ['wallet.hdPath', 'hd_path'],
    cli: 'string',
    help: 'HD path prefix; account i is <path>/i',
    default: "m/44'/60'/0'/0",
    parse: asGiven<string>,
  },
  chainId: {
    flag: 'chain-id',
    alias: ['chain.chainId', 'chainId'],
    cli: 'number',
    help: 'chain id (EIP-155)',
    default: 1337,
    parse: whole<number | bigint>('chain-id', 1n, 2n ** 64n - 1n),
  },
  /** Resolved with --mining (resolve.ts): pow mode defaults to the last proof-of-work fork. */
  hardfork: {
    flag: 'hardfork',
    alias: ['k', 'chain.hardfork'],
    cli: 'string',
    help: 'hardfork rules for every block',
    shown: 'newest live on mainnet',
    choices: HARDFORK_NAMES,
    parse: asGiven<string>,
  },
  gasLimit: {
    flag: 'gas-limit',
    alias: ['l', 'miner.blockGasLimit', 'gasLimit'],
    cli: 'string',
    help: 'block gas limit',
    default: 30_000_000,
    parse: whole<number | bigint>('gas-limit', 5000n, MAX_GAS_LIMIT),
  },
  /** Base fee of the genesis block, in wei. */
  baseFee: {
    flag: 'base-fee',
    cli: 'string',
    help: 'base fee of the genesis block, in wei',
    default: 1_000_000_000,
    parse: whole<number | bigint>('base-fee', 0n, 2n ** 256n - 1n),
  },
  coinbase: {
    flag: 'coinbase',
    cli: 'string',
    help: 'block beneficiary address',
    default: `0x${'00'.repeat(20)}`,
    parse: addressOf('coinbase'),
  },
  order: {
    flag: 'order',
    cli: 'string',
    help: 'pool ordering when several transactions fit a block',
    default: 'fees',
    choices: ['fees', 'fifo'],
    parse: choice('order', ['fees', 'fifo']),
  },
  maxBatchSize: {
    flag: 'max-batch-size',
    cli: 'number',
    help: 'most requests in one JSON-RPC batch',
    default: 1000,
    parse: count('max-batch-size', 1n, 1_000_000n),
  },
  maxBodyBytes: {
    flag: 'max-body-bytes',
    cli: 'number',
    help: 'largest HTTP request body, in bytes',
    default: 5 * 1024 * 1024,
    parse: count('max-body-bytes', 1024n, 2n ** 31n),
  },
  /** Interval mining: seconds between blocks (fractions allowed); automine is off. 0: instant automine. */
  blockTime: {
    flag: 'block-time',
    alias: ['b', 'miner.blockTime', 'blockTime'],
    cli: 'number',
    help: 'mine a block every N seconds (fractions allowed) instead of one per transaction',
    default: 0,
    shown: '0 (instant automine)',
    parse: timerSeconds('block-time'),
  },
  /** Milliseconds the HTTP server keeps polling for the next request after an answer (0: sleep at once). */
  busyPoll: {
    flag: 'busy-poll',
    cli: 'number',
    help: 'milliseconds the HTTP server keeps polling for the next request after answering, instead of sleeping (lower latency; 0: off; always off on one core)',
    default: 0.5,
    parse: busyPollOf,
  },
  /** Seconds a filter lives without being polled. */
  filterTimeout: {
    flag: 'filter-timeout',
    cli: 'number',
    help: 'seconds a filter lives without being polled',
    default: 300,
    parse: count('filter-timeout', 1n, 365n * 24n * 3600n),
  },
  /** Most logs one eth_getLogs / eth_getFilterLogs answer may hold. */
  maxLogs: {
    flag: 'max-logs',
    cli: 'number',
    help: 'most logs one eth_getLogs answer may hold',
    default: 10_000,
    parse: count('max-logs', 1n, 10_000_000n),
  },
  /** 'pow': blocks are sealed only by solutions to chain_getWork (chain_submitWork). */
  mining: {
    flag: 'mining',
    cli: 'string',
    help: 'instant: automine; pow: blocks sealed by chain_getWork/chain_submitWork miners',
    default: 'instant',
    choices: ['instant', 'pow'],
    parse: choice('mining', ['instant', 'pow']),
  },
  /** Proof-of-work difficulty: a whole number, or 'canonical' for the hardfork's formula. */
  difficulty: {
    flag: 'difficulty',
    cli: 'string',
    help: "pow mode: block difficulty, or 'canonical' for the hardfork's formula",
    default: DEFAULT_DIFFICULTY as number | bigint | string,
    parse: difficultyOf,
  },
  /** Threads of the built-in CPU miner in pow mode (0: none, external miners only). */
  minerThreads: {
    flag: 'miner-threads',
    cli: 'number',
    help: 'pow mode: threads of the built-in CPU miner',
    default: 0,
    parse: count('miner-threads', 0n, 256n),
  },
  /** Directory for Ethash cache files (default ~/.cache/chain-sim/ethash; null: no files). */
  ethashCacheDir: { parse: asGiven<string | null | undefined> },
  /** Host headers the HTTP server answers (comma-separated or a list; `*`: any). */
  allowedHosts: {
    flag: 'allowed-hosts',
    cli: 'string',
    help: 'comma-separated Host names the HTTP server answers (DNS-rebinding guard; IP addresses always pass); * for any',
    default: DEFAULT_ALLOWED_HOSTS as string | readonly string[],
    shown: `${DEFAULT_ALLOWED_HOSTS.join(',')} and the --host name`,
    parse: list('allowed-hosts', HOST_ENTRY, 'a host name or address'),
  },
  /** Browser origins allowed to read replies (comma-separated or a list; `*`: any). */
  cors: {
    flag: 'cors',
    alias: 'allow-origin', // Anvil's spelling
    cli: 'string',
    help: 'comma-separated browser origins allowed to read replies (scheme://host, scheme://host:* for any port); * for any',
    default: DEFAULT_CORS_ORIGINS as string | readonly string[],
    parse: list('cors', ORIGIN_ENTRY, 'an origin like http://localhost:3000 or http://localhost:*'),
  },
  /** The explorer page at `GET /` (docs/explorer.md); false: GET is refused with 405 as before it existed. */
  ui: {
    flag: 'ui',
    cli: 'boolean',
    help: 'serve the explorer (accounts, blocks, transactions, contracts) at GET / in a browser; --no-ui turns it off',
    default: true,
    parse: bool('ui'),
  },
  /** Injectable wall clock in milliseconds, for tests. */
  wallClock: { parse: asGiven<WallClock | undefined> },
  /** Where log lines go (default: console.log unless quiet); resolve.ts wraps it for --json. */
  logger: { parse: asGiven<((line: string) => void) | undefined> },
} as const satisfies Rows;
