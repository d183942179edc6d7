/**
 * Hardhat 2's `networks.hardhat`, mapped onto chain-sim's options: every field Hardhat defines is
 * honoured (here, or by Hardhat's own provider wrappers, which the plugin keeps) or refused by
 * name; none is ignored. Values come from the resolved config (hre.config), so the installed
 * Hardhat's defaults apply where the project sets nothing (chain id 31337, 20 accounts, a 60M block
 * gas limit, its default hardfork, its coinbase): the chain is the one Hardhat would have started.
 * What the user wrote (hre.userConfig) decides the rest: fields whose resolved value is always
 * present (initialDate is "now" unless given) and fields refused only when set.
 * docs/coming-from.md#hardhat has the table.
 */
import { deriveChild, derivePath, mnemonicToSeed } from '../../engine/index.js';
import type { ChainSimOptions } from '../../options/table.js';
import { HARDHAT_DEFAULT_COINBASE, HardhatConfigError, checkHardhatNetwork, hdAccounts, initialTimestamp, poolOrder, wei } from './fields.js';
import type { HardhatAccountUserConfig, HardhatHDAccountsUserConfig, HardhatNetworkConfig, HardhatNetworkUserConfig } from './types.js';

export { HARDHAT_DEFAULT_COINBASE, HardhatConfigError };

/** What the plugin starts: chain-sim's options and the forms the provider answers in. */
export interface HardhatNetworkSettings {
  /** Options of the chain (with the fork, when `forking` is enabled). */
  readonly options: ChainSimOptions;
  /** Hardhat's throwOnTransactionFailures: false answers a failed send with its hash. */
  readonly throwOnTransactionFailures: boolean;
  /** Hardhat's throwOnCallFailures: false answers a reverted eth_call with its revert data. */
  readonly throwOnCallFailures: boolean;
  /** Which Hardhat field each chain-sim option came from, to name it when chain-sim refuses the value. */
  readonly sources: ReadonlyMap<string, string>;
}

export function hardhatNetworkSettings(resolved: HardhatNetworkConfig, user: HardhatNetworkUserConfig = {}): HardhatNetworkSettings {
  checkHardhatNetwork(resolved, user);
  const sources = new Map<string, string>();
  const options: ChainSimOptions = {};
  const set = <K extends keyof ChainSimOptions>(key: K, value: ChainSimOptions[K], field: string) => {
    options[key] = value;
    sources.set(key, field);
  };
  // Hardhat's forms, asked for explicitly: the HardhatNetwork/ client version, failed sends answered with Hardhat's error.
  options.hardhatNode = true;
  // console.log lines as Hardhat prints them: addresses in lowercase (chain-sim checksums by default), no contract name before them.
  options.consoleAddresses = 'lowercase';
  options.consoleContractNames = false;
  set('chainId', resolved.chainId, 'chainId');
  set('hardfork', resolved.hardfork === 'merge' ? 'paris' : resolved.hardfork, 'hardfork');
  set('gasLimit', resolved.blockGasLimit, 'blockGasLimit');
  set('coinbase', resolved.coinbase ?? HARDHAT_DEFAULT_COINBASE, 'coinbase');
  set('accountKeys', genesisAccounts(resolved.accounts), 'accounts');
  if (resolved.initialBaseFeePerGas !== undefined) set('baseFee', resolved.initialBaseFeePerGas, 'initialBaseFeePerGas');
  // Resolved to "now" when not set; chain-sim's clock starts at now too.
  if (user.initialDate !== undefined) set('timestamp', initialTimestamp(user.initialDate), 'initialDate');
  set('allowSameTimestamp', resolved.allowBlocksWithSameTimestamp ?? false, 'allowBlocksWithSameTimestamp');
  set('disableCodeSizeLimit', resolved.allowUnlimitedContractSize, 'allowUnlimitedContractSize');
  set('verbose', resolved.loggingEnabled, 'loggingEnabled');
  mapMining(resolved.mining, set);
  if (resolved.forking?.enabled) {
    const { url, blockNumber, httpHeaders } = resolved.forking;
    set('forking', { url, ...(blockNumber === undefined ? {} : { blockNumber }), httpHeaders }, 'forking');
  }
  // Honoured elsewhere: from, gas, gasPrice and gasMultiplier by Hardhat's own provider wrappers (the plugin
  // keeps them); throwOnTransactionFailures and throwOnCallFailures by the provider (provider.ts). `chains`
  // (hardfork histories of forked chains, which Hardhat needs to replay their old blocks) needs nothing:
  // chain-sim sends requests at blocks before the fork point to the upstream, which runs them under its own rules.
  // minGasPrice, enableTransientStorage and enableRip7212: refused where they would matter (fields.ts).
  return {
    options,
    throwOnTransactionFailures: resolved.throwOnTransactionFailures,
    throwOnCallFailures: resolved.throwOnCallFailures,
    sources,
  };
}

export type Setter = <K extends keyof ChainSimOptions>(key: K, value: ChainSimOptions[K], field: string) => void;

/** auto and interval as Hardhat combines them: automine, interval mining, both, or neither. */
export function mapMining(mining: HardhatNetworkConfig['mining'], set: Setter): void {
  const { auto, interval, mempool } = mining;
  set('order', poolOrder(mempool.order), 'mining.mempool.order');
  const timed = Array.isArray(interval) ? true : interval !== 0;
  if (timed) {
    set('miningInterval', Array.isArray(interval) ? [interval[0]!, interval[1]!] : (interval as number), 'mining.interval');
    if (auto) set('mixedMining', true, 'mining.auto');
  } else if (!auto) set('noMining', true, 'mining.auto');
}

/** The genesis accounts Hardhat would create: its own list, or keys derived as Hardhat derives them. */
function genesisAccounts(accounts: HardhatNetworkConfig['accounts']): { privateKey: string; balance: bigint }[] {
  if (Array.isArray(accounts)) {
    return (accounts as readonly HardhatAccountUserConfig[]).map(({ privateKey, balance }, i) => ({
      privateKey,
      balance: wei(balance, `accounts[${i}].balance`),
    }));
  }
  return derivedAccounts(hdAccounts(accounts as Required<HardhatHDAccountsUserConfig>));
}

/** Keys derived as Hardhat derives them: `path/initialIndex+i` from the mnemonic with its BIP-39 passphrase. */
/**
 * The keys Hardhat derives, remembered by what they derive from: Hardhat 3 makes a chain per
 * connection, and deriving 20 keys (a seed, then elliptic-curve work per level and per key) took
 * most of a connection's start.
 */
const derivedKeys = new Map<string, readonly string[]>();

export function derivedAccounts(
  hd: { mnemonic: string; path: string; initialIndex: number; count: number; passphrase: string; balance: bigint },
  network = 'hardhat',
): { privateKey: string; balance: bigint }[] {
  const { mnemonic, path, initialIndex, count, passphrase, balance } = hd;
  const key = JSON.stringify([mnemonic, passphrase ?? '', path, initialIndex, count]);
  let keys = derivedKeys.get(key);
  if (keys === undefined) {
    let parent: ReturnType<typeof derivePath>;
    try {
      parent = derivePath(mnemonicToSeed(mnemonic, passphrase ?? ''), path.replace(/\/$/, ''));
    } catch (error) {
      throw new HardhatConfigError('accounts.path', error instanceof Error ? error.message : String(error), network);
    }
    keys = Array.from({ length: count }, (_, i) => `0x${Buffer.from(deriveChild(parent, initialIndex + i).privateKey).toString('hex')}`);
    derivedKeys.set(key, keys);
  }
  return keys.map((privateKey) => ({ privateKey, balance }));
}
