import { expect } from 'chai';
import { newNode } from '../helpers/chain.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Found by the fuzzer (test/fuzz/rpc.test.ts, dispatcher.handle, seed 2084782139: "state
 * changed after a refused chain_setAutomine"): an interval block whose timer fired while the
 * call stopping interval mining waited in the queue was mined after that call had answered.
 */
describe('interval mining: stopped means stopped', () => {
  it('mines no block from the old interval once evm_setIntervalMining(0) has answered, though its timer fired while the call waited', async function () {
    this.timeout(60_000);
    const { rpc } = newNode();
    const [from] = await rpc<string[]>('eth_accounts');
    // A loop that counts calldata's first word down to zero: an eth_call of it at the head holds the queue while it runs.
    const init = '0x6c6000355b600190038060035700600052600d6013f3';
    const deployed = await rpc<string>('eth_sendTransaction', [{ from, data: init }]);
    const loop = (await rpc<{ contractAddress: string }>('eth_getTransactionReceipt', [deployed])).contractAddress;
    await rpc('evm_setIntervalMining', [5]);
    // The call holds the queue (it runs in its task, yielding the event loop: the timer fires meanwhile) ...
    const holding = rpc('eth_call', [{ to: loop, data: `0x${(500_000).toString(16).padStart(64, '0')}`, gas: '0x1c9c380' }, 'latest']);
    // ... the stop waits behind it, and the interval's blocks queue behind the stop.
    const stopped = rpc('evm_setIntervalMining', [0]);
    await holding;
    await stopped;
    const head = await rpc<string>('eth_blockNumber');
    // The blocks queued by the old timer get their turn now: none may be mined.
    await sleep(200);
    await rpc('eth_getBalance', [from, 'latest']);
    expect(await rpc<string>('eth_blockNumber')).to.equal(head);
  });
});
