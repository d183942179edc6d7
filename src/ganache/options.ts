/**
 * Ganache's options, mapped onto chain-sim's: Ganache 7's nested form (wallet.*, chain.*,
 * miner.*, fork.*, logging.*, database.*, server.*) and ganache-core 2's flat legacy names.
 * Every option Ganache documents is either mapped or refused with a message naming it;
 * an option Ganache does not know is refused too, so a typo never passes silently.
 * Ganache's defaults apply where they differ from chain-sim's (1000 ether, a random
 * mnemonic unless deterministic, net_version the start time, eth_gasPrice 2 gwei).
 */
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { type ChainSimOptions, GANACHE_DETERMINISTIC_MNEMONIC, OPTION_DECLARATIONS, OptionError, UnknownOptionError } from '../options.js';
import { nearestName } from '../options/suggest.js';
import { Mapped, type Plain, refuse, onlyDefault, bool, quantity, genesisTime, hardfork, walletAccounts, unlocked, stateFileIn } from './optionValues.js';

export { GANACHE_DETERMINISTIC_MNEMONIC };

/** What chain-sim/ganache needs besides ChainSimOptions. */
export interface GanacheSettings {
  readonly options: ChainSimOptions;
  /** Account indexes of wallet.unlockedAccounts, resolved once the accounts are known. */
  readonly unlockIndexes: readonly number[];
  /** Which Ganache option set each chain-sim option, to name it when chain-sim refuses the value. */
  readonly sources: ReadonlyMap<string, string>;
}

const KNOWN: Readonly<Record<string, readonly string[]>> = {
  wallet: [
    'accounts',
    'totalAccounts',
    'deterministic',
    'seed',
    'mnemonic',
    'unlockedAccounts',
    'lock',
    'passphrase',
    'accountKeysPath',
    'defaultBalance',
    'hdPath',
  ],
  chain: [
    'allowUnlimitedContractSize',
    'allowUnlimitedInitCodeSize',
    'asyncRequestProcessing',
    'chainId',
    'networkId',
    'time',
    'hardfork',
    'vmErrorsOnRPCResponse',
  ],
  miner: [
    'blockTime',
    'timestampIncrement',
    'defaultGasPrice',
    'blockGasLimit',
    'defaultTransactionGasLimit',
    'difficulty',
    'callGasLimit',
    'instamine',
    'coinbase',
    'extraData',
    'priceBump',
  ],
  logging: ['debug', 'quiet', 'verbose', 'file', 'logger'],
  database: ['db', 'dbPath'],
  fork: [
    'url',
    'provider',
    'network',
    'blockNumber',
    'preLatestConfirmations',
    'username',
    'password',
    'jwt',
    'userAgent',
    'origin',
    'headers',
    'requestsPerSecond',
    'disableCache',
    'deleteCache',
  ],
  server: ['ws', 'wsBinary', 'rpcEndpoint', 'chunkSize'],
};

const LEGACY = [
  'accounts',
  'total_accounts',
  'seed',
  'mnemonic',
  'unlocked_accounts',
  'secure',
  // ganache-core 2's name for what ganache-cli 6 calls --secure (Ganache 7: wallet.lock).
  'locked',
  'account_keys_path',
  'default_balance_ether',
  'hd_path',
  'allowUnlimitedContractSize',
  'asyncRequestProcessing',
  'chainId',
  'network_id',
  'time',
  'hardfork',
  'vmErrorsOnRPCResponse',
  'blockTime',
  'gasPrice',
  'gasLimit',
  'callGasLimit',
  'instamine',
  'debug',
  'verbose',
  'logger',
  'db_path',
  'db',
  'fork',
  'fork_block_number',
  'ws',
  // Not Ganache legacy names, but what ganache-cli users pass in code; accepted as Ganache 7 reads them.
  'quiet',
  'deterministic',
  'flavor',
];

