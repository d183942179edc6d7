import { expect } from 'chai';
import { createProvider } from '../../src/index.js';

describe('interval mining that fails', () => {
  it('logs the failure and keeps serving instead of crashing the process', async () => {
    const logged: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    const provider = createProvider({ quiet: true, blockTime: 0.02 });
    try {
      // The next block takes the last timestamp a header can hold; the one after it cannot exist.
      await provider.request({ method: 'evm_setNextBlockTimestamp', params: [`0x${(2n ** 64n - 1n).toString(16)}`] });
      const deadline = Date.now() + 5_000;
      while (logged.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(String(logged[0]?.[0])).to.contain('internal error in a background task');
      expect(String(logged[0]?.[1])).to.contain('outside the uint64 range');
      const head = (await provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { timestamp: string };
      expect(head.timestamp).to.equal('0xffffffffffffffff');
    } finally {
      await provider.disconnect();
      console.error = original;
    }
  });
});
