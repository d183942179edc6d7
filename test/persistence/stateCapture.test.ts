/**
 * chain_dumpState and --state saves read the chain through one function (stateCapture.ts). They
 * used to read the hardfork differently: the dump the next block's, the save the VM's Common,
 * which with a fork schedule sits on the fork of whichever block it last ran.
 */
import { expect } from 'chai';
import { startNode } from '../../src/startup/node.js';
import { captureState } from '../../src/persistence/stateCapture.js';
import { fileURLToPath } from 'node:url';

const SCHEDULE_GENESIS = fileURLToPath(new URL('../../../test/fixtures/genesis/schedule.json', import.meta.url));
const GENESIS_TIME = 1_700_000_000;
const PRAGUE = 1_700_003_000;

describe('state capture: chain_dumpState and --state write the same fields', function () {
  this.timeout(60_000);

  it('both give the hardfork the next block is mined under, across a scheduled fork', async () => {
    const node = await startNode({ genesis: SCHEDULE_GENESIS, quiet: true, wallClock: () => GENESIS_TIME * 1000 });
    try {
      const rpc = <T>(method: string, params: unknown[] = []) => node.dispatcher.call(method, params) as Promise<T>;
      // Blocks 1..5 run Byzantium … the merge; the VM's Common is left on the last one's fork.
      for (let i = 0; i < 5; i++) await rpc('evm_mine');
      await rpc('evm_setNextBlockTimestamp', [PRAGUE]);
      expect(node.chain.common.hardfork()).to.not.equal('prague');

      const dumped = await rpc<{ hardfork: string; chainId: string; gasLimit: string; timestamp: string }>('chain_dumpState');
      const { header: file } = await captureState(node.chain);
      expect(dumped.hardfork).to.equal('prague');
      expect(file.hardfork).to.equal('prague');
      expect(BigInt(dumped.chainId)).to.equal(file.chainId);
      expect(BigInt(dumped.gasLimit)).to.equal(file.gasLimit);
      expect(BigInt(dumped.timestamp)).to.equal(file.timestamp);
    } finally {
      node.close();
    }
  });
});