/** Ganache options (nested and/or legacy) → chain-sim options. Throws OptionError naming the option it cannot honour. */
export function mapGanacheOptions(input: unknown = {}): GanacheSettings {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new OptionError('options', 'expected an object');
  const given = input as Plain;
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(KNOWN, key) && !LEGACY.includes(key)) throw unknownGanacheOption(key, undefined);
  }
  const group = (name: string): Plain => {
    const value = given[name];
    if (value === undefined) return {};
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new OptionError(name, 'expected an object of options');
    for (const key of Object.keys(value)) {
      if (!KNOWN[name]!.includes(key)) throw unknownGanacheOption(key, name);
    }
    return value as Plain;
  };
  const wallet = group('wallet');
  const chain = group('chain');
  const miner = group('miner');
  const logging = group('logging');
  const database = group('database');
  const server = group('server');
  // ganache-core's `fork` is a URL string; Ganache 7's an object of fork.* options.
  // ganache-core's `fork` could also be an EIP-1193 or legacy provider object.
  const forkObject = given.fork as { request?: unknown; send?: unknown; sendAsync?: unknown } | undefined;
  if (
    typeof forkObject === 'object' &&
    forkObject !== null &&
    [forkObject.request, forkObject.send, forkObject.sendAsync].some((f) => typeof f === 'function')
  ) {
    refuse('fork', 'forking from a provider object; give the upstream URL (fork.url)');
  }
  const legacyFork: Plain | undefined = typeof given.fork === 'string' ? { url: given.fork } : undefined;
  const fork: Plain = legacyFork ?? (given.fork === undefined ? {} : group('fork'));
  const m = new Mapped();

  onlyDefault('flavor', given.flavor, ['ethereum'], 'only the ethereum flavor exists');

  // ---- wallet
  m.set('accountKeys', walletAccounts('wallet.accounts', wallet.accounts), 'wallet.accounts');
  m.set('accountKeys', walletAccounts('accounts', given.accounts), 'accounts');
  m.set('accounts', quantity('wallet.totalAccounts', wallet.totalAccounts), 'wallet.totalAccounts');
  m.set('accounts', quantity('total_accounts', given.total_accounts), 'total_accounts');
  for (const [source, value] of [
    ['wallet.deterministic', wallet.deterministic],
    ['deterministic', given.deterministic],
  ] as const) {
    if (bool(source, value)) m.set('mnemonic', GANACHE_DETERMINISTIC_MNEMONIC, source);
  }
  if (wallet.seed !== undefined || given.seed !== undefined) {
    refuse(
      wallet.seed !== undefined ? 'wallet.seed' : 'seed',
      'Ganache turns a seed into a mnemonic with its own random generator; give wallet.mnemonic (or wallet.deterministic) instead',
    );
  }
  m.set('mnemonic', wallet.mnemonic, 'wallet.mnemonic');
  m.set('mnemonic', given.mnemonic, 'mnemonic');
  unlocked(m, 'wallet.unlockedAccounts', wallet.unlockedAccounts);
  unlocked(m, 'unlocked_accounts', given.unlocked_accounts);
  onlyDefault('wallet.lock', wallet.lock, [false], 'accounts present at start are always unlocked (personal_lockAccount locks one at run time)');
  for (const source of ['secure', 'locked'] as const) {
    onlyDefault(source, given[source], [false], 'accounts present at start are always unlocked (personal_lockAccount locks one at run time)');
  }
  onlyDefault('wallet.passphrase', wallet.passphrase, [''], 'accounts present at start have the passphrase ""');
  for (const [source, value] of [
    ['wallet.accountKeysPath', wallet.accountKeysPath],
    ['account_keys_path', given.account_keys_path],
  ] as const) {
    if (value !== undefined) refuse(source, 'writing the accounts to a file is not supported by chain-sim/ganache yet');
  }
  m.set('balance', wallet.defaultBalance === undefined ? undefined : String(wallet.defaultBalance), 'wallet.defaultBalance');
  m.set('balance', given.default_balance_ether === undefined ? undefined : String(given.default_balance_ether), 'default_balance_ether');
  for (const [source, value] of [
    ['wallet.hdPath', wallet.hdPath],
    ['hd_path', given.hd_path],
  ] as const) {
    if (value === undefined) continue;
    const path = Array.isArray(value) ? value.join('/') : value;
    if (typeof path !== 'string') throw new OptionError(source, "expected a path like \"m/44'/60'/0'/0\"");
    m.set('derivationPath', path.replace(/\/$/, ''), source);
  }

  // ---- chain
  m.set('disableCodeSizeLimit', bool('chain.allowUnlimitedContractSize', chain.allowUnlimitedContractSize) || undefined, 'chain.allowUnlimitedContractSize');
  m.set('disableCodeSizeLimit', bool('allowUnlimitedContractSize', given.allowUnlimitedContractSize) || undefined, 'allowUnlimitedContractSize');
  // chain-sim lifts both limits together; Ganache's init-code switch alone would leave code limited.
  onlyDefault(
    'chain.allowUnlimitedInitCodeSize',
    chain.allowUnlimitedInitCodeSize,
    [false, chain.allowUnlimitedContractSize ?? given.allowUnlimitedContractSize],
    'init code size is lifted only together with chain.allowUnlimitedContractSize',
  );
  // Requests to one chain are answered in order either way; both settings give the answers Ganache gives.
  bool('chain.asyncRequestProcessing', chain.asyncRequestProcessing);
  bool('asyncRequestProcessing', given.asyncRequestProcessing);
  m.set('chainId', quantity('chain.chainId', chain.chainId), 'chain.chainId');
  m.set('chainId', quantity('chainId', given.chainId), 'chainId');
  m.set('networkId', quantity('chain.networkId', chain.networkId), 'chain.networkId');
  m.set('networkId', quantity('network_id', given.network_id), 'network_id');
  m.set('timestamp', genesisTime('chain.time', chain.time), 'chain.time');
  m.set('timestamp', genesisTime('time', given.time), 'time');
  m.set('hardfork', hardfork(chain.hardfork), 'chain.hardfork');
  m.set('hardfork', hardfork(given.hardfork), 'hardfork');
  m.set('vmErrorsOnRPCResponse', bool('chain.vmErrorsOnRPCResponse', chain.vmErrorsOnRPCResponse), 'chain.vmErrorsOnRPCResponse');
  m.set('vmErrorsOnRPCResponse', bool('vmErrorsOnRPCResponse', given.vmErrorsOnRPCResponse), 'vmErrorsOnRPCResponse');

  // ---- miner
  m.set('blockTime', miner.blockTime, 'miner.blockTime');
  m.set('blockTime', given.blockTime, 'blockTime');
  onlyDefault(
    'miner.timestampIncrement',
    miner.timestampIncrement,
    ['clock'],
    "blocks take the clock's time (evm_setTime, evm_increaseTime and evm_mine move it)",
  );
  m.set('gasPrice', quantity('miner.defaultGasPrice', miner.defaultGasPrice), 'miner.defaultGasPrice');
  m.set('gasPrice', quantity('gasPrice', given.gasPrice), 'gasPrice');
  m.set('gasLimit', quantity('miner.blockGasLimit', miner.blockGasLimit), 'miner.blockGasLimit');
  m.set('gasLimit', quantity('gasLimit', given.gasLimit), 'gasLimit');
  onlyDefault(
    'miner.defaultTransactionGasLimit',
    miner.defaultTransactionGasLimit,
    ['estimate'],
    'a send without gas is estimated, as go-ethereum does (Ganache\'s "estimate")',
  );
  m.set('transactionGasCap', quantity('miner.callGasLimit', miner.callGasLimit), 'miner.callGasLimit');
  m.set('transactionGasCap', quantity('callGasLimit', given.callGasLimit), 'callGasLimit');
  onlyDefault('miner.difficulty', quantity('miner.difficulty', miner.difficulty), [1n], 'blocks after the merge have difficulty 0');
  // eager: the receipt is there when the hash is answered; strict: the hash is answered before the block is mined. chain-sim answers the hash, then mines before any later request is read: both hold.
  for (const [source, value] of [
    ['miner.instamine', miner.instamine],
    ['instamine', given.instamine],
  ] as const) {
    if (value !== undefined && value !== 'eager' && value !== 'strict')
      throw new OptionError(source, `expected "eager" or "strict", got ${JSON.stringify(value)}`);
  }
  if (miner.coinbase !== undefined) {
    if (typeof miner.coinbase === 'number') refuse('miner.coinbase', 'give the address rather than an account index');
    m.set('coinbase', miner.coinbase, 'miner.coinbase');
  }
  if (miner.extraData !== undefined) refuse('miner.extraData', 'set it at run time with miner_setExtra');
  onlyDefault('miner.priceBump', quantity('miner.priceBump', miner.priceBump), [10n], 'a replacement must pay 10% more, as go-ethereum requires');

  // ---- logging
  for (const [source, value] of [
    ['logging.debug', logging.debug],
    ['debug', given.debug],
  ] as const) {
    if (bool(source, value)) refuse(source, 'opcode logging is not available; use debug_traceTransaction');
  }
  m.set('quiet', bool('logging.quiet', logging.quiet), 'logging.quiet');
  m.set('quiet', bool('quiet', given.quiet), 'quiet');
  m.set('verbose', bool('logging.verbose', logging.verbose), 'logging.verbose');
  m.set('verbose', bool('verbose', given.verbose), 'verbose');
  if (logging.file !== undefined) refuse('logging.file', 'give logging.logger with a log function that writes the file');
  for (const [source, value] of [
    ['logging.logger', logging.logger],
    ['logger', given.logger],
  ] as const) {
    if (value === undefined) continue;
    const log = (value as { log?: unknown }).log;
    if (typeof log !== 'function') throw new OptionError(source, 'expected an object with a log(message) function');
    m.set('logger', (line: string) => (log as (line: string) => void).call(value, line), source);
  }

  // ---- database
  m.set('stateFile', stateFileIn(database.dbPath, 'database.dbPath'), 'database.dbPath');
  m.set('stateFile', stateFileIn(given.db_path, 'db_path'), 'db_path');
  if (database.db !== undefined || given.db !== undefined)
    refuse(database.db !== undefined ? 'database.db' : 'db', "a LevelDB object cannot hold chain-sim's state; give database.dbPath");

  // ---- fork
  for (const key of Object.keys(fork)) {
    if (!['url', 'blockNumber', 'headers', 'requestsPerSecond', 'disableCache', 'deleteCache'].includes(key))
      refuse(`fork.${key}`, "only fork.url, fork.blockNumber, fork.headers, fork.requestsPerSecond and fork.disableCache map to chain-sim's fork options");
  }
  // Ganache's limit is requests a second too (0: none); its disk cache is chain-sim's --fork-cache.
  const rate = quantity('fork.requestsPerSecond', fork.requestsPerSecond);
  m.set('forkRequestsPerSecond', rate === undefined ? undefined : Number(rate), 'fork.requestsPerSecond');
  if (bool('fork.disableCache', fork.disableCache)) m.set('forkCache', false, 'fork.disableCache');
  onlyDefault('fork.deleteCache', bool('fork.deleteCache', fork.deleteCache), [false], 'delete the fork cache directory (--fork-cache-dir) yourself');
  const forkBlock = fork.blockNumber ?? given.fork_block_number;
  if (fork.url !== undefined || forkBlock !== undefined || fork.headers !== undefined) {
    m.set('fork', { url: fork.url, blockNumber: forkBlock, headers: fork.headers }, legacyFork ? 'fork' : 'fork.url');
  }

  // ---- server (the HTTP and WebSocket endpoints are one port at every path)
  onlyDefault('server.ws', server.ws, [true], 'WebSocket is always served on the HTTP port');
  onlyDefault('ws', given.ws, [true], 'WebSocket is always served on the HTTP port');
  onlyDefault('server.wsBinary', server.wsBinary, ['auto', false], 'replies are text frames');
  onlyDefault('server.rpcEndpoint', server.rpcEndpoint, ['/'], 'the endpoint answers at /');
  if (server.chunkSize !== undefined) refuse('server.chunkSize', 'replies are not chunked');

  for (const [key, value] of Object.entries(ganacheDefaults())) {
    if (!m.has(key as keyof ChainSimOptions)) m.set(key as keyof ChainSimOptions, value, 'default');
  }
  return { options: m.options as ChainSimOptions, unlockIndexes: m.unlockIndexes, sources: m.from };
}

