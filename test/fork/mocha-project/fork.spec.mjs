// Run by test/fork/mochaPlugin.test.ts: the chain-sim/mocha plugin with CHAIN_SIM_OPTIONS naming a fork.
// Each test starts from the pinned block's state (the plugin reverts after every test).
import assert from 'node:assert/strict';
import { provider } from '../../../dist/src/mocha.js';

const { TOKEN, HOLDER, RECIPIENT } = process.env;
const rpc = (method, params = []) => provider.request({ method, params });
const balanceOf = async (who) => BigInt(await rpc('eth_call', [{ to: TOKEN, data: `0x70a08231${who.slice(2).padStart(64, '0')}` }, 'latest']));

describe('a forked chain under chain-sim/mocha', () => {
  for (const round of [1, 2]) {
    it(`round ${round}: the holder moves tokens from the pinned state`, async () => {
      assert.equal(await rpc('eth_chainId'), '0x7a69');
      assert.equal(await balanceOf(RECIPIENT), 0n);
      await rpc('hardhat_impersonateAccount', [HOLDER]);
      await rpc('hardhat_setBalance', [HOLDER, '0xde0b6b3a7640000']);
      const data = `0xa9059cbb${RECIPIENT.slice(2).padStart(64, '0')}${(77).toString(16).padStart(64, '0')}`;
      await rpc('eth_sendTransaction', [{ from: HOLDER, to: TOKEN, data }]);
      assert.equal(await balanceOf(RECIPIENT), 77n);
    });
  }
});
