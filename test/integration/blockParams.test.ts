import { expect } from 'chai';
import { JsonRpcProvider, Wallet } from 'ethers';
import { type ChainSimServer, createServer } from '../../src/index.js';
import { ADDRESSES, KEYS, expectRpcError, newNode, signed } from '../helpers/chain.js';

describe('Block parameters as real suites send them', () => {
  it('takes block numbers as JSON numbers (as Hardhat and Anvil)', async () => {
    const { rpc } = newNode();
    await rpc('evm_mine');
    const byQuantity = await rpc<{ hash: string }>('eth_getBlockByNumber', ['0x1', false]);
    const byNumber = await rpc<{ hash: string }>('eth_getBlockByNumber', [1, false]);
    expect(byNumber.hash).to.equal(byQuantity.hash);
    expect(await rpc('eth_getBalance', [ADDRESSES[0], 0])).to.equal(await rpc('eth_getBalance', [ADDRESSES[0], '0x0']));
    expect(await rpc('eth_getBlockTransactionCountByNumber', [1])).to.equal('0x0');
    expect(await rpc('eth_getLogs', [{ fromBlock: 0, toBlock: 1 }])).to.deep.equal([]);
    await expectRpcError(rpc('eth_getBlockByNumber', [-1, false]), -32602, /^invalid argument 0 \(block\): expected a block number, got -1$/);
    await expectRpcError(rpc('eth_getBlockByNumber', [1.5, false]), -32602, /expected a block number, got 1.5/);
  });

  it('reads a 32-byte hash string as that block, as go-ethereum', async () => {
    const { rpc } = newNode();
    await rpc('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x5' }]);
    const block1 = await rpc<{ hash: string }>('eth_getBlockByNumber', ['0x1', false]);
    const genesis = await rpc<{ hash: string }>('eth_getBlockByNumber', ['0x0', false]);
    await rpc('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x5' }]);
    expect(await rpc('eth_getBalance', [ADDRESSES[1], block1.hash])).to.equal(await rpc('eth_getBalance', [ADDRESSES[1], '0x1']));
    expect(await rpc('eth_getBalance', [ADDRESSES[1], genesis.hash])).to.not.equal(await rpc('eth_getBalance', [ADDRESSES[1], block1.hash]));
    const receipts = await rpc<Array<{ blockHash: string }>>('eth_getBlockReceipts', [block1.hash]);
    expect(receipts.map((r) => r.blockHash)).to.deep.equal([block1.hash]);
    await expectRpcError(rpc('eth_getBalance', [ADDRESSES[1], `0x${'12'.repeat(32)}`]), -32000);
  });
});

describe('Sending a transaction that is already mined', () => {
  let server: ChainSimServer;
  let url: string;
  before(async () => {
    server = await createServer({ quiet: true, chainId: 1337 });
    url = `http://127.0.0.1:${(await server.listen(0, '127.0.0.1')).port}`;
  });
  after(async () => {
    await server.close();
  });

  it("answers go-ethereum's 'nonce too low' once mined, 'already known' only while pooled; ethers reads NONCE_EXPIRED", async () => {
    const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, pollingInterval: 20 });
    const wallet = new Wallet(KEYS[1]!, provider);
    const raw = await signed(1, { to: ADDRESSES[0], nonce: 0, gasLimit: 21000 });
    await (await provider.broadcastTransaction(raw)).wait();
    let caught: unknown;
    try {
      await provider.broadcastTransaction(raw);
    } catch (error) {
      caught = error;
    }
    expect((caught as { code?: string }).code).to.equal('NONCE_EXPIRED');
    expect((caught as Error).message).to.match(/nonce too low: address 0x70997970c51812dc3a010c7d01b50e0d17dc79c8, tx: 0 state: 1/);
    // While it sits in the pool (automine off), the same bytes are 'already known'.
    await provider.send('evm_setAutomine', [false]);
    const pooled = await signed(1, { to: ADDRESSES[0], nonce: 1, gasLimit: 21000 });
    await provider.send('eth_sendRawTransaction', [pooled]);
    const again = await provider.send('eth_sendRawTransaction', [pooled]).catch((error: unknown) => error);
    expect((again as { error?: { message?: string } }).error?.message).to.equal('already known');
    await provider.send('evm_setAutomine', [true]);
    expect(await provider.getTransactionCount(wallet.address)).to.equal(2);
    provider.destroy();
  });
});