/**
 * Ganache's defaults where they differ from chain-sim's: a random mnemonic, 1000 ether, net_version
 * the start time, eth_gasPrice 2 gwei, and Ganache's forms (compat 'ganache'; a failed send answers
 * its hash unless vmErrorsOnRPCResponse, not Hardhat's node error).
 */
export function ganacheDefaults(): ChainSimOptions {
  return {
    mnemonic: generateMnemonic(wordlist),
    balance: '1000',
    networkId: BigInt(Date.now()),
    gasPrice: 2_000_000_000n,
    // Ganache's forms for every client (its client version; a failed send answers its hash unless vmErrorsOnRPCResponse).
    compat: 'ganache',
  };
}

/** chain-sim options given on the `ganache` command line, with Ganache's defaults for the ones not given. */
export function withGanacheDefaults(given: ChainSimOptions): ChainSimOptions {
  const { mnemonic, ...defaults } = ganacheDefaults();
  // --deterministic (-d) is Ganache's mnemonic: no random one beside it.
  return { ...defaults, ...(given.deterministic === true ? {} : { mnemonic }), ...given };
}

/**
 * A name Ganache does not have (`key` at the top level, or in `group`), with the nearest of Ganache's
 * names: the group's own (at the top level: the legacy names and the groups), then the nested ones
 * (`totalAccount` at the top level: `wallet.totalAccounts`; `chain.blockTime`: `miner.blockTime`).
 */
function unknownGanacheOption(key: string, group: string | undefined): UnknownOptionError {
  const nested = Object.entries(KNOWN).flatMap(([name, leaves]) => leaves.map((leaf) => [leaf, `${name}.${leaf}`] as const));
  const candidates = [
    ...(group === undefined
      ? [...LEGACY, ...Object.keys(KNOWN)].map((name) => [name, name] as const)
      : KNOWN[group]!.map((leaf) => [leaf, `${group}.${leaf}`] as const)),
    ...nested,
  ];
  return new UnknownOptionError(group === undefined ? key : `${group}.${key}`, nearestName(key, candidates), 'Ganache option');
}

/** chain-sim's refusal of a value, named by the Ganache option that gave it (its flag otherwise). */
export function inGanacheTerms(error: unknown, settings: GanacheSettings): unknown {
  if (!(error instanceof OptionError)) return error;
  const key = OPTION_DECLARATIONS.find((decl) => decl.flag === error.option)?.key;
  const source = key === undefined ? undefined : settings.sources.get(key);
  return source === undefined || source === 'default' ? error : new OptionError(source, error.problem);
}
