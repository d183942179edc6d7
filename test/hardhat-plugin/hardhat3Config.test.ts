/**
 * chain-sim/hardhat's mapping of a Hardhat 3 `edr-simulated` network (as Hardhat 3.18 resolves it:
 * bigints, Uint8Array coinbase, configuration variables) onto chain-sim's options. Hardhat 3 needs
 * Node 22, so its resolution cannot run here; the resolved shapes are written out as Hardhat 3's
 * config-resolution.js produces them, defaults included. test/e2e/hardhat3.test.ts runs the plugin
 * in a real Hardhat 3 project.
 */
import { expect } from 'chai';
import { deriveAccounts } from '../../src/engine/accounts/accounts.js';
import { HardhatConfigError } from '../../src/hardhat/hardhat2/fields.js';
import { hardhat3NetworkSettings } from '../../src/hardhat/hardhat3/networkConfig.js';
import type { EdrNetworkConfig, ResolvedConfigurationVariable } from '../../src/hardhat/hardhat3/types.js';
import { resolveOptions } from '../../src/options.js';

/** A resolved configuration variable holding `value` (Hardhat 3 keeps keys, mnemonics and URLs behind these). */
const variable = (value: string): ResolvedConfigurationVariable => ({
  get: async () => value,
  getUrl: async () => value,
  getHexString: async () => value,
});

const MNEMONIC = 'test test test test test test test test test test test junk';

/** Hardhat 3.18's resolution of `{ type: 'edr-simulated' }`, with `changes` on top. */
function resolved(changes: Partial<EdrNetworkConfig> = {}): EdrNetworkConfig {
  return {
    type: 'edr-simulated',
    accounts: {
      mnemonic: variable(MNEMONIC),
      accountsBalance: 10_000n * 10n ** 18n,
      count: 20,
      initialIndex: 0,
      passphrase: variable(''),
      path: "m/44'/60'/0'/0",
    },
    chainId: 31337,
    chainType: undefined,
    allowBlocksWithSameTimestamp: false,
    allowUnlimitedContractSize: undefined,
    blockGasLimit: undefined,
    coinbase: Uint8Array.from(Buffer.from('c014ba5ec014ba5ec014ba5ec014ba5ec014ba5e', 'hex')),
    forking: undefined,
    gasEstimationMode: 'noInternalOutOfGas',
    hardfork: 'osaka',
    initialBaseFeePerGas: undefined,
    initialDate: new Date('2025-01-01T00:00:00Z'),
    loggingEnabled: false,
    minGasPrice: 0n,
    mining: { auto: true, interval: 0, mempool: { order: 'priority' } },
    networkId: 31337,
    throwOnCallFailures: true,
    throwOnTransactionFailures: true,
    transactionGasCap: undefined,
    ...changes,
  };
}

const keysOf = (count: number) => deriveAccounts(MNEMONIC, count).map(({ privateKey }) => `0x${Buffer.from(privateKey).toString('hex')}`);

describe('chain-sim/hardhat: a Hardhat 3 simulated network → chain-sim options', () => {
  it("the default network gives Hardhat's chain, in Hardhat's forms", async () => {
    const { options, throwOnCallFailures, throwOnTransactionFailures } = await hardhat3NetworkSettings('default', resolved());
    const { accountKeys, ...rest } = options;
    expect(rest).to.deep.equal({
      hardhatNode: true,
      consoleAddresses: 'lowercase',
      consoleContractNames: false,
      chainId: 31337,
      networkId: 31337,
      hardfork: 'osaka',
      gasLimit: 60_000_000n,
      coinbase: '0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e',
      timestamp: 1_735_689_600,
      allowSameTimestamp: false,
      disableCodeSizeLimit: false,
      verbose: false,
      order: 'fees',
    });
    expect(accountKeys).to.deep.equal(keysOf(20).map((privateKey) => ({ privateKey, balance: 10_000n * 10n ** 18n })));
    expect([throwOnTransactionFailures, throwOnCallFailures]).to.deep.equal([true, true]);
    expect(() => resolveOptions(options)).to.not.throw();
  });

  it('maps accounts by key, blockGasLimit false, forking, mining, and the other fields', async () => {
    const key = `0x${'22'.repeat(32)}`;
    const { options, throwOnTransactionFailures } = await hardhat3NetworkSettings(
      'sim',
      resolved({
        accounts: [{ privateKey: variable(key), balance: 5n }],
        blockGasLimit: false,
        forking: { enabled: true, url: variable('http://127.0.0.1:1'), blockNumber: 7n, httpHeaders: { A: 'b' } },
        mining: { auto: false, interval: [100, 200], mempool: { order: 'fifo' } },
        hardfork: 'merge',
        initialBaseFeePerGas: 9n,
        allowUnlimitedContractSize: true,
        allowBlocksWithSameTimestamp: true,
        loggingEnabled: true,
        chainType: 'l1',
        throwOnTransactionFailures: false,
        initialDate: '2024-01-01T00:00:00Z',
      }),
    );
    expect(options).to.deep.include({
      accountKeys: [{ privateKey: key, balance: 5n }],
      disableBlockGasLimit: true,
      forking: { url: 'http://127.0.0.1:1', blockNumber: 7n, httpHeaders: { A: 'b' } },
      miningInterval: [100, 200],
      order: 'fifo',
      hardfork: 'paris',
      baseFee: 9n,
      disableCodeSizeLimit: true,
      allowSameTimestamp: true,
      verbose: true,
      timestamp: 1_704_067_200,
    });
    expect(options).to.not.have.property('gasLimit');
    expect(throwOnTransactionFailures).to.equal(false);
  });

  it('refuses by name what chain-sim cannot honour', async () => {
    const refusal = async (changes: Partial<EdrNetworkConfig>, field: string) => {
      const error = await hardhat3NetworkSettings('default', resolved(changes)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, field).to.be.instanceOf(HardhatConfigError);
      expect((error as HardhatConfigError).message).to.match(new RegExp(`^networks\\.default\\.${field.replace('.', '\\.')}: `));
    };
    await refusal({ chainType: 'op' }, 'chainType');
    await refusal({ minGasPrice: 1n }, 'minGasPrice');
    await refusal({ transactionGasCap: false }, 'transactionGasCap');
    await refusal(
      { accounts: { mnemonic: variable('too few words'), accountsBalance: 1n, count: 1, initialIndex: 0, passphrase: variable(''), path: "m/44'/60'/0'/0" } },
      'accounts.mnemonic',
    );
  });
});
