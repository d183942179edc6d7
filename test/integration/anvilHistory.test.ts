/**
 * anvil_rollback and anvil_reorg through the provider: the chain, the state, receipts, logs and
 * filters after them are what a snapshot revert leaves, and Anvil's parameters and errors hold.
 */
import { expect } from 'chai';
import { Interface } from 'ethers';
import { ADDRESSES, artifact, deploy, expectRpcError, type newNode, send, signed, nodesPerTest } from '../helpers/chain.js';

const token = new Interface(artifact('Token').abi);
const TO = '0x000000000000000000000000000000000000beef';
type Block = { number: string; hash: string; timestamp: string; transactions: string[]; parentHash: string };

describe('anvil_rollback and anvil_reorg', function () {
  this.timeout(30_000);
  const node = nodesPerTest();

  /** A token, then `transfers` blocks with one transfer of 1 each (nonces 1...). */
  async function withTransfers(rpc: ReturnType<typeof newNode>['rpc'], transfers: number) {
    const address = await deploy(rpc, 'Token', ['T', 'T', 1000n]);
    const hashes: string[] = [];
    for (let i = 0; i < transfers; i++) {
      const receipt = await send(rpc, 0, { to: address, nonce: i + 1, data: token.encodeFunctionData('transfer', [TO, 1n]) });
      hashes.push(receipt.transactionHash as string);
    }
    return { address, hashes };
  }
  const balanceOf = async (rpc: ReturnType<typeof newNode>['rpc'], address: string, who: string) =>
    BigInt(await rpc<string>('eth_call', [{ to: address, data: token.encodeFunctionData('balanceOf', [who]) }]));

  it('anvil_rollback drops the newest blocks (1 by default): state, receipts, logs, filters, time as after a revert', async () => {
    const { rpc } = node();
    const { address, hashes } = await withTransfers(rpc, 3); // blocks 1 (deploy) .. 4
    const filter = await rpc<string>('eth_newFilter', [{ address, fromBlock: '0x0' }]);
    await rpc('eth_getFilterChanges', [filter]);
    const block2 = await rpc<Block>('eth_getBlockByNumber', ['0x2', false]);

    expect(await rpc('anvil_rollback', [])).to.equal(null);
    expect(await rpc('eth_blockNumber')).to.equal('0x3');
    expect(await balanceOf(rpc, address, TO)).to.equal(2n);
    expect(await rpc('eth_getTransactionReceipt', [hashes[2]])).to.equal(null);
    const removed = await rpc<Array<{ removed: boolean; transactionHash: string }>>('eth_getFilterChanges', [filter]);
    expect(removed.map((log) => [log.removed, log.transactionHash])).to.deep.equal([[true, hashes[2]]]);

    expect(await rpc('anvil_rollback', ['0x1'])).to.equal(null);
    expect(await rpc('anvil_rollback', [null])).to.equal(null);
    expect(await rpc('eth_blockNumber')).to.equal('0x1');
    expect(await balanceOf(rpc, address, TO)).to.equal(0n);
    expect(await rpc('eth_getTransactionCount', [ADDRESSES[0], 'latest'])).to.equal('0x1');
    // Only the mint of the deployment (block 1) is left.
    const logs = await rpc<Array<{ blockNumber: string }>>('eth_getLogs', [{ address, fromBlock: '0x0' }]);
    expect(logs.map((log) => log.blockNumber)).to.deep.equal(['0x1']);
    expect(await rpc('eth_getBlockByHash', [block2.hash, false])).to.equal(null);

    // The chain goes on from there: the next transaction is mined at block 2, after the common block's time.
    const block1 = await rpc<Block>('eth_getBlockByNumber', ['0x1', false]);
    const again = await send(rpc, 0, { to: address, nonce: 1, data: token.encodeFunctionData('transfer', [TO, 5n]) });
    expect(again.blockNumber).to.equal('0x2');
    const next = await rpc<Block>('eth_getBlockByNumber', ['0x2', false]);
    expect(next.parentHash).to.equal(block1.hash);
    expect(BigInt(next.timestamp) > BigInt(block1.timestamp)).to.equal(true);
    expect(await balanceOf(rpc, address, TO)).to.equal(5n);
  });

  it("anvil_rollback refuses Anvil's way: deeper than the chain, bad depth", async () => {
    const { rpc } = node();
    await rpc('evm_mine');
    await expectRpcError(rpc('anvil_rollback', [2]), -32602, /^Rollback depth must not exceed current chain height: current height 1, depth 2$/);
    await expectRpcError(rpc('anvil_rollback', ['x']), -32602, /invalid argument 0 \(depth\)/);
    expect(await rpc('eth_blockNumber')).to.equal('0x1');
    expect(await rpc('anvil_rollback', [1])).to.equal(null);
    expect(await rpc('eth_blockNumber')).to.equal('0x0');
  });

  it('snapshots taken on the dropped blocks are discarded; older ones still revert', async () => {
    const { rpc } = node();
    const before = await rpc<string>('evm_snapshot');
    await rpc('evm_mine');
    const onDropped = await rpc<string>('evm_snapshot');
    await rpc('evm_mine');
    await rpc('anvil_rollback', [1]);
    expect(await rpc('evm_revert', [onDropped])).to.equal(true); // taken at block 1, which stays
    await rpc('evm_mine');
    const atTwo = await rpc<string>('evm_snapshot');
    await rpc('anvil_rollback', [1]);
    expect(await rpc('evm_revert', [atTwo])).to.equal(false);
    expect(await rpc('evm_revert', [before])).to.equal(true);
    expect(await rpc('eth_blockNumber')).to.equal('0x0');
  });

  it('anvil_reorg replaces the newest blocks with as many new ones holding the given transactions', async () => {
    const { rpc } = node();
    const { address, hashes } = await withTransfers(rpc, 3); // blocks 1..4
    const old3 = await rpc<Block>('eth_getBlockByNumber', ['0x3', false]);
    const filter = await rpc<string>('eth_newFilter', [{ address, fromBlock: '0x0' }]);
    await rpc('eth_getFilterChanges', [filter]);
    // The common block is 1. Raw: key 1 sends 7 wei to TO. Requests: key 0's transfers get nonces 1 and 2 (its nonce at block 1).
    const raw = await signed(1, { to: TO, value: 7n, nonce: 0 });
    const result = await rpc('anvil_reorg', [
      3,
      [
        [{ from: ADDRESSES[0], to: address, data: token.encodeFunctionData('transfer', [TO, 10n]) }, 0],
        [raw, 2],
        [{ from: ADDRESSES[0], to: address, data: token.encodeFunctionData('transfer', [TO, 20n]) }, 2],
      ],
    ]);
    expect(result).to.equal(null);
    expect(await rpc('eth_blockNumber')).to.equal('0x4');
    const blocks = await Promise.all([2, 3, 4].map((n) => rpc<Block>('eth_getBlockByNumber', [`0x${n}`, false])));
    expect(blocks.map((b) => b.transactions.length)).to.deep.equal([1, 0, 2]);
    expect(blocks[1]!.hash).to.not.equal(old3.hash);
    expect(await balanceOf(rpc, address, TO)).to.equal(10n + 20n);
    expect(await rpc('eth_getBalance', [TO, 'latest'])).to.equal('0x7');
    expect(await rpc('eth_getTransactionCount', [ADDRESSES[0], 'latest'])).to.equal('0x3');
    for (const hash of hashes) expect(await rpc('eth_getTransactionReceipt', [hash])).to.equal(null);
    const receipts = await Promise.all(blocks[2]!.transactions.map((h) => rpc<{ status: string; blockNumber: string }>('eth_getTransactionReceipt', [h])));
    expect(receipts.map((r) => [r.status, r.blockNumber])).to.deep.equal([
      ['0x1', '0x4'],
      ['0x1', '0x4'],
    ]);
    // The filter saw the three old transfers leave, then the new ones arrive.
    const changes = await rpc<Array<{ removed: boolean; blockNumber: string }>>('eth_getFilterChanges', [filter]);
    expect(changes.map((log) => [log.removed, log.blockNumber])).to.deep.equal([
      [true, '0x2'],
      [true, '0x3'],
      [true, '0x4'],
      [false, '0x2'],
      [false, '0x4'],
    ]);
  });

  it('anvil_reorg with no transactions mines empty blocks; a bad pair changes nothing', async () => {
    const { rpc } = node();
    await withTransfers(rpc, 2); // blocks 1..3
    const head = await rpc<Block>('eth_getBlockByNumber', ['latest', false]);
    await expectRpcError(
      rpc('anvil_reorg', [2, [[{ from: ADDRESSES[0], to: TO }, 2]]]),
      -32602,
      /^Block number for reorg tx will exceed the reorged chain height\. Block number 2 must not exceed \(depth-1\) 1$/,
    );
    await expectRpcError(rpc('anvil_reorg', [4, []]), -32602, /^Reorg depth must not exceed current chain height: current height 3, depth 4$/);
    await expectRpcError(rpc('anvil_reorg', [1, [['0x1234', 0]]]), -32000, /transaction type not supported/);
    await expectRpcError(rpc('anvil_reorg', [1, [[{ from: ADDRESSES[0], to: TO }]]]), -32602, /invalid argument 1 \(txBlockPairs\)\[0\]: expected a pair/);
    expect((await rpc<Block>('eth_getBlockByNumber', ['latest', false])).hash).to.equal(head.hash);
    expect(await rpc('anvil_reorg', [2, []])).to.equal(null);
    const blocks = await Promise.all([2, 3].map((n) => rpc<Block>('eth_getBlockByNumber', [`0x${n}`, false])));
    expect(blocks.map((b) => b.transactions.length)).to.deep.equal([0, 0]);
    expect(await rpc('eth_getTransactionCount', [ADDRESSES[0], 'latest'])).to.equal('0x1'); // its nonce at block 1
  });
});
