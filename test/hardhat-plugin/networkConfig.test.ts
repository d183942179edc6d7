/**
 * chain-sim/hardhat's mapping of Hardhat 2's `networks.hardhat` onto chain-sim's options, field by
 * field, from configs resolved by Hardhat's own config resolution (so Hardhat's defaults are the
 * installed Hardhat's). test/e2e/hardhat-plugin.test.ts checks the effects against Hardhat's network.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { deriveAccounts } from '../../src/engine/accounts/accounts.js';
import { HARDHAT_DEFAULT_COINBASE, HardhatConfigError, hardhatNetworkSettings } from '../../src/hardhat/hardhat2/networkConfig.js';
import type { HardhatNetworkConfig, HardhatNetworkUserConfig } from '../../src/hardhat/hardhat2/types.js';
import { resolveOptions } from '../../src/options.js';

const require = createRequire(import.meta.url);
const { resolveConfig } = require('hardhat/internal/core/config/config-resolution') as {
  resolveConfig: (path: string, config: object) => { networks: { hardhat: HardhatNetworkConfig } };
};
const { validateConfig } = require('hardhat/internal/core/config/config-validation') as { validateConfig: (config: object) => void };

/** The plugin's settings for a networks.hardhat as a project writes it, resolved by Hardhat. */
function settingsFor(user: HardhatNetworkUserConfig, { validate = true } = {}) {
  const config = { networks: { hardhat: user } };
  if (validate) validateConfig(config);
  return hardhatNetworkSettings(resolveConfig(CONFIG_FILE, config).networks.hardhat, user);
}

/** Any existing file: Hardhat resolves the project's paths from it. */
const CONFIG_FILE = fileURLToPath(new URL('../../../test/e2e/hardhat-plugin/hardhat.config.cjs', import.meta.url));
const MNEMONIC = 'test test test test test test test test test test test junk';
const keysOf = (mnemonic: string, count: number, path?: string) =>
  deriveAccounts(mnemonic, count, path).map(({ privateKey }) => `0x${Buffer.from(privateKey).toString('hex')}`);

