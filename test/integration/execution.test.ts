import { expect } from 'chai';
import { Interface } from 'ethers';
import { ADDRESSES, artifact, deploy, expectRpcError, newNode, send } from '../helpers/chain.js';

const probe = new Interface(artifact('GasProbe').abi);
const token = new Interface(artifact('Token').abi);

describe('eth_call and eth_estimateGas', () => {
  let rpc: ReturnType<typeof newNode>['rpc'];
  let probeAddress: string;
  let tokenAddress: string;

  before(async () => {
    rpc = newNode().rpc;
    probeAddress = await deploy(rpc, 'GasProbe', [], 0);
    tokenAddress = await deploy(rpc, 'Token', ['Token', 'TKN', 1000n], 1);
  });

  const call = (data: string, gas?: bigint, to = probeAddress) =>
    rpc<string>('eth_call', [{ from: ADDRESSES[0], to, data, ...(gas !== undefined ? { gas: `0x${gas.toString(16)}` } : {}) }, 'latest']);
  const estimate = (data: string, to = probeAddress) => rpc<string>('eth_estimateGas', [{ from: ADDRESSES[0], to, data }]).then(BigInt);

  /** The estimate must succeed as a gas limit, and one gas less must fail. */
  async function expectExact(data: string): Promise<bigint> {
    const gas = await estimate(data);
    await call(data, gas);
    let lessFailed = false;
    try {
      await call(data, gas - 1n);
    } catch {
      lessFailed = true;
    }
    expect(lessFailed, `a gas limit of ${gas - 1n} should fail`).to.equal(true);
    return gas;
  }

  it('estimates exactly for code that branches on gasleft()', async () => {
    await expectExact(probe.encodeFunctionData('needsGasLeft', [100_000]));
    await expectExact(probe.encodeFunctionData('needsGasLeft', [1_000_000]));
  });

  it('estimates exactly for nested calls under the 63/64 rule', async () => {
    const shallow = await expectExact(probe.encodeFunctionData('nest', [1]));
    const deep = await expectExact(probe.encodeFunctionData('nest', [8]));
    expect(deep > shallow).to.equal(true);
  });

  it('estimates exactly when an inner call has a fixed gas stipend', async () => {
    await expectExact(probe.encodeFunctionData('burnThenCall', [50]));
  });

  it('estimates exactly when refunds make used gas far below the peak', async () => {
    await send(rpc, 0, { to: probeAddress, nonce: 2, data: probe.encodeFunctionData('fill', [30]), gasLimit: 2_000_000 });
    const gas = await expectExact(probe.encodeFunctionData('clear'));
    expect(gas > 100_000n).to.equal(true);
  });

  it('estimates a plain transfer at 21000 and a contract creation', async () => {
    expect(await rpc('eth_estimateGas', [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x1' }])).to.equal('0x5208');
    expect(await rpc('eth_estimateGas', [{}])).to.equal('0xcf08'); // empty creation: 53000 intrinsic
    const creation = BigInt(await rpc<string>('eth_estimateGas', [{ from: ADDRESSES[0], data: artifact('GasProbe').bytecode }]));
    expect(creation > 100_000n).to.equal(true);
  });

  it('surfaces reverts as code 3 with the decoded reason and the revert bytes', async () => {
    const data = token.encodeFunctionData('transfer', [ADDRESSES[1], 10_000n]);
    const from = ADDRESSES[2];
    const viaCall = await expectRpcError(rpc('eth_call', [{ from, to: tokenAddress, data }, 'latest']), 3, /^execution reverted: Token: insufficient balance$/);
    expect(token.parseError(viaCall.data as string)?.args[0]).to.equal('Token: insufficient balance');
    const viaEstimate = await expectRpcError(
      rpc('eth_estimateGas', [{ from, to: tokenAddress, data }]),
      3,
      /^execution reverted: Token: insufficient balance$/,
    );
    expect(viaEstimate.data).to.equal(viaCall.data);
  });

  it('names panics and passes custom errors through as data', async () => {
    await expectRpcError(call(probe.encodeFunctionData('failAssert')), 3, /^execution reverted: assert\(false\)$/);
    await expectRpcError(call(probe.encodeFunctionData('divide', [1, 0])), 3, /^execution reverted: division or modulo by zero$/);
    const custom = await expectRpcError(
      rpc('eth_call', [{ from: ADDRESSES[1], to: tokenAddress, data: token.encodeFunctionData('transferFrom', [ADDRESSES[0], ADDRESSES[1], 5n]) }]),
      3,
      /^execution reverted$/,
    );
    expect(token.parseError(custom.data as string)?.name).to.equal('InsufficientAllowance');
  });

  it('reports an empty revert as Anvil does: code 3, "execution reverted", data 0x', async () => {
    const viaCall = await expectRpcError(call('0xdeadbeef'), 3, /^execution reverted$/);
    expect(viaCall.data).to.equal('0x');
    const viaEstimate = await expectRpcError(estimate('0xdeadbeef'), 3, /^execution reverted$/);
    expect(viaEstimate.data).to.equal('0x');
  });

  it('reports out of gas and gas beyond the allowance', async () => {
    await expectRpcError(call(probe.encodeFunctionData('needsGasLeft', [0]), 22_000n), -32000, /^out of gas$/);
    // An inner call that runs out of gas makes Solidity revert the outer one without data.
    const inner = await expectRpcError(call(probe.encodeFunctionData('nest', [3]), 30_000n), 3, /^execution reverted$/);
    expect(inner.data).to.equal('0x');
    await expectRpcError(
      rpc('eth_estimateGas', [{ from: ADDRESSES[0], to: probeAddress, data: probe.encodeFunctionData('needsGasLeft', [0]), gas: '0x55f0' }]),
      -32000,
      /^gas required exceeds allowance \(22000\)$/,
    );
  });

  it('leaves no trace: calls and estimates change no state', async () => {
    const before = await rpc<{ stateRoot: string; number: string }>('eth_getBlockByNumber', ['latest', false]);
    const counter = await call(probe.encodeFunctionData('counter'));
    await call(probe.encodeFunctionData('needsGasLeft', [0]));
    await estimate(probe.encodeFunctionData('needsGasLeft', [0]));
    expect(await call(probe.encodeFunctionData('counter'))).to.equal(counter);
    const after = await rpc<{ stateRoot: string; number: string }>('eth_getBlockByNumber', ['latest', false]);
    expect(after).to.deep.include({ stateRoot: before.stateRoot, number: before.number });
  });

  it('checks the caller can pay for value and fees when they are given', async () => {
    const poor = '0x00000000000000000000000000000000000000aa';
    await expectRpcError(rpc('eth_call', [{ from: poor, to: ADDRESSES[0], value: '0x1' }]), -32000, /insufficient funds/);
    expect(await rpc('eth_call', [{ from: poor, to: ADDRESSES[0] }])).to.equal('0x');
  });
});
