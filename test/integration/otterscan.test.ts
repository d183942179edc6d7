// Otterscan's ots_* block and search methods and erigon_getHeaderByNumber (the trace-based
// ots_* methods are in otterscanTraces.test.ts, and compared with Anvil in test/e2e/anvil-traces.test.ts).
import { expect } from 'chai';
import { ADDRESSES, expectRpcError, newNode, send } from '../helpers/chain.js';

const TO = '0x000000000000000000000000000000000000beef';

async function chainOfPayments() {
  const node = newNode();
  const hashes: string[] = [];
  for (let nonce = 0; nonce < 5; nonce++) hashes.push((await send(node.rpc, 0, { to: TO, nonce, gasLimit: 21000, value: 1n })).transactionHash as string);
  await send(node.rpc, 1, { to: ADDRESSES[2], nonce: 0, gasLimit: 21000 }); // block 6: not key 0's
  return { ...node, hashes };
}

type Page = {
  txs: Array<{ hash: string; blockNumber: string }>;
  receipts: Array<{ transactionHash: string; timestamp: string }>;
  firstPage: boolean;
  lastPage: boolean;
};

describe('ots_* blocks and searches, erigon_getHeaderByNumber', () => {
  it('ots_getBlockDetails and ByHash: the block without transactions, their count, fees and issuance', async () => {
    const { rpc } = await chainOfPayments();
    const block = await rpc<Record<string, unknown>>('eth_getBlockByNumber', ['0x2', false]);
    const details = await rpc<{ block: Record<string, unknown>; issuance: Record<string, string>; totalFees: string }>('ots_getBlockDetails', ['0x2']);
    const { transactions: _t, logsBloom: _l, ...rest } = block;
    expect(details.block).to.deep.equal({ ...rest, logsBloom: null, transactionCount: 1 });
    const receipt = await rpc<{ gasUsed: string; effectiveGasPrice: string }>('eth_getTransactionReceipt', [(block.transactions as string[])[0]]);
    expect(BigInt(details.totalFees)).to.equal(BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice));
    expect(details.issuance).to.deep.equal({ blockReward: '0x0', uncleReward: '0x0', issuance: '0x0' }); // after the merge
    expect(await rpc('ots_getBlockDetailsByHash', [block.hash])).to.deep.equal(details);
    await expectRpcError(rpc('ots_getBlockDetails', ['0x99']), -32000, /block not found/);
  });

  it('ots_getBlockTransactions pages a block; inputs cut to their selector, receipts without logs', async () => {
    const { rpc } = await chainOfPayments();
    const result = await rpc<{ fullblock: { transactions: Array<{ input: string }>; transactionCount: number }; receipts: Array<{ logs: null }> }>(
      'ots_getBlockTransactions',
      [3, 0, 10],
    );
    expect(result.fullblock.transactionCount).to.equal(1);
    expect(result.fullblock.transactions).to.have.length(1);
    expect(result.receipts[0]!.logs).to.equal(null);
    expect((await rpc<{ fullblock: { transactions: unknown[] } }>('ots_getBlockTransactions', [3, 1, 10])).fullblock.transactions).to.deep.equal([]);
  });

  it("ots_searchTransactionsBefore / After page through an address's transactions, newest first", async () => {
    const { rpc, hashes } = await chainOfPayments();
    const first = await rpc<Page>('ots_searchTransactionsBefore', [ADDRESSES[0], 0, 2]);
    expect(first.txs.map((tx) => tx.hash)).to.deep.equal([hashes[4], hashes[3]]);
    expect(first.receipts.map((r) => r.transactionHash)).to.deep.equal([hashes[4], hashes[3]]);
    expect(first.receipts[0]!.timestamp).to.match(/^0x/);
    expect({ firstPage: first.firstPage, lastPage: first.lastPage }).to.deep.equal({ firstPage: true, lastPage: false });
    const next = await rpc<Page>('ots_searchTransactionsBefore', [ADDRESSES[0], Number(first.txs.at(-1)!.blockNumber), 10]);
    expect(next.txs.map((tx) => tx.hash)).to.deep.equal([hashes[2], hashes[1], hashes[0]]);
    expect(next.lastPage).to.equal(true);
    const after = await rpc<Page>('ots_searchTransactionsAfter', [ADDRESSES[0], 2, 2]);
    expect(after.txs.map((tx) => tx.hash)).to.deep.equal([hashes[3], hashes[2]]); // blocks 3 and 4, newest first
    expect(after.lastPage).to.equal(false);
    const payee = await rpc<Page>('ots_searchTransactionsBefore', [TO, 0, 25]);
    expect(payee.txs).to.have.length(5);
  });

  it('erigon_getHeaderByNumber: the header fields of the block', async () => {
    const { rpc } = await chainOfPayments();
    const block = await rpc<Record<string, unknown>>('eth_getBlockByNumber', ['0x2', false]);
    const { transactions: _t, uncles: _u, size: _s, withdrawals: _w, totalDifficulty: _d, ...header } = block;
    expect(await rpc('erigon_getHeaderByNumber', ['0x2'])).to.deep.equal(header);
    expect(await rpc('erigon_getHeaderByNumber', ['0x99'])).to.equal(null);
  });
});
