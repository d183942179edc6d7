import { expect } from 'chai';
import { ADDRESSES, expectRpcError, newNode } from '../helpers/chain.js';

describe("go-ethereum's current reads", () => {
  it('blockTimestamp in mined transactions; eth_getHeaderByNumber/ByHash; eth_baseFee; eth_capabilities', async () => {
    const { rpc } = newNode();
    const hash = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x1' }]);
    const block = await rpc<Record<string, string>>('eth_getBlockByNumber', ['0x1', false]);
    const tx = await rpc<Record<string, string>>('eth_getTransactionByHash', [hash]);
    expect(tx.blockTimestamp).to.equal(block.timestamp);
    const header = await rpc<Record<string, string>>('eth_getHeaderByNumber', [1]);
    expect(header.hash).to.equal(block.hash);
    expect(header).to.not.have.property('transactions');
    expect(await rpc('eth_getHeaderByHash', [block.hash])).to.deep.equal(header);
    expect(await rpc('eth_getHeaderByHash', [`0x${'00'.repeat(32)}`])).to.equal(null);
    expect(await rpc('eth_baseFee')).to.equal((await rpc<Record<string, string>>('eth_getBlockByNumber', ['pending', false])).baseFeePerGas);
    const caps = await rpc<Record<string, unknown>>('eth_capabilities');
    expect(caps.head).to.deep.equal({ number: '0x1', hash: block.hash });
    expect(caps.logs).to.deep.equal({ disabled: false, oldestBlock: '0x0' });
  });

  it('eth_getStorageValues, eth_getAccount', async () => {
    const { rpc } = newNode();
    const contract = `0x${'c0'.repeat(20)}`;
    await rpc('hardhat_setStorageAt', [contract, '0x0', `0x${'38'.padStart(64, '0')}`]);
    await rpc('evm_mine');
    const zero = `0x${'00'.repeat(32)}`;
    expect(await rpc('eth_getStorageValues', [{ [contract]: [zero, `0x${'01'.padStart(64, '0')}`] }, 'latest'])).to.deep.equal({
      [contract]: [`0x${'38'.padStart(64, '0')}`, zero],
    });
    await expectRpcError(rpc('eth_getStorageValues', [{}, 'latest']), -32602, /^empty request$/);
    const account = await rpc<Record<string, string>>('eth_getAccount', [ADDRESSES[0], 'latest']);
    expect(account.balance).to.equal(await rpc('eth_getBalance', [ADDRESSES[0], 'latest']));
    expect(Object.keys(account).sort()).to.deep.equal(['balance', 'codeHash', 'nonce', 'storageRoot']);
  });

  it('eth_pendingTransactions, txpool_contentFrom, eth_getTransactionBySenderAndNonce (pool and chain)', async () => {
    const { rpc } = newNode();
    const mined = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x1' }]);
    await rpc('evm_setAutomine', [false]);
    const pooled = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x2' }]);
    expect((await rpc<Array<{ hash: string }>>('eth_pendingTransactions')).map((t) => t.hash)).to.deep.equal([pooled]);
    const content = await rpc<{ pending: Record<string, { hash: string }>; queued: object }>('txpool_contentFrom', [ADDRESSES[0]]);
    expect(content.pending['1']!.hash).to.equal(pooled);
    expect(await rpc('txpool_contentFrom', [ADDRESSES[1]])).to.deep.equal({ pending: {}, queued: {} });
    expect((await rpc<{ hash: string }>('eth_getTransactionBySenderAndNonce', [ADDRESSES[0], '0x0'])).hash).to.equal(mined);
    expect((await rpc<{ hash: string }>('eth_getTransactionBySenderAndNonce', [ADDRESSES[0], '0x1'])).hash).to.equal(pooled);
    expect(await rpc('eth_getTransactionBySenderAndNonce', [ADDRESSES[0], '0x5'])).to.equal(null);
  });
});
