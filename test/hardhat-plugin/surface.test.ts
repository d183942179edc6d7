/**
 * chain-sim/hardhat's public surface: what the package export gives from ESM and CommonJS, and
 * how it registers with Hardhat 2 (through the context Hardhat keeps in a global while it runs).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { LateRegistrationError, registerWithHardhat2 } from '../../src/hardhat/hardhat2/register.js';
import { ROOT } from '../helpers/cli.js';

describe('chain-sim/hardhat: the package export', () => {
  it('is exported as chain-sim/hardhat, with its types', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { exports: Record<string, unknown> };
    expect(manifest.exports['./hardhat']).to.deep.equal({ types: './dist/src/hardhat/index.d.ts', default: './dist/src/hardhat/index.js' });
  });

  it('gives these names, and registers with nothing outside Hardhat', async () => {
    const module = await import('chain-sim/hardhat');
    expect(Object.keys(module).sort()).to.deep.equal([
      'HARDHAT_DEFAULT_COINBASE',
      'HardhatConfigError',
      'HardhatRevertError',
      'LateRegistrationError',
      'default',
      'registeredWithHardhat2',
    ]);
    // The Hardhat 3 plugin: its hooks load on use.
    expect(module.default).to.include({ id: 'chain-sim', npmPackage: 'chain-sim' });
    expect(Object.keys(module.default.hookHandlers).sort()).to.deep.equal(['config', 'hre', 'network', 'solidity']);
    expect(module.registeredWithHardhat2).to.equal(false);
  });

  it("loads with require() from CommonJS (a Hardhat 2 config's), silently", () => {
    const run = spawnSync(process.execPath, ['-e', "const m = require('chain-sim/hardhat'); console.log(typeof m.HardhatRevertError)"], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect([run.status, run.stdout.trim(), run.stderr]).to.deep.equal([0, 'function', '']);
  });

  describe('registration with a Hardhat 2 context', () => {
    const global = globalThis as { __hardhatContext?: unknown };
    afterEach(() => {
      delete global.__hardhatContext;
    });

    it('adds one environment extender, once, while Hardhat loads its config', () => {
      const context = { environmentExtenders: [] as unknown[], providerExtenders: [] };
      global.__hardhatContext = context;
      expect(registerWithHardhat2()).to.equal(true);
      expect(registerWithHardhat2()).to.equal(true);
      expect(context.environmentExtenders).to.have.length(1);
    });

    it('refuses to register once the Hardhat runtime exists (loaded from a test, not the config)', () => {
      global.__hardhatContext = { environmentExtenders: [], providerExtenders: [], environment: {} };
      expect(() => registerWithHardhat2()).to.throw(LateRegistrationError, /require it at the top of hardhat\.config/);
    });

    it('does nothing without a Hardhat 2 context (Hardhat 3, plain Node)', () => {
      expect(registerWithHardhat2()).to.equal(false);
    });
  });
});
