/**
 * Options that refuse what they do not know (issue 33): a misspelt option name is refused with the
 * nearest known one at every entry point (createProvider, createServer, CHAIN_SIM_OPTIONS through
 * the Mocha plugin, chain-sim/ganache's provider and server, the CLI), and a bad value throws when
 * the provider is created, not on its first request, as a typed error with a stable `code`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import ganache from '../../src/ganache/index.js';
import { type ChainSimOptions, createProvider, createServer, OptionError, UnknownOptionError } from '../../src/index.js';
import { OPTION_TABLE, resolveOptions } from '../../src/options.js';
import { editDistance, nearestName } from '../../src/options/suggest.js';
import { ROOT, runCli, runNode } from '../helpers/cli.js';

/** What `run` threw, synchronously; fails the test when it returned instead. */
function thrownBy(run: () => unknown): OptionError {
  let returned: unknown;
  try {
    returned = run();
  } catch (error) {
    expect(error).to.be.instanceOf(OptionError);
    return error as OptionError;
  }
  // A provider that did not throw has started building its chain: stop it before failing.
  void (returned as { disconnect?: () => Promise<void> } | undefined)?.disconnect?.();
  expect.fail('expected a synchronous OptionError, but nothing was thrown');
}

/** Options as code passes them when they come from elsewhere (JSON, a spread): TypeScript cannot see the typo. */
const untyped = (options: Record<string, unknown>) => options as ChainSimOptions;