describe('chain-sim/hardhat: networks.hardhat → chain-sim options', () => {
  it("an empty networks.hardhat starts the chain Hardhat's network would: its defaults, Hardhat's forms", () => {
    const { options, throwOnTransactionFailures, throwOnCallFailures } = settingsFor({});
    const { accountKeys, ...rest } = options;
    expect(rest).to.deep.equal({
      hardhatNode: true,
      consoleAddresses: 'lowercase',
      consoleContractNames: false,
      chainId: 31337,
      hardfork: 'osaka',
      gasLimit: 60_000_000,
      coinbase: HARDHAT_DEFAULT_COINBASE,
      allowSameTimestamp: false,
      disableCodeSizeLimit: false,
      verbose: false,
      order: 'fees',
    });
    expect(accountKeys).to.deep.equal(keysOf(MNEMONIC, 20).map((privateKey) => ({ privateKey, balance: 10_000n * 10n ** 18n })));
    expect([throwOnTransactionFailures, throwOnCallFailures]).to.deep.equal([true, true]);
    expect(() => resolveOptions(options)).to.not.throw();
  });

  it('chainId, hardfork (merge is paris), blockGasLimit, initialBaseFeePerGas, coinbase', () => {
    const { options, sources } = settingsFor({
      chainId: 7,
      hardfork: 'merge',
      blockGasLimit: 9_000_000,
      initialBaseFeePerGas: 12,
      coinbase: '0x00000000000000000000000000000000000000cc',
    });
    expect(options).to.deep.include({
      chainId: 7,
      hardfork: 'paris',
      gasLimit: 9_000_000,
      baseFee: 12,
      coinbase: '0x00000000000000000000000000000000000000cc',
    });
    expect(sources.get('gasLimit')).to.equal('blockGasLimit');
    expect(sources.get('baseFee')).to.equal('initialBaseFeePerGas');
  });

  it('accounts: mnemonic, path, count, initialIndex, passphrase and accountsBalance, derived as Hardhat derives them', () => {
    const { options } = settingsFor({ accounts: { mnemonic: MNEMONIC, count: 2, initialIndex: 3, accountsBalance: '77' } });
    expect(options.accountKeys).to.deep.equal(
      keysOf(MNEMONIC, 5)
        .slice(3)
        .map((privateKey) => ({ privateKey, balance: 77n })),
    );
    const path = "m/44'/60'/7'/0";
    const other = settingsFor({ accounts: { mnemonic: MNEMONIC, path, count: 1 } }).options.accountKeys as { privateKey: string }[];
    expect(other.map(({ privateKey }) => privateKey)).to.deep.equal(keysOf(MNEMONIC, 1, path));
    // Hardhat's own derivation with a passphrase (hardhat/internal/core/providers/util).
    const { derivePrivateKeys } = require('hardhat/internal/core/providers/util') as {
      derivePrivateKeys: (mnemonic: string, path: string, index: number, count: number, passphrase: string) => Uint8Array[];
    };
    const expected = derivePrivateKeys(MNEMONIC, "m/44'/60'/0'/0/", 1, 2, 'secret').map((key) => `0x${Buffer.from(key).toString('hex')}`);
    const withPassphrase = settingsFor({ accounts: { mnemonic: MNEMONIC, count: 2, initialIndex: 1, passphrase: 'secret' } }).options.accountKeys as {
      privateKey: string;
    }[];
    expect(withPassphrase.map(({ privateKey }) => privateKey)).to.deep.equal(expected);
  });

  it('accounts: [{ privateKey, balance }] with balances in wei', () => {
    const key = `0x${'11'.repeat(32)}`;
    expect(settingsFor({ accounts: [{ privateKey: key, balance: '123' }] }).options.accountKeys).to.deep.equal([{ privateKey: key, balance: 123n }]);
  });

  it('mining: auto and interval as Hardhat combines them, and mempool.order', () => {
    expect(settingsFor({ mining: { auto: false } }).options).to.deep.include({ noMining: true, order: 'fees' });
    const interval = settingsFor({ mining: { interval: 500 } }).options; // auto defaults to false beside an interval
    expect(interval).to.deep.include({ miningInterval: 500 });
    expect(interval).to.not.have.property('mixedMining');
    expect(settingsFor({ mining: { auto: true, interval: [100, 300] } }).options).to.deep.include({ miningInterval: [100, 300], mixedMining: true });
    expect(settingsFor({ mining: { mempool: { order: 'fifo' } } }).options).to.deep.include({ order: 'fifo' });
    expect(() => resolveOptions(settingsFor({ mining: { auto: true, interval: [100, 300] } }).options)).to.not.throw();
  });

  it('forking: url, blockNumber and httpHeaders when enabled; nothing when enabled is false', () => {
    expect(settingsFor({ forking: { url: 'http://127.0.0.1:1', blockNumber: 5, httpHeaders: { A: 'b' } } }).options.forking).to.deep.equal({
      url: 'http://127.0.0.1:1',
      blockNumber: 5,
      httpHeaders: { A: 'b' },
    });
    expect(settingsFor({ forking: { url: 'http://127.0.0.1:1' } }).options.forking).to.deep.equal({ url: 'http://127.0.0.1:1', httpHeaders: {} });
    expect(settingsFor({ forking: { url: 'http://127.0.0.1:1', enabled: false } }).options).to.not.have.property('forking');
  });

  it('initialDate (only when set), allowUnlimitedContractSize, allowBlocksWithSameTimestamp, loggingEnabled', () => {
    const { options } = settingsFor({
      initialDate: '2021-06-01T00:00:00Z',
      allowUnlimitedContractSize: true,
      allowBlocksWithSameTimestamp: true,
      loggingEnabled: true,
    });
    expect(options).to.deep.include({ timestamp: 1_622_505_600, disableCodeSizeLimit: true, allowSameTimestamp: true, verbose: true });
    expect(settingsFor({}).options).to.not.have.property('timestamp');
  });

  it('throwOnTransactionFailures and throwOnCallFailures go to the provider', () => {
    const settings = settingsFor({ throwOnTransactionFailures: false, throwOnCallFailures: false });
    expect([settings.throwOnTransactionFailures, settings.throwOnCallFailures]).to.deep.equal([false, false]);
  });

  it("from, gas, gasPrice, gasMultiplier and chains need no chain-sim option (Hardhat's wrappers; the upstream's history)", () => {
    const { options } = settingsFor({
      from: '0x00000000000000000000000000000000000000cc',
      gas: 1_000_000,
      gasPrice: 5,
      gasMultiplier: 2,
      chains: { 99: { hardforkHistory: { london: 0 } } },
    });
    expect(options).to.deep.equal(settingsFor({}).options);
  });

  it('refuses what it cannot honour, naming the field', () => {
    const refused = (user: HardhatNetworkUserConfig, field: string, problem: RegExp, validate = true) => {
      let error: unknown;
      try {
        settingsFor(user, { validate });
      } catch (e) {
        error = e;
      }
      expect(error, field).to.be.instanceOf(HardhatConfigError);
      expect((error as HardhatConfigError).field).to.equal(field);
      expect((error as Error).message).to.match(problem);
    };
    // Hardhat allows a minimum gas price before london only.
    refused({ hardfork: 'berlin', minGasPrice: 5 }, 'minGasPrice', /^networks\.hardhat\.minGasPrice: chain-sim has no minimum gas price/);
    // Hardhat 2.29 refuses this pair itself; Hardhat before 2.22, whose default hardfork was shanghai, took it.
    refused({ hardfork: 'shanghai', enableTransientStorage: true }, 'enableTransientStorage', /set hardfork: "cancun" or later instead/, false);
    refused({ hardfork: 'prague', enableRip7212: true }, 'enableRip7212', /set hardfork: "osaka" or later instead/);
    refused({ accounts: { mnemonic: 'too short', count: 1 } }, 'accounts.mnemonic', /12, 15, 18, 21 or 24 words/);
    refused({ initialDate: 'not a date' }, 'initialDate', /expected a date string/);
    // What Hardhat's own defaults or these values make harmless passes.
    expect(() => settingsFor({ hardfork: 'berlin', minGasPrice: 0 })).to.not.throw();
    expect(() => settingsFor({ hardfork: 'cancun', enableTransientStorage: true, enableRip7212: false })).to.not.throw();
    expect(() => settingsFor({ hardfork: 'osaka', enableRip7212: true })).to.not.throw();
  });
});
