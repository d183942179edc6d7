import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { npxChainSimForSuite, runNode } from '../helpers/cli.js';

const PROJECT = fileURLToPath(new URL('../../../test/e2e/hardhat-project/', import.meta.url));

/**
 * Hardhat's network helpers refuse any node they do not recognise as a development node,
 * so this is the drop-in test for Hardhat projects: the real library, in the real Hardhat
 * runtime, against `npx chain-sim` over HTTP.
 */
describe('Hardhat network helpers against npx chain-sim', function () {
  this.timeout(60_000);
  const running = npxChainSimForSuite();

  it('time, mine, snapshots, setters, prevRandao, loadFixture, dropTransaction and reset all work', async () => {
    const run = await runNode(['network-helpers.cjs'], {
      cwd: PROJECT,
      env: { CHAIN_SIM_URL: running().url, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' },
    });
    expect(run.code, run.stderr).to.equal(0);
    const other = '0x00000000000000000000000000000000000000aa';
    expect(JSON.parse(run.stdout)).to.deep.equal({
      increasedBy: 3600,
      minedBlocks: 100,
      mineInterval: 15,
      mineUpTo: 150,
      impersonatedSender: other,
      balanceAfterRestore: '0x0',
      code: '0x4460005260206000f3',
      nonce: '0x7',
      storage: `0x${(42).toString(16).padStart(64, '0')}`,
      block: { mixHash: `0x${(777).toString(16).padStart(64, '0')}`, baseFeePerGas: '0x3039', miner: other, gasLimit: '0x2625a00' },
      prevRandaoCall: `0x${(777).toString(16).padStart(64, '0')}`,
      fixture: { runs: 1, same: true, balance: '0x5' },
      dropped: true,
      poolAfterDrop: { pending: '0x0', queued: '0x0' },
      blockAfterReset: 0,
    });
  });
});
