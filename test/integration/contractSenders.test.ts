// Impersonated contracts send (as in Hardhat and Anvil) and eth_call takes a contract as
// `from` (as in go-ethereum), although EIP-3607 forbids transactions from accounts with code.
import { expect } from 'chai';
import { Interface } from 'ethers';
import { ADDRESSES, artifact, deploy, newNode, nonceOf } from '../helpers/chain.js';

const token = new Interface(artifact('Token').abi);
const tree = new Interface(artifact('CallTree').abi);
const TO = '0x000000000000000000000000000000000000beef';

describe('senders with code', () => {
  it('an impersonated contract sends transactions, keeps its code, pays fees and counts nonces', async () => {
    const { rpc } = newNode();
    const holder = await deploy(rpc, 'CallTree'); // any contract: it holds the tokens below
    const tokenAddress = await deploy(rpc, 'Token', ['Token', 'TKN', 1000n], 1);
    await rpc('eth_sendTransaction', [{ from: ADDRESSES[0], to: tokenAddress, data: token.encodeFunctionData('transfer', [holder, 100n]) }]);
    const code = await rpc<string>('eth_getCode', [holder, 'latest']);
    await rpc('hardhat_setBalance', [holder, '0xde0b6b3a7640000']);
    await rpc('hardhat_impersonateAccount', [holder]);

    const hash = await rpc<string>('eth_sendTransaction', [{ from: holder, to: tokenAddress, data: token.encodeFunctionData('transfer', [TO, 30n]) }]);
    const receipt = await rpc<{ status: string; from: string; gasUsed: string; effectiveGasPrice: string }>('eth_getTransactionReceipt', [hash]);
    expect(receipt).to.include({ status: '0x1', from: holder.toLowerCase() });
    expect(BigInt(await rpc<string>('eth_call', [{ to: tokenAddress, data: token.encodeFunctionData('balanceOf', [TO]) }]))).to.equal(30n);
    expect(await rpc('eth_getCode', [holder, 'latest'])).to.equal(code);
    expect(BigInt(await rpc<string>('eth_getBalance', [holder, 'latest']))).to.equal(10n ** 18n - BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice));
    expect(await nonceOf(rpc, holder, 'latest')).to.equal(2); // a contract starts at 1
    // The contract still runs as a contract afterwards.
    expect(await rpc('eth_call', [{ to: holder, data: tree.encodeFunctionData('stored') }])).to.equal(`0x${'0'.repeat(64)}`);
    // Traced again, it replays the same way.
    const trace = await rpc<{ gas: number; failed: boolean }>('debug_traceTransaction', [hash]);
    expect(trace).to.include({ gas: Number(receipt.gasUsed), failed: false });
  });

  it('a contract sends when the transaction calls back into it, which runs its code', async () => {
    const { rpc } = newNode();
    const holder = await deploy(rpc, 'CallTree');
    await rpc('hardhat_setBalance', [holder, '0xde0b6b3a7640000']);
    await rpc('anvil_impersonateAccount', [holder]);
    // The transaction calls the contract itself (from itself): its code must be there.
    const hash = await rpc<string>('eth_sendTransaction', [{ from: holder, to: holder, data: tree.encodeFunctionData('run') }]);
    const receipt = await rpc<{ status: string; logs: unknown[] }>('eth_getTransactionReceipt', [hash]);
    expect(receipt.status).to.equal('0x1');
    expect(receipt.logs.length).to.be.greaterThan(0);
  });

  it('eth_call and eth_estimateGas take a contract as from, as go-ethereum does', async () => {
    const { rpc } = newNode();
    const holder = await deploy(rpc, 'CallTree');
    const tokenAddress = await deploy(rpc, 'Token', ['Token', 'TKN', 1000n], 1);
    await rpc('eth_sendTransaction', [{ from: ADDRESSES[0], to: tokenAddress, data: token.encodeFunctionData('transfer', [holder, 100n]) }]);
    const transfer = { from: holder, to: tokenAddress, data: token.encodeFunctionData('transfer', [TO, 30n]) };
    expect(BigInt(await rpc<string>('eth_call', [transfer, 'latest']))).to.equal(1n);
    expect(Number(await rpc<string>('eth_estimateGas', [transfer]))).to.be.greaterThan(21000);
    // Nothing moved, and the contract's code is intact.
    expect(BigInt(await rpc<string>('eth_call', [{ to: tokenAddress, data: token.encodeFunctionData('balanceOf', [holder]) }]))).to.equal(100n);
    expect(await rpc('eth_getCode', [holder, 'latest'])).to.not.equal('0x');
  });
});
