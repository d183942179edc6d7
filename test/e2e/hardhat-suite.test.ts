import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { renderSuite, runHardhatSuite } from '../../bench/hardhatSuite.js';

/**
 * A real project's Hardhat 2 suite on Hardhat's network and on chain-sim in process
 * (bench/hardhatSuite.ts), when CHAIN_SIM_HARDHAT_SUITE names a fetched repository
 * (CHAIN_SIM_HARDHAT_SUITE_REF: the tag, default v1.4.0). Pending otherwise, as the
 * execution-apis corpus runner is without its corpus.
 */
describe('a real Hardhat 2 project’s suite with chain-sim/hardhat', function () {
  this.timeout(60 * 60_000);
  const repository = process.env.CHAIN_SIM_HARDHAT_SUITE;

  it('passes exactly the tests it passes on Hardhat’s own network', async function () {
    if (!repository) this.skip();
    const ref = process.env.CHAIN_SIM_HARDHAT_SUITE_REF ?? 'v1.4.0';
    const workdir = path.join(os.tmpdir(), `chain-sim-hardhat-suite-${path.basename(path.dirname(repository))}-${ref}`);
    const result = await runHardhatSuite(repository, ref, workdir, 1);
    console.log(renderSuite(result));
    expect(result.tests).to.be.greaterThan(0);
    expect(result.differing).to.deep.equal([]);
    expect(result.chainSim[0]!.passes).to.equal(result.hardhat[0]!.passes);
  });
});
