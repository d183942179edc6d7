import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npxChainSimForSuite, runNode } from '../helpers/cli.js';

const PROJECT = fileURLToPath(new URL('../../../test/e2e/hardhat-matchers/', import.meta.url));
const HARDHAT = fileURLToPath(new URL('../../../node_modules/hardhat/internal/cli/cli.js', import.meta.url));

/**
 * The real @nomicfoundation/hardhat-chai-matchers and hardhat-ethers in a Hardhat project (its
 * Solidity compiled offline with solc-js) against `npx chain-sim`, selected as Hardhat's
 * `localhost` network (hardhat-ethers sends with a fixed gas limit, so the matchers expect the send
 * itself to fail, as with `hardhat node`) and under another name (hardhat-ethers estimates first,
 * so the estimate's code-3 revert is what they read).
 */
describe("Hardhat's chai matchers against npx chain-sim", function () {
  this.timeout(180_000);
  const running = npxChainSimForSuite();
  let out: string;
  before(() => {
    out = mkdtempSync(join(tmpdir(), 'chain-sim-hardhat-matchers-'));
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  for (const network of ['localhost', 'chainsim']) {
    it(`revertedWith, revertedWithCustomError, revertedWithPanic, .reverted and revertedWithoutReason pass as network ${network}`, async () => {
      const run = await runNode([HARDHAT, 'test', '--network', network], {
        cwd: PROJECT,
        env: { CHAIN_SIM_URL: running().url, HARDHAT_OUT: out, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' },
      });
      expect(run.code, `${run.stdout}\n${run.stderr}`).to.equal(0);
      expect(run.stdout).to.match(/5 passing/);
      expect(run.stdout).to.not.match(/failing/);
    });
  }
});
