import { expect } from 'chai';
import { Common, Hardfork } from '@ethereumjs/common';
import { createProvider } from '../../src/index.js';
import { createChainCommon } from '../../src/engine/rules/hardforks.js';
import { jumpAnalysisCacheHits } from '../../src/engine/patches/jumpAnalysis.js';
import { stepLoopRuns } from '../../src/engine/patches/stepLoop.js';

describe('engine shortcuts into ethereumjs internals', () => {
  it('answers isActivatedEIP exactly as Common does, for every fork and after a fork change', () => {
    const common = createChainCommon(1337n, Hardfork.Prague);
    const original = Common.prototype.isActivatedEIP;
    for (const fork of [Hardfork.Chainstart, Hardfork.London, Hardfork.Cancun, Hardfork.Prague, Hardfork.Osaka]) {
      common.setHardfork(fork);
      const copy = common.copy();
      for (let eip = 1; eip < 8000; eip++) {
        const expected = original.call(common, eip);
        expect(common.isActivatedEIP(eip), `${fork} EIP-${eip}`).to.equal(expected);
        expect(copy.isActivatedEIP(eip), `copy at ${fork} EIP-${eip}`).to.equal(expected);
      }
    }
  });

  it('reuses the jump analysis of code it has run before, and runs it in its own step loop, with the same results', async () => {
    const provider = createProvider({ quiet: true });
    try {
      const [from] = (await provider.request({ method: 'eth_accounts' })) as string[];
      // Runtime: JUMP over an INVALID to a JUMPDEST, then return 32 bytes holding 0x2a.
      const runtime = '600456fe5b602a60005260206000f3';
      const init = `600f600c600039600f6000f3${runtime}`;
      const hash = await provider.request({ method: 'eth_sendTransaction', params: [{ from, data: `0x${init}` }] });
      const receipt = (await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: string };
      const call = { method: 'eth_call', params: [{ to: receipt.contractAddress }, 'latest'] };
      const expected = `0x${'2a'.padStart(64, '0')}`;
      expect(await provider.request(call)).to.equal(expected);
      const [hitsBefore, runsBefore] = [jumpAnalysisCacheHits(), stepLoopRuns()];
      expect(await provider.request(call)).to.equal(expected);
      expect(await provider.request(call)).to.equal(expected);
      expect(jumpAnalysisCacheHits() - hitsBefore).to.be.at.least(2);
      expect(stepLoopRuns() - runsBefore).to.be.at.least(2);
    } finally {
      await provider.disconnect();
    }
  });
});
