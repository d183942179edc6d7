// Solidity's console.log (Hardhat's console.sol, compiled into fixtures/artifacts/ConsoleLogger.json):
// the lines reach the logger, formatted as Hardhat formats them.
import { expect } from 'chai';
import { Interface, getAddress } from 'ethers';
import type { ChainSimOptions } from '../../src/index.js';
import { ADDRESSES, artifact, deploy, expectRpcError, newNode, send } from '../helpers/chain.js';

const logger = new Interface(artifact('ConsoleLogger').abi);

async function nodeWithConsole(options: ChainSimOptions = {}) {
  const lines: string[] = [];
  const node = newNode({ quiet: false, logger: (line) => lines.push(line), ...options });
  const address = await deploy(node.rpc, 'ConsoleLogger');
  /** The lines printed since the last call: a request answers after its lines are printed (a send's, after the next request). */
  const printed = async () => lines.splice(0);
  await printed();
  return { ...node, address, printed };
}

describe('Solidity console.log', () => {
  it('prints every kind of argument from a mined transaction, with format specifiers, in order', async () => {
    const { rpc, address, printed } = await nodeWithConsole();
    const receipt = await send(rpc, 0, { to: address, nonce: 1, data: logger.encodeFunctionData('logAll', [ADDRESSES[1]]) });
    expect(receipt.status).to.equal('0x1');
    expect(await printed()).to.deep.equal([
      'count is 0',
      `who: ${getAddress(ADDRESSES[1]!)}`,
      `true 7 mixed ${getAddress(ADDRESSES[1]!)}`,
      `0x${'abc'.padStart(64, '0')}`,
      '-5',
      '',
    ]);
  });

  it('prints from eth_call and from reverted transactions, once per estimate-free execution', async () => {
    const { rpc, address, printed } = await nodeWithConsole();
    expect(BigInt(await rpc<string>('eth_call', [{ to: address, data: logger.encodeFunctionData('logView') }]))).to.equal(0n);
    expect(await printed()).to.deep.equal(['view call, count 0']);

    await expectRpcError(rpc('eth_call', [{ to: address, data: logger.encodeFunctionData('logAndRevert') }]), 3, /reverted after logging/);
    expect(await printed()).to.deep.equal(['about to revert']);

    // An estimate runs the call many times and prints nothing; the transaction prints once.
    const data = logger.encodeFunctionData('logView');
    await rpc('eth_estimateGas', [{ from: ADDRESSES[0], to: address, data }]);
    expect(await printed()).to.deep.equal([]);
    // Automine builds the block after the send's answer: its lines come before the next answer.
    await rpc('eth_sendTransaction', [{ from: ADDRESSES[0], to: address, data }]);
    await rpc('eth_blockNumber', []);
    expect(await printed()).to.deep.equal(['view call, count 0']);
  });

  it('a transaction waiting in the pool prints when it is mined, not when pending state is read', async () => {
    const { rpc, address, printed } = await nodeWithConsole();
    await rpc('evm_setAutomine', [false]);
    await rpc('eth_sendTransaction', [{ from: ADDRESSES[0], to: address, data: logger.encodeFunctionData('logAll', [ADDRESSES[0]]), gas: '0x100000' }]);
    await rpc('eth_call', [{ to: address, data: logger.encodeFunctionData('count') }, 'pending']);
    expect(await printed()).to.deep.equal([]);
    await rpc('evm_mine');
    expect(await printed()).to.have.length(6);
  });

  it('costs the same gas as on any chain: the console address is an empty account, not a precompile', async () => {
    const { rpc, address } = await nodeWithConsole();
    const { rpc: quietRpc } = newNode({ quiet: true });
    const quietAddress = await deploy(quietRpc, 'ConsoleLogger');
    expect(quietAddress).to.equal(address);
    const data = logger.encodeFunctionData('logAll', [ADDRESSES[1]]);
    const printing = await send(rpc, 0, { to: address, nonce: 1, data });
    const silent = await send(quietRpc, 0, { to: quietAddress, nonce: 1, data });
    expect(printing.gasUsed).to.equal(silent.gasUsed);
    expect(await rpc('eth_getCode', ['0x000000000000000000636f6e736f6c652e6c6f67', 'latest'])).to.equal('0x');
  });
});
