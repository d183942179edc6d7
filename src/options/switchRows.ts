/** Options table, third part: other tools' switches (Ganache, Hardhat, Anvil), with their spellings as aliases. */
import { MAX_GAS_LIMIT } from './values.js';
import { type AccountKeyInput, accountKeysOf, checkInstamine, compatOf, ganacheTime, intervalOf, unlockOf } from './toolParsers.js';
import { bool, choice, count, filePath, maybe, whole } from './parsers.js';
import type { Rows } from './row.js';

export const SWITCH_ROWS = {
  /** Ganache's deterministic accounts (its fixed mnemonic); cannot be combined with `mnemonic` (resolve.ts). */
  deterministic: {
    flag: 'deterministic',
    alias: ['d', 'wallet.deterministic'],
    cli: 'boolean',
    help: 'Ganache\'s deterministic accounts (its mnemonic "myth like bonus ...")',
    default: false,
    parse: bool('deterministic'),
    as: null,
  },
  /** Accounts by private key (0x hex), each with an optional balance in wei; without `accounts`, no derived accounts. */
  accountKeys: {
    flag: 'account',
    alias: ['wallet.accounts'],
    cli: 'string',
    array: true,
    help: 'an account by private key, KEY or KEY,BALANCE_IN_WEI (repeatable); replaces the derived accounts unless --accounts is given',
    default: [] as readonly AccountKeyInput[],
    parse: accountKeysOf,
  },
  /** Addresses that may send without a signature from the start (Ganache's unlocked accounts); an account index names one of the node's accounts (unlocked already). */
  unlock: {
    flag: 'unlock',
    alias: ['u', 'wallet.unlockedAccounts'],
    cli: 'string',
    array: true,
    help: "an address that may send without a signature (repeatable; Ganache's unlocked accounts)",
    default: [] as ReadonlyArray<string | number>,
    parse: unlockOf,
  },
  /** Every address may send without a signature (Anvil's --auto-impersonate). */
  autoImpersonate: {
    flag: 'auto-impersonate',
    cli: 'boolean',
    help: 'every address may send without a signature (Anvil)',
    default: false,
    parse: bool('auto-impersonate'),
  },
  /** Write the accounts, their keys and the chain id as JSON to this file at start (Anvil's --config-out). */
  accountsOut: {
    flag: 'accounts-out',
    alias: ['config-out'],
    cli: 'string',
    help: "write the accounts, their keys and the chain id as JSON to FILE at start (Anvil's --config-out)",
    parse: filePath('accounts-out'),
  },
  /** net_version's answer (default: the chain id). Ganache's networkId. */
  networkId: {
    flag: 'network-id',
    alias: ['i', 'chain.networkId', 'networkId'],
    cli: 'string',
    help: "net_version's answer",
    shown: 'the chain id',
    parse: maybe(whole<number | bigint>('network-id', 1n, 2n ** 64n - 1n)),
  },
  /** Ganache's vmErrorsOnRPCResponse: a send whose transaction fails (mined with status 0) answers an error. */
  vmErrorsOnRPCResponse: {
    flag: 'vm-errors-on-rpc-response',
    alias: ['chain.vmErrorsOnRPCResponse'],
    cli: 'boolean',
    help: "a send whose transaction fails answers Ganache's error (the transaction is still mined)",
    default: false,
    parse: bool('vm-errors-on-rpc-response'),
  },
  /** 'ganache': web3_clientVersion and the shared evm_* names answer as Ganache 7 does (chain-sim/ganache sets it). */
  compat: { parse: compatOf },
  /** Genesis block time, in seconds since 1970; later blocks continue from it. */
  timestamp: {
    flag: 'timestamp',
    cli: 'string',
    help: 'genesis block time, seconds since 1970; later blocks continue from it',
    shown: 'now',
    parse: maybe(whole<number | bigint | string>('timestamp', 0n, 2n ** 64n - 1n)),
    spellings: [
      {
        flag: 'chain.time',
        alias: ['t', 'time'],
        cli: 'string',
        coerce: ganacheTime,
        help: "Ganache's spelling of --timestamp: a date, or milliseconds since 1970",
        shown: 'now',
      },
    ],
  },
  /** Legacy gas price: eth_gasPrice's answer and the price of legacy sends without one, in wei. */
  gasPrice: {
    flag: 'gas-price',
    alias: ['g', 'miner.defaultGasPrice', 'gasPrice'],
    cli: 'string',
    help: 'eth_gasPrice and the price of legacy sends without one, in wei',
    shown: 'base fee + 1 gwei',
    parse: maybe(whole<number | bigint | string>('gas-price', 0n, 2n ** 256n - 1n)),
  },
  /** Ganache's miner.instamine: 'eager' and 'strict' both hold here (the hash is answered, then the block is mined before any later request is read). */
  instamine: {
    flag: 'miner.instamine',
    alias: ['instamine'],
    cli: 'string',
    choices: ['eager', 'strict'],
    help: "Ganache's instamine mode; both hold (the hash is answered, then the block is mined before any later request)",
    default: 'eager',
    parse: (value: 'eager' | 'strict') => checkInstamine(value),
    as: null,
  },
  /** Largest contract code in bytes (init code: twice that); default the hardfork's (24576). */
  codeSizeLimit: {
    flag: 'code-size-limit',
    cli: 'number',
    help: 'largest contract code in bytes (init code: twice that)',
    shown: "the hardfork's (24576)",
    // 'unlimited' comes from --disable-code-size-limit (resolve.ts).
    parse: maybe(count('code-size-limit', 1n, 2n ** 31n)) as (value: number | undefined) => number | 'unlimited' | undefined,
  },
  /** No contract size limits (Hardhat's and Ganache's allowUnlimitedContractSize). */
  disableCodeSizeLimit: {
    flag: 'disable-code-size-limit',
    alias: ['chain.allowUnlimitedContractSize', 'allowUnlimitedContractSize', 'allow-unlimited-contract-size'],
    cli: 'boolean',
    help: 'no contract size limits',
    default: false,
    parse: bool('disable-code-size-limit'),
    as: null,
  },
  /** Block gas limit as large as it goes (2^63-1), so no transaction is too large for a block. */
  disableBlockGasLimit: {
    flag: 'disable-block-gas-limit',
    cli: 'boolean',
    help: 'block gas limit 2^63-1, so no transaction is too large for a block',
    default: false,
    parse: bool('disable-block-gas-limit'),
    as: null,
  },
  /** Gas cap of eth_call and eth_estimateGas (go-ethereum's --rpc.gascap). */
  transactionGasCap: {
    flag: 'transaction-gas-cap',
    alias: ['rpc.gascap', 'miner.callGasLimit', 'callGasLimit'],
    cli: 'string',
    help: 'gas cap of eth_call and eth_estimateGas',
    shown: 'the block gas limit',
    parse: maybe(whole<number | bigint | string>('transaction-gas-cap', 21_000n, MAX_GAS_LIMIT)),
  },
  /** Suggest and fill in a tip of 0 instead of 1 gwei (Anvil's --disable-min-priority-fee). */
  disableMinPriorityFee: {
    flag: 'disable-min-priority-fee',
    cli: 'boolean',
    help: 'suggest and fill in a tip of 0 instead of 1 gwei',
    default: false,
    parse: bool('disable-min-priority-fee'),
  },
  /** No automine from the first block: blocks only by evm_mine (or an interval). */
  noMining: {
    flag: 'no-mining',
    cli: 'boolean',
    help: 'no automine from the first block: blocks only by evm_mine (or an interval)',
    default: false,
    parse: bool('no-mining'),
  },
  /** With blockTime or miningInterval: automine as well (Hardhat's auto + interval). */
  mixedMining: {
    flag: 'mixed-mining',
    cli: 'boolean',
    help: 'with --block-time or --mining-interval: automine as well',
    default: false,
    parse: bool('mixed-mining'),
  },
  /** Hardhat's mining.interval, in milliseconds: a fixed interval or a random one in [min, max]. */
  miningInterval: {
    flag: 'mining-interval',
    alias: ['mining.interval'],
    cli: 'string',
    help: "Hardhat's mining.interval in ms: N, or MIN,MAX for a random interval",
    parse: maybe(intervalOf),
  },
  /** Hardhat's allowBlocksWithSameTimestamp: a block may have its parent's timestamp. */
  allowSameTimestamp: {
    flag: 'allow-same-timestamp',
    alias: ['allowBlocksWithSameTimestamp'],
    cli: 'boolean',
    help: "a block may have its parent's timestamp (Hardhat's allowBlocksWithSameTimestamp)",
    default: false,
    parse: bool('allow-same-timestamp'),
  },
  /** The genesis block's number (Anvil's --number): the chain starts there, later blocks count on from it. */
  number: {
    flag: 'number',
    cli: 'string',
    help: "number of the genesis block; later blocks count on from it (Anvil's --number)",
    default: 0 as number | bigint | string,
    parse: whole<number | bigint | string>('number', 0n, 2n ** 63n - 1n),
    as: 'genesisNumber',
  },
  /** 'safe' lags the head by this many blocks and 'finalized' by twice as many (Anvil). */
  slotsInAnEpoch: {
    flag: 'slots-in-an-epoch',
    cli: 'number',
    help: "'safe' is N blocks behind the head and 'finalized' 2N (Anvil)",
    default: 0,
    shown: '0 (both are the head)',
    parse: count('slots-in-an-epoch', 0n, 1_000_000n),
  },
  /** How console.log prints addresses: checksummed (as Anvil and forge) or lowercase (as Hardhat; chain-sim/hardhat asks for it). Code only. */
  consoleAddresses: { default: 'checksum', parse: choice('consoleAddresses', ['checksum', 'lowercase']) },
  /**
   * With artifacts, begin each console.log line with the contract that printed it (`[Vault] ...`);
   * false prints the line alone, as Hardhat does (chain-sim/hardhat asks for that). Code only.
   */
  consoleContractNames: { default: true, parse: bool('consoleContractNames') },
  /** Do not print Solidity console.log lines. */
  noConsoleLog: { flag: 'no-console-log', cli: 'boolean', help: "don't print Solidity console.log lines", default: false, parse: bool('no-console-log') },
  /**
   * Leave the CREATE2 deployer (0x4e59…956C, which Anvil and forge scripts expect) out of the
   * genesis state of a local chain. It is never added to a fork or a --genesis file's chain.
   */
  noCreate2Deployer: {
    flag: 'no-create2-deployer',
    alias: ['disable-default-create2-deployer', 'no-create2'],
    cli: 'boolean',
    help: "leave the CREATE2 deployer at 0x4e59b44847b379578588920cA78FbF26c0B4956C (forge scripts' salted deployments) out of a local chain's genesis state (never added to a fork or a --genesis file's chain)",
    default: false,
    parse: bool('no-create2-deployer'),
  },
  /** Print a call tree for each mined transaction (Anvil's -vvvv). */
  printTraces: {
    flag: 'print-traces',
    cli: 'boolean',
    help: "print a call tree for each mined transaction (Anvil's -vvvv)",
    default: false,
    parse: bool('print-traces'),
  },
  /** Log lines as JSON objects, one per line. */
  json: { flag: 'json', cli: 'boolean', help: 'log lines as JSON objects, one per line', default: false, parse: bool('json') },
} as const satisfies Rows;
