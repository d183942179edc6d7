import { expect } from 'chai';
import { OZ_SUITE_ENV, OZ_SUITE_REF, ozWorkdir, runOzSuite } from '../../bench/hardhat3OzSuite.js';
import { renderSuite } from '../../bench/hardhatSuite.js';

/**
 * A real Hardhat 3 project's suite, OpenZeppelin Contracts' (bench/hardhat3OzSuite.ts), on
 * Hardhat's simulated network and on chain-sim in process, when CHAIN_SIM_HARDHAT3_OZ_SUITE names
 * a fetched repository (CHAIN_SIM_HARDHAT3_OZ_SUITE_REF: the commit, default the pinned one;
 * CHAIN_SIM_HARDHAT3_OZ_SUITE_TESTS: comma-separated test paths, or `all`). Pending otherwise, as
 * the Hardhat 2 project's suite is (hardhat-suite.test.ts).
 */
describe('a real Hardhat 3 project’s suite (OpenZeppelin Contracts) with chainSim in plugins', function () {
  this.timeout(120 * 60_000);
  const repository = process.env[OZ_SUITE_ENV];

  it('passes exactly the tests it passes on Hardhat’s own network', async function () {
    if (!repository) this.skip();
    const ref = process.env.CHAIN_SIM_HARDHAT3_OZ_SUITE_REF ?? OZ_SUITE_REF;
    const tests = process.env.CHAIN_SIM_HARDHAT3_OZ_SUITE_TESTS?.split(',').filter(Boolean);
    const result = await runOzSuite(repository, ref, ozWorkdir(repository, ref), 1, tests === undefined ? {} : { tests });
    console.log(renderSuite(result));
    expect(result.tests).to.be.greaterThan(0);
    expect(result.differing).to.deep.equal([]);
    expect(result.chainSim[0]!.passes).to.equal(result.hardhat[0]!.passes);
    expect(result.chainSim[0]!.failures).to.be.at.most(result.hardhat[0]!.failures);
  });
});