describe('option refusals: unknown names and bad values, at creation', function () {
  this.timeout(60_000);

  describe('the nearest known name', () => {
    it('counts insertions, deletions, replacements and swapped neighbours as one edit each', () => {
      expect(editDistance('acounts', 'accounts')).to.equal(1);
      expect(editDistance('prot', 'port')).to.equal(1);
      expect(editDistance('quite', 'quiet')).to.equal(1);
      expect(editDistance('chainid', 'chainid')).to.equal(0);
      expect(editDistance('kitten', 'sitting')).to.equal(3);
    });

    it('suggests only names within a third of the given length, the first of equally near ones', () => {
      const known = [
        ['accounts', 'accounts'],
        ['port', 'port'],
        ['wallet.totalAccounts', 'accounts'],
      ] as const;
      expect(nearestName('acounts', known)).to.equal('accounts');
      expect(nearestName('ACCOUNTS', known)).to.equal('accounts');
      expect(nearestName('wallet.totalAcounts', known)).to.equal('accounts');
      expect(nearestName('zzzz', known)).to.equal(undefined);
      expect(nearestName('x'.repeat(100_000), known)).to.equal(undefined);
    });
  });

  describe('createProvider', () => {
    it("refuses a misspelt option synchronously: unknown option 'acounts': did you mean 'accounts'?", () => {
      const error = thrownBy(() => createProvider(untyped({ acounts: 3 })));
      expect(error).to.be.instanceOf(UnknownOptionError);
      expect(error.message).to.equal("unknown option 'acounts': did you mean 'accounts'?");
      expect(error.code).to.equal('CHAIN_SIM_UNKNOWN_OPTION');
      expect(error.option).to.equal('acounts');
      expect((error as UnknownOptionError).suggestion).to.equal('accounts');
    });

    it("suggests the option for another tool's spelling or a flag's (aliases are known names)", () => {
      expect(thrownBy(() => createProvider(untyped({ defaultBalanceEther: 5 }))).message).to.equal(
        "unknown option 'defaultBalanceEther': did you mean 'balance'?",
      );
      expect(thrownBy(() => createProvider(untyped({ 'chain-id': 5 }))).message).to.equal("unknown option 'chain-id': did you mean 'chainId'?");
      expect(thrownBy(() => createProvider(untyped({ 'miner.blockGasLimit': 5 }))).message).to.equal(
        "unknown option 'miner.blockGasLimit': did you mean 'gasLimit'?",
      );
      expect(thrownBy(() => createProvider(untyped({ silent: true }))).message).to.equal("unknown option 'silent': did you mean 'quiet'?");
    });

    it('names an unknown option without a guess when nothing is near, and refuses a non-object', () => {
      const far = thrownBy(() => createProvider(untyped({ zzzzzz: 1 })));
      expect(far.message).to.equal("unknown option 'zzzzzz'");
      expect(far.code).to.equal('CHAIN_SIM_UNKNOWN_OPTION');
      const notObject = thrownBy(() => createProvider(null as unknown as ChainSimOptions));
      expect(notObject.message).to.equal('invalid value for options: expected an object of options, got null');
      expect(notObject.code).to.equal('CHAIN_SIM_INVALID_OPTION');
    });

    it('refuses unknown keys inside fork and forking, naming the nested option', () => {
      const fork = thrownBy(() => createProvider(untyped({ fork: { url: 'http://127.0.0.1:1', blocknumber: 5 } })));
      expect(fork.message).to.equal("unknown option 'fork.blocknumber': did you mean 'fork.blockNumber'?");
      const forking = thrownBy(() => createProvider(untyped({ forking: { url: 'http://127.0.0.1:1', httpHeader: {} } })));
      expect(forking.message).to.equal("unknown option 'forking.httpHeader': did you mean 'forking.httpHeaders'?");
    });

    it('throws a bad value at createProvider() with the option and code CHAIN_SIM_INVALID_OPTION, not on the first request', () => {
      const error = thrownBy(() => createProvider({ accounts: -1 }));
      expect(error.message).to.equal('invalid value for accounts: must be between 0 and 100000, got -1');
      expect(error.code).to.equal('CHAIN_SIM_INVALID_OPTION');
      expect(error.option).to.equal('accounts');
      expect(thrownBy(() => createProvider({ hardfork: 'londn' })).option).to.equal('hardfork');
      expect(thrownBy(() => createProvider({ quiet: true, mining: 'pow', hardfork: 'cancun' })).option).to.equal('mining');
    });

    it('accepts every option of the table (no known name is refused)', () => {
      const everyKey = Object.fromEntries(Object.keys(OPTION_TABLE).map((key) => [key, undefined]));
      expect(() => resolveOptions(everyKey as ChainSimOptions)).not.to.throw();
    });
  });

  describe('createServer', () => {
    it("rejects a misspelt option before building the chain: unknown option 'prot': did you mean 'port'?", async () => {
      const error = await createServer(untyped({ prot: 1 })).then(
        () => expect.fail('createServer resolved'),
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(UnknownOptionError);
      expect((error as UnknownOptionError).message).to.equal("unknown option 'prot': did you mean 'port'?");
      expect((error as UnknownOptionError).code).to.equal('CHAIN_SIM_UNKNOWN_OPTION');
    });

    it('rejects a bad value with its code', async () => {
      const error = await createServer({ port: 70_000 }).then(
        () => expect.fail('createServer resolved'),
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(OptionError);
      expect((error as OptionError).code).to.equal('CHAIN_SIM_INVALID_OPTION');
      expect((error as OptionError).option).to.equal('port');
    });
  });

  describe('chain-sim/ganache (Ganache 7 names)', () => {
    it('refuses a misspelt Ganache option with the nearest of Ganache’s names, synchronously, with a code', () => {
      const nested = thrownBy(() => ganache.provider({ wallet: { totalAcounts: 3 } }));
      expect(nested).to.be.instanceOf(UnknownOptionError);
      expect(nested.message).to.equal("unknown Ganache option 'wallet.totalAcounts': did you mean 'wallet.totalAccounts'?");
      expect(nested.code).to.equal('CHAIN_SIM_UNKNOWN_OPTION');
      // A nested name given at the top level, or in the wrong group.
      expect(thrownBy(() => ganache.provider({ totalAccounts: 3 })).message).to.equal(
        "unknown Ganache option 'totalAccounts': did you mean 'wallet.totalAccounts'?",
      );
      expect(thrownBy(() => ganache.provider({ chain: { blockTime: 3 } })).message).to.equal(
        "unknown Ganache option 'chain.blockTime': did you mean 'miner.blockTime'?",
      );
      // chain-sim's own names are not Ganache's.
      expect(thrownBy(() => ganache.server({ nmemonic: 'x' })).message).to.equal("unknown Ganache option 'nmemonic': did you mean 'mnemonic'?");
      expect(thrownBy(() => ganache.provider({ toString: 1 })).code).to.equal('CHAIN_SIM_UNKNOWN_OPTION');
    });

    it('a bad value throws at provider() and server() with the Ganache name and CHAIN_SIM_INVALID_OPTION', () => {
      for (const make of [ganache.provider, ganache.server]) {
        const error = thrownBy(() => make({ wallet: { totalAccounts: -1 } }));
        expect(error.option).to.equal('wallet.totalAccounts');
        expect(error.code).to.equal('CHAIN_SIM_INVALID_OPTION');
      }
    });
  });

  describe('the CLI', () => {
    it('still refuses an unknown flag (exit code 1), now with the nearest flag', async () => {
      const { code, stderr } = await runCli(['--port', '0', '--prot', '1']);
      expect(code).to.equal(1);
      expect(stderr.trim()).to.equal("chain-sim: Unknown argument: prot: did you mean '--port'?");
      const ganacheSpelling = await runCli(['--port', '0', '--wallet.totalAcounts', '3']);
      expect(ganacheSpelling.stderr.trim()).to.equal("chain-sim: Unknown argument: wallet.totalAcounts: did you mean '--wallet.totalAccounts'?");
    });
  });

  describe('CHAIN_SIM_OPTIONS (the Mocha plugin)', () => {
    let dir: string;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'chain-sim-options-'));
      await writeFile(
        join(dir, 'one.test.cjs'),
        // The plugin's root beforeAll builds the provider before this test runs.
        "it('runs after the plugin built its provider', () => {});\n",
      );
    });
    after(() => rm(dir, { recursive: true, force: true }));

    /** Mocha with the plugin (built; a project's .mocharc names it chain-sim/mocha) and CHAIN_SIM_OPTIONS set. */
    const mochaWith = (options: string) =>
      runNode([join(ROOT, 'node_modules/mocha/bin/mocha.js'), '--no-config', '--require', join(ROOT, 'dist/src/mocha.js'), join(dir, 'one.test.cjs')], {
        env: { CHAIN_SIM_OPTIONS: options },
      });

    it('a misspelt option fails the run before any test, naming the variable and the nearest option', async () => {
      const { code, stdout, stderr } = await mochaWith('{"quite":true}');
      expect(code, stdout + stderr).to.not.equal(0);
      expect(stdout + stderr).to.include("CHAIN_SIM_OPTIONS: unknown option 'quite': did you mean 'quiet'?");
      expect(stdout).to.not.match(/1 passing/);
    });

    it('a bad value and text that is not JSON fail it too; good options pass', async () => {
      const badValue = await mochaWith('{"accounts":-1}');
      expect(badValue.code).to.not.equal(0);
      expect(badValue.stdout + badValue.stderr).to.include('CHAIN_SIM_OPTIONS: invalid value for accounts: must be between 0 and 100000, got -1');
      const notJson = await mochaWith('{quiet:true}');
      expect(notJson.code).to.not.equal(0);
      expect(notJson.stdout + notJson.stderr).to.include('invalid value for CHAIN_SIM_OPTIONS: expected a JSON object of options');
      const good = await mochaWith('{"quiet":true,"chainId":5}');
      expect(good.code, good.stdout + good.stderr).to.equal(0);
      expect(good.stdout).to.match(/1 passing/);
    });
  });
});
