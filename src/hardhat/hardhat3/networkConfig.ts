/**
 * A Hardhat 3 network of type `edr-simulated`, resolved (hre.config, with network.create()'s
 * overrides), mapped onto chain-sim's options as chain-sim/hardhat maps Hardhat 2's
 * `networks.hardhat` (hardhat2/networkConfig.ts): every field honoured, here or by Hardhat's own
 * request handlers (from, gas, gasPrice, gasMultiplier, which keep running on the connection), or
 * refused by name. Hardhat 3 resolves every default itself (chain id 31337, 20 accounts, a 60M gas
 * limit, its coinbase), so the resolved values are the chain Hardhat would have started.
 */
import type { ChainSimOptions } from '../../options/table.js';
import { HardhatConfigError, hdAccounts, initialTimestamp, wei } from '../hardhat2/fields.js';
import { type HardhatNetworkSettings, derivedAccounts, mapMining } from '../hardhat2/networkConfig.js';
import type { EdrNetworkConfig } from './types.js';

const REMOVE_ADVICE = "; remove it, or chainSim from the config's plugins to run on Hardhat's own network";

export async function hardhat3NetworkSettings(network: string, config: EdrNetworkConfig): Promise<HardhatNetworkSettings> {
  const refuse = (field: string, problem: string) => new HardhatConfigError(field, problem, network);
  // Ethereum's rules only: chain-sim does not simulate OP Stack chains.
  if (config.chainType !== undefined && config.chainType !== 'l1' && config.chainType !== 'generic') {
    throw refuse('chainType', `chain-sim simulates Ethereum (l1) chains only, not "${config.chainType}"${REMOVE_ADVICE}`);
  }
  if (config.minGasPrice !== 0n) throw refuse('minGasPrice', `chain-sim has no minimum gas price${REMOVE_ADVICE}`);
  if (config.transactionGasCap !== undefined) {
    throw refuse('transactionGasCap', `chain-sim applies the hardfork's own transaction gas cap (EIP-7825's from osaka on)${REMOVE_ADVICE}`);
  }
  const sources = new Map<string, string>();
  const options: ChainSimOptions = { hardhatNode: true, consoleAddresses: 'lowercase', consoleContractNames: false };
  const set = <K extends keyof ChainSimOptions>(key: K, value: ChainSimOptions[K], field: string) => {
    options[key] = value;
    sources.set(key, field);
  };
  set('chainId', config.chainId, 'chainId');
  set('networkId', config.networkId, 'networkId');
  set('hardfork', config.hardfork === 'merge' ? 'paris' : config.hardfork, 'hardfork');
  if (config.blockGasLimit === false) set('disableBlockGasLimit', true, 'blockGasLimit');
  else set('gasLimit', config.blockGasLimit ?? 60_000_000n, 'blockGasLimit');
  set('coinbase', `0x${Buffer.from(config.coinbase).toString('hex')}`, 'coinbase');
  set('accountKeys', await genesisAccounts(config.accounts, network), 'accounts');
  if (config.initialBaseFeePerGas !== undefined) set('baseFee', config.initialBaseFeePerGas, 'initialBaseFeePerGas');
  set('timestamp', initialTimestamp(config.initialDate, network), 'initialDate');
  set('allowSameTimestamp', config.allowBlocksWithSameTimestamp, 'allowBlocksWithSameTimestamp');
  set('disableCodeSizeLimit', config.allowUnlimitedContractSize ?? false, 'allowUnlimitedContractSize');
  set('verbose', config.loggingEnabled, 'loggingEnabled');
  mapMining(config.mining, set);
  if (config.forking?.enabled) {
    const { url, blockNumber, httpHeaders } = config.forking;
    set('forking', { url: await url.getUrl(), ...(blockNumber === undefined ? {} : { blockNumber }), httpHeaders: { ...httpHeaders } }, 'forking');
  }
  // gasEstimationMode: chain-sim's estimate is go-ethereum's (the lowest limit at which the
  // transaction succeeds, with the 63/64 rule), which satisfies both of Hardhat's modes for
  // code that does not catch an inner call's running out of gas (docs/coming-from.md).
  return { options, throwOnTransactionFailures: config.throwOnTransactionFailures, throwOnCallFailures: config.throwOnCallFailures, sources };
}

async function genesisAccounts(accounts: EdrNetworkConfig['accounts'], network: string): Promise<{ privateKey: string; balance: bigint }[]> {
  if (Array.isArray(accounts)) {
    const list = accounts as Extract<EdrNetworkConfig['accounts'], readonly unknown[]>;
    return Promise.all(
      list.map(async ({ privateKey, balance }, i) => ({
        privateKey: await privateKey.getHexString(),
        balance: wei(balance, `accounts[${i}].balance`, network),
      })),
    );
  }
  const hd = accounts as Exclude<EdrNetworkConfig['accounts'], readonly unknown[]>;
  const checked = hdAccounts(
    {
      mnemonic: await hd.mnemonic.get(),
      passphrase: await hd.passphrase.get(),
      path: hd.path,
      count: hd.count,
      initialIndex: hd.initialIndex,
      accountsBalance: hd.accountsBalance,
    },
    network,
  );
  return derivedAccounts(checked, network);
}
