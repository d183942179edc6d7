import { expect } from 'chai';
import { AbiCoder, id } from 'ethers';
import { ADDRESSES, expectRpcError, newNode } from '../helpers/chain.js';
import { CROWDFUND, MERGESORT, NAMECOIN } from '../serpent/examples.js';

const abi = AbiCoder.defaultAbiCoder();
const selector = (signature: string) => id(signature).slice(0, 10);

describe('chain_compileSerpent end to end: compile, deploy, call through JSON-RPC', () => {
  const { rpc } = newNode({ wallClock: () => 1_800_000_000_000 });
  const from = ADDRESSES[0];

  async function deploySerpent(source: string): Promise<string> {
    const code = await rpc<string>('chain_compileSerpent', [source]);
    expect(code).to.match(/^0x([0-9a-f]{2})+$/);
    const hash = await rpc<string>('eth_sendTransaction', [{ from, data: code }]);
    const receipt = await rpc<{ status: string; contractAddress: string }>('eth_getTransactionReceipt', [hash]);
    expect(receipt.status).to.equal('0x1');
    return receipt.contractAddress;
  }

  const transact = async (to: string, data: string, value = 0n) => {
    const hash = await rpc<string>('eth_sendTransaction', [{ from, to, data, value: `0x${value.toString(16)}` }]);
    return rpc<{ status: string }>('eth_getTransactionReceipt', [hash]);
  };

  it('namecoin: register returns 1, then 0 for a taken key, and stores the value', async () => {
    const namecoin = await deploySerpent(NAMECOIN);
    const register = selector('register(int256,int256)') + abi.encode(['int256', 'int256'], [42, 7]).slice(2);
    expect(BigInt(await rpc<string>('eth_call', [{ from, to: namecoin, data: register }]))).to.equal(1n);
    expect((await transact(namecoin, register)).status).to.equal('0x1');
    expect(BigInt(await rpc<string>('eth_call', [{ from, to: namecoin, data: register }]))).to.equal(0n);
    expect(BigInt(await rpc<string>('eth_getStorageAt', [namecoin, '0x2a', 'latest']))).to.equal(7n);
  });

  it('mergesort sorts an array through recursive calls to itself', async () => {
    const sorter = await deploySerpent(MERGESORT);
    const input = [5n, -3n, 9n, 0n, 2n, 2n, -8n];
    const data = selector('sort(int256[])') + abi.encode(['int256[]'], [input]).slice(2);
    const [sorted] = abi.decode(['int256[]'], await rpc<string>('eth_call', [{ from, to: sorter, data }]));
    expect([...sorted]).to.deep.equal([...input].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('crowdfund refunds contributors after the deadline, using time travel', async () => {
    const crowdfund = await deploySerpent(CROWDFUND);
    const sig = (s: string, types: string[], values: unknown[]) => selector(s) + abi.encode(types, values).slice(2);
    const recipient = '0x000000000000000000000000000000000000c0de';
    await transact(crowdfund, sig('create_campaign(int256,int256,int256,int256)', ['int256', 'int256', 'int256', 'int256'], [1, recipient, 10n ** 18n, 1000]));
    await transact(crowdfund, sig('contribute(int256)', ['int256'], [1]), 10n ** 17n);
    const balanceBefore = BigInt(await rpc<string>('eth_getBalance', [crowdfund, 'latest']));
    expect(balanceBefore).to.equal(10n ** 17n);
    expect(BigInt(await rpc<string>('eth_call', [{ from, to: crowdfund, data: sig('progress_report(int256)', ['int256'], [1]) }]))).to.equal(10n ** 17n);
    await rpc('evm_increaseTime', [2000]);
    // A contribution after the deadline (goal not reached) refunds every contributor, itself included.
    expect((await transact(crowdfund, sig('contribute(int256)', ['int256'], [1]), 5n)).status).to.equal('0x1');
    expect(BigInt(await rpc<string>('eth_getBalance', [crowdfund, 'latest']))).to.equal(0n);
  });

  it('answers malformed source with a positioned error and keeps serving', async () => {
    const error = await expectRpcError(rpc('chain_compileSerpent', ['def f(:\n    return(1)\n']), -32602, /line 1, column \d+/);
    expect(error.data).to.deep.include({ line: 1 });
    await expectRpcError(rpc('chain_compileSerpent', [42]), -32602, /invalid argument 0 \(source\)/);
    expect(await rpc('eth_blockNumber')).to.match(/^0x/);
  });
});
