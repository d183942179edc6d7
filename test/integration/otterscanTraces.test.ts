// The trace-based ots_* methods on their own (test/e2e/anvil-traces.test.ts also compares
// them with Anvil, when its binary is there): API level, code, errors, call traces, a
// sender's nonce, a contract's creator.
import { expect } from 'chai';
import { Interface } from 'ethers';
import { ADDRESSES, artifact, deploy, newNode, send } from '../helpers/chain.js';

const token = new Interface(artifact('Token').abi);
const TO = '0x000000000000000000000000000000000000beef';

describe('ots_* traces, errors, nonces and creators', () => {
  it('answers each from the chain: ots_getApiLevel, ots_hasCode, ots_getTransactionError, ots_traceTransaction, ots_getTransactionBySenderAndNonce, ots_getContractCreator', async () => {
    const { rpc } = newNode();
    const address = (await deploy(rpc, 'Token', ['Token', 'TKN', 1000n])).toLowerCase(); // block 1, nonce 0
    const deployedHash = await rpc<string>('ots_getTransactionBySenderAndNonce', [ADDRESSES[0], '0x0']); // the hash, as Erigon answers
    const transfer = await send(rpc, 0, { to: address, nonce: 1, data: token.encodeFunctionData('transfer', [TO, 7n]) });
    const overdraft = await send(rpc, 1, { to: address, nonce: 0, gasLimit: 100_000, data: token.encodeFunctionData('transfer', [TO, 1n]) });

    expect(await rpc('ots_getApiLevel')).to.equal(8);
    expect(await rpc('ots_hasCode', [address, 'latest'])).to.equal(true);
    expect(await rpc('ots_hasCode', [address, '0x0'])).to.equal(false); // not yet deployed
    expect(await rpc('ots_hasCode', [ADDRESSES[0], 'latest'])).to.equal(false);

    expect(await rpc('ots_getTransactionError', [transfer.transactionHash])).to.equal('0x');
    // The revert data: Error("Token: insufficient balance").
    const reason = new Interface(['function Error(string)']).encodeFunctionData('Error', ['Token: insufficient balance']);
    expect(await rpc('ots_getTransactionError', [overdraft.transactionHash])).to.equal(reason);

    const [top, ...below] = await rpc<Array<Record<string, unknown>>>('ots_traceTransaction', [transfer.transactionHash]);
    expect(top).to.deep.equal({
      type: 'CALL',
      depth: 0,
      from: ADDRESSES[0],
      to: address,
      value: '0x0',
      input: token.encodeFunctionData('transfer', [TO, 7n]),
      output: `0x${'1'.padStart(64, '0')}`,
    });
    expect(below).to.deep.equal([]);

    const receipt = await rpc<{ contractAddress: string }>('eth_getTransactionReceipt', [deployedHash]);
    expect(receipt.contractAddress).to.equal(address);
    expect(await rpc('ots_getTransactionBySenderAndNonce', [ADDRESSES[0], '0x1'])).to.equal(transfer.transactionHash);
    expect(await rpc('ots_getTransactionBySenderAndNonce', [ADDRESSES[0], '0x5'])).to.equal(null);
    expect(await rpc('ots_getContractCreator', [address])).to.deep.equal({ hash: deployedHash, creator: ADDRESSES[0] });
    expect(await rpc('ots_getContractCreator', [ADDRESSES[0]])).to.equal(null);
  });
});
