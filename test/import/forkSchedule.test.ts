import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { newNode, send } from '../helpers/chain.js';
import { TO, answers, exportToFile, importedNode, tempDir } from './chain.js';

const SCHEDULE = fileURLToPath(new URL('../../../test/fixtures/genesis/schedule.json', import.meta.url));

describe('--import across a fork schedule (--genesis)', function () {
  this.timeout(120_000);

  it('blocks from Byzantium through London, the merge and the timestamp forks import under their own rules', async () => {
    const options = { quiet: true, hardfork: undefined, genesis: SCHEDULE, wallClock: () => 1_700_000_000_000 };
    const source = newNode(options);
    const chainId = Number(await source.rpc<string>('eth_chainId'));
    for (let nonce = 0; nonce < 6; nonce++) {
      await send(source.rpc, 0, {
        type: 0,
        chainId,
        to: TO,
        value: 1n,
        nonce,
        gasLimit: 21000,
        gasPrice: 10n ** 10n,
        maxFeePerGas: undefined,
        maxPriorityFeePerGas: undefined,
      });
    }
    // Past Shanghai, Cancun and Prague by time.
    for (const seconds of [1000, 1000, 1000]) {
      await source.rpc('chain_increaseTime', [seconds]);
      await source.rpc('chain_mine');
    }
    const head = Number(await source.rpc<string>('eth_blockNumber'));
    const file = await exportToFile(source.rpc, tempDir());
    const target = importedNode(file, options);
    expect(await answers(target.rpc, head)).to.deep.equal(await answers(source.rpc, head));
    const last = await target.rpc<Record<string, unknown>>('eth_getBlockByNumber', ['latest', false]);
    expect(last).to.include.keys('withdrawalsRoot', 'parentBeaconBlockRoot', 'requestsHash');
  });
});
