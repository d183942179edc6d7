/**
 * Pins what the options table produces apart from the text docs/reference/options.md already pins
 * (flags, aliases, defaults as shown, help): the resolved defaults as values, and that every
 * spelling of every flag fills its option.
 */
import { createAddressFromString } from '@ethereumjs/util';
import { expect } from 'chai';
import { parseCommandLine } from '../../src/cli/cli.js';
import { newestLiveHardfork } from '../../src/engine/rules/hardforks.js';
import { defaultForkCacheDir } from '../../src/fork/options.js';
import { OPTION_DECLARATIONS, resolveOptions } from '../../src/options.js';

describe('options table', () => {
  it('resolves no options to these defaults', () => {
    const { logger, ...resolved } = resolveOptions({});
    expect(logger).to.be.a('function');
    expect(resolved).to.deep.equal({
      fork: undefined,
      forkDefaults: {
        headers: {},
        retries: 3,
        timeoutMs: 45000,
        requestsPerSecond: 0,
        maxResponseBytes: 64 * 1024 * 1024,
        retryBackoffMs: 100,
        computeUnitsPerSecond: 330,
        cacheDir: defaultForkCacheDir(),
      },
      given: { chainId: false, hardfork: false, gasLimit: false },
      chainId: 1337n,
      hardfork: newestLiveHardfork(),
      mnemonic: 'test test test test test test test test test test test junk',
      accounts: 10,
      balanceWei: 10_000n * 10n ** 18n,
      derivationPath: "m/44'/60'/0'/0",
      gasLimit: 30_000_000n,
      baseFee: 1_000_000_000n,
      coinbase: createAddressFromString(`0x${'00'.repeat(20)}`),
      order: 'fees',
      host: '127.0.0.1',
      port: 8545,
      maxBatchSize: 1000,
      maxBodyBytes: 5_242_880,
      blockTime: 0,
      busyPoll: 0.5,
      filterTimeout: 300,
      maxLogs: 10_000,
      quiet: false,
      verbose: false,
      wallClock: undefined,
      mining: 'instant',
      difficulty: 16n,
      minerThreads: 0,
      ethashCacheDir: undefined,
      allowedHosts: ['localhost', '127.0.0.1', '[::1]'],
      cors: ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'],
      ui: true,
      fixtures: [],
      importFile: undefined,
      genesis: undefined,
      artifacts: { paths: [], detect: true },
      stateFile: undefined,
      stateInterval: 0,
      hardhatNode: 'auto',
      networkId: undefined,
      vmErrorsOnRPCResponse: false,
      compat: undefined,
      accountKeys: [],
      unlock: [],
      autoImpersonate: false,
      timestamp: undefined,
      gasPrice: undefined,
      codeSizeLimit: undefined,
      transactionGasCap: undefined,
      disableMinPriorityFee: false,
      noMining: false,
      mixedMining: false,
      miningInterval: undefined,
      allowSameTimestamp: false,
      accountsOut: undefined,
      slotsInAnEpoch: 0,
      genesisNumber: 0n,
      consoleAddresses: 'checksum',
      consoleContractNames: true,
      noConsoleLog: false,
      noCreate2Deployer: false,
      printTraces: false,
      json: false,
    });
  });

  it('the accounts given by key replace the derived ones; pow mode defaults to its last hardfork', () => {
    const key = `0x${'11'.repeat(32)}`;
    expect(resolveOptions({ accountKeys: [key] }).accounts).to.equal(0);
    expect(resolveOptions({ accountKeys: [key], accounts: 2 }).accounts).to.equal(2);
    expect(resolveOptions({ mining: 'pow' }).hardfork).to.equal('grayGlacier');
    expect(resolveOptions({ disableBlockGasLimit: true }).gasLimit).to.equal(2n ** 63n - 1n);
    expect(resolveOptions({ ethashCacheDir: null }).ethashCacheDir).to.equal(null);
    expect(resolveOptions({ host: null as unknown as string }).host).to.equal('127.0.0.1');
    expect(() => resolveOptions({ networkId: null as unknown as number })).to.throw('invalid value for network-id');
    expect(resolveOptions({ deterministic: true }).mnemonic).to.equal('myth like bonus scare over problem client lizard pioneer submit female collect');
  });

  it('every flag and each of its aliases fills the option it declares', async () => {
    for (const decl of OPTION_DECLARATIONS) {
      const value = decl.choices?.[0] ?? '5';
      for (const spelling of [decl.flag, ...[decl.alias ?? []].flat()]) {
        const dashes = spelling.length === 1 ? '-' : '--';
        const argv = decl.type === 'boolean' ? [`${dashes}${spelling}`] : [`${dashes}${spelling}`, value];
        const { options } = await parseCommandLine(argv);
        const raw = decl.type === 'boolean' ? true : decl.type === 'number' ? Number(value) : value;
        const expected = decl.coerce ? decl.coerce(raw) : decl.array ? [raw] : raw;
        expect(options, `${argv.join(' ')}`).to.deep.equal({ [decl.key]: expected });
      }
    }
  });

  it('--no-X turns a boolean flag off; flags of their own named no-X stay on', async () => {
    expect((await parseCommandLine(['--no-hardhat-node'])).options).to.deep.equal({ hardhatNode: false });
    expect((await parseCommandLine(['--no-fork-cache'])).options).to.deep.equal({ forkCache: false });
    expect((await parseCommandLine(['--no-storage-caching'])).options).to.deep.equal({ forkCache: false }); // Anvil's, an alias's negation
    expect((await parseCommandLine(['--no-mining'])).options).to.deep.equal({ noMining: true });
    expect((await parseCommandLine(['--no-exit-with-launcher'])).exitWithLauncher).to.equal(false);
    expect((await parseCommandLine([])).exitWithLauncher).to.equal(true);
  });

  it('hardhatNode is true, false or auto (each client its own), and names itself when wrong', async () => {
    expect((await parseCommandLine(['--hardhat-node'])).options).to.deep.equal({ hardhatNode: true });
    expect((await parseCommandLine([])).options).to.deep.equal({});
    expect(resolveOptions({}).hardhatNode).to.equal('auto');
    expect(resolveOptions({ hardhatNode: 'auto' }).hardhatNode).to.equal('auto');
    expect(resolveOptions({ hardhatNode: false }).hardhatNode).to.equal(false);
    expect(() => resolveOptions({ hardhatNode: 'yes' as never })).to.throw('invalid value for hardhat-node: expected true, false or "auto", got "yes"');
  });

  it('the rules between options name the flags (resolve.ts)', () => {
    const cases: Array<[Parameters<typeof resolveOptions>[0], string]> = [
      [{ difficulty: 5 }, 'invalid value for difficulty: applies to --mining pow only'],
      [{ minerThreads: 2 }, 'invalid value for miner-threads: applies to --mining pow only'],
      [{ fork: 'http://127.0.0.1:1', fixtures: ['a.json'] }, 'invalid value for fork: cannot be combined with --fixture (not supported yet)'],
      [{ fork: 'http://127.0.0.1:1', import: 'a.rlp' }, 'invalid value for fork: cannot be combined with --import (not supported yet)'],
      [{ fork: 'http://127.0.0.1:1', mining: 'pow' }, 'invalid value for fork: cannot be combined with --mining pow'],
      [{ genesis: 'g.json', baseFee: 1 }, 'invalid value for genesis: cannot be combined with --base-fee: the genesis file sets it'],
      [{ genesis: 'g.json', stateFile: 's.json' }, 'invalid value for genesis: cannot be combined with --state (not supported yet)'],
      [{ genesis: 'g.json', mining: 'pow' }, 'invalid value for genesis: cannot be combined with --mining pow (not supported yet)'],
      [{ number: 3, genesis: 'g.json' }, 'invalid value for number: cannot be combined with --genesis'],
      [{ number: 3, import: 'a.rlp' }, 'invalid value for number: cannot be combined with --import'],
      [{ number: 3, stateFile: 's.json' }, 'invalid value for number: cannot be combined with --state'],
      [{ number: 3, mining: 'pow' }, 'invalid value for number: cannot be combined with --mining pow'],
      [{ miningInterval: 5, blockTime: 1 }, 'invalid value for mining-interval: cannot be combined with --block-time'],
      [{ disableBlockGasLimit: true, gasLimit: 1_000_000 }, 'invalid value for disable-block-gas-limit: cannot be combined with --gas-limit'],
    ];
    for (const [input, message] of cases) expect(() => resolveOptions(input), JSON.stringify(input)).to.throw(message);
    expect(resolveOptions({ number: 0, genesis: 'g.json' }).genesisNumber).to.equal(0n);
    expect(resolveOptions({ disableCodeSizeLimit: true }).codeSizeLimit).to.equal('unlimited');
    expect(resolveOptions({ miningInterval: '2,5' }).miningInterval).to.deep.equal([2, 5]);
  });
});
