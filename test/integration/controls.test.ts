import { expect } from 'chai';
import { Interface } from 'ethers';
import { ADDRESSES, artifact, deploy, expectRpcError, newNode, nonceOf, send, signed } from '../helpers/chain.js';

const TO = '0x000000000000000000000000000000000000beef';
const token = new Interface(artifact('Token').abi);

describe('test controls', () => {
  it('snapshot/revert restores balances, nonces, code, storage, head, receipts and pool', async () => {
    const { rpc } = newNode();
    const address = await deploy(rpc, 'Token', ['T', 'T', 100n]);
    const id = await rpc<string>('evm_snapshot');
    const sent = await send(rpc, 0, { to: address, nonce: 1, data: token.encodeFunctionData('transfer', [TO, 7n]) });
    await rpc('eth_sendRawTransaction', [await signed(0, { to: TO, nonce: 5, gasLimit: 21000 })]); // queued
    await rpc('hardhat_setCode', [TO, '0x6001']);
    expect(await rpc('eth_blockNumber')).to.equal('0x2');
    expect(await rpc('evm_revert', [id])).to.equal(true);
    expect(await rpc('eth_blockNumber')).to.equal('0x1');
    expect(await rpc('eth_getTransactionReceipt', [sent.transactionHash])).to.equal(null);
    expect(await rpc('eth_getTransactionByHash', [sent.transactionHash])).to.equal(null);
    expect(await nonceOf(rpc, ADDRESSES[0]!)).to.equal(1);
    expect(await rpc('eth_getCode', [TO, 'latest'])).to.equal('0x');
    expect(BigInt(await rpc<string>('eth_call', [{ to: address, data: token.encodeFunctionData('balanceOf', [TO]) }]))).to.equal(0n);
    // evm_revert used the snapshot up.
    expect(await rpc('evm_revert', [id])).to.equal(false);
    await expectRpcError(rpc('evm_revert', [-1]), -32602, /0 \(snapshotId\): expected a non-negative integer or a hex quantity, got -1/);
  });

  it('chain_revert keeps the snapshot for repeated reverts and discards later ones', async () => {
    const { rpc } = newNode();
    const first = await rpc<string>('chain_snapshot');
    await send(rpc, 0, { to: TO, nonce: 0, gasLimit: 21000, value: 1n });
    const second = await rpc<string>('chain_snapshot');
    expect(await rpc('chain_revert', [first])).to.equal(true);
    for (let round = 0; round < 3; round++) {
      await send(rpc, 0, { to: TO, nonce: 0, gasLimit: 21000, value: 2n });
      expect(await rpc('chain_revert', [first])).to.equal(true);
      expect(await rpc('eth_getBalance', [TO, 'latest'])).to.equal('0x0');
      expect(await rpc('eth_blockNumber')).to.equal('0x0');
    }
    expect(await rpc('chain_revert', [second])).to.equal(false);
    expect(await rpc('chain_revert', ['0x99'])).to.equal(false);
  });

  it("increaseTime answers the clock's whole offset in each tool's form: a quantity, Hardhat's decimal string, Anvil's number", async () => {
    const { rpc } = newNode({ wallClock: () => 1_800_000_000_000 });
    expect(await rpc('chain_increaseTime', [60])).to.equal('0x3c');
    expect(await rpc('evm_increaseTime', [40])).to.equal('100');
    expect(await rpc('anvil_increaseTime', ['0xa'])).to.equal(110);
    await rpc('evm_mine');
    const block = await rpc<{ timestamp: string }>('eth_getBlockByNumber', ['latest', false]);
    expect(Number(block.timestamp)).to.equal(1_800_000_000 + 110);
  });

  it('time travel moves block timestamps and is undone by revert', async () => {
    const { rpc } = newNode({ wallClock: () => 1_800_000_000_000 });
    const id = await rpc<string>('evm_snapshot');
    await rpc('evm_increaseTime', [3600]);
    await rpc('evm_mine');
    const block = await rpc<{ timestamp: string }>('eth_getBlockByNumber', ['latest', false]);
    expect(Number(block.timestamp)).to.equal(1_800_000_000 + 3600);
    await rpc('evm_revert', [id]);
    await rpc('evm_mine');
    const after = await rpc<{ timestamp: string }>('eth_getBlockByNumber', ['latest', false]);
    // Back at the wall clock; the genesis block already has that second, so the next one follows it.
    expect(Number(after.timestamp)).to.equal(1_800_000_001);
    await rpc('evm_setNextBlockTimestamp', [1_900_000_000]);
    await rpc('evm_mine');
    expect(Number((await rpc<{ timestamp: string }>('eth_getBlockByNumber', ['latest', false])).timestamp)).to.equal(1_900_000_000);
    await expectRpcError(rpc('evm_setNextBlockTimestamp', [5]), -32602, /not after the latest block/);
    await rpc('evm_mine', [1_950_000_000]);
    expect(Number((await rpc<{ timestamp: string }>('eth_getBlockByNumber', ['latest', false])).timestamp)).to.equal(1_950_000_000);
  });

  it('a revert also undoes the wall-clock time since the snapshot, as Hardhat does', async () => {
    let now = 1_800_000_000_000;
    const { rpc } = newNode({ wallClock: () => now });
    const id = await rpc<string>('evm_snapshot');
    now += 3_200;
    await rpc('evm_revert', [id]);
    await rpc('evm_mine');
    const block = await rpc<{ timestamp: string }>('eth_getBlockByNumber', ['latest', false]);
    // The clock reads the snapshot's second again (give or take Hardhat's rounding), not 3 s later.
    expect(Number(block.timestamp)).to.be.within(1_800_000_000, 1_800_000_001);
    // Time travel made before a snapshot stays (the clock read about 1_800_000_000 + 100 at the snapshot).
    await rpc('evm_increaseTime', [100]);
    const second = await rpc<string>('evm_snapshot');
    now += 60_000;
    await rpc('evm_revert', [second]);
    await rpc('evm_mine');
    expect(Number((await rpc<{ timestamp: string }>('eth_getBlockByNumber', ['latest', false])).timestamp)).to.be.within(1_800_000_100, 1_800_000_101);
  });

  it('evm_mine with timestamp 0 mines at the current time, as Hardhat', async () => {
    const { rpc } = newNode({ wallClock: () => 1_800_000_000_000 });
    await rpc('evm_mine', [0]);
    await rpc('evm_mine', ['0x0']);
    expect(await rpc('eth_blockNumber')).to.equal('0x2');
  });

  it('calls against pending run in the next block, time travel included', async () => {
    const { rpc } = newNode({ wallClock: () => 1_800_000_000_000 });
    await rpc('hardhat_setCode', [TO, '0x4260005260206000f3']); // returns block.timestamp
    await rpc('evm_increaseTime', [500]);
    expect(Number(await rpc<string>('eth_call', [{ to: TO }, 'pending']))).to.equal(1_800_000_500);
    expect(Number(await rpc<string>('eth_call', [{ to: TO }, 'latest']))).to.equal(1_800_000_000);
    await rpc('hardhat_setCode', [TO, '0x4360005260206000f3']); // returns block.number
    expect(await rpc('eth_call', [{ to: TO }, 'pending'])).to.equal(`0x${'1'.padStart(64, '0')}`);
  });

  it('mines many blocks with an interval (hardhat_mine)', async () => {
    const { rpc } = newNode({ wallClock: () => 1_800_000_000_000 });
    await rpc('hardhat_mine', ['0x64', '0xc']);
    expect(await rpc('eth_blockNumber')).to.equal('0x64');
    const b1 = await rpc<{ timestamp: string; hash: string }>('eth_getBlockByNumber', ['0x63', false]);
    const b2 = await rpc<{ timestamp: string; parentHash: string }>('eth_getBlockByNumber', ['0x64', false]);
    expect(Number(b2.timestamp) - Number(b1.timestamp)).to.equal(12);
    expect(b2.parentHash).to.equal(b1.hash);
  });

  it('manual mining: automine off pools transactions, pending nonce counts them, evm_mine mines them', async () => {
    const { rpc } = newNode();
    await rpc('evm_setAutomine', [false]);
    expect(await rpc('eth_mining')).to.equal(false);
    const hashes: string[] = [];
    for (let nonce = 0; nonce < 3; nonce++) {
      hashes.push(await rpc<string>('eth_sendRawTransaction', [await signed(0, { to: TO, nonce, gasLimit: 21000, value: 1n })]));
    }
    expect(await nonceOf(rpc, ADDRESSES[0]!, 'pending')).to.equal(3);
    expect(await nonceOf(rpc, ADDRESSES[0]!, 'latest')).to.equal(0);
    expect(await rpc('eth_getTransactionReceipt', [hashes[0]])).to.equal(null);
    await rpc('evm_mine');
    const block = await rpc<{ transactions: string[] }>('eth_getBlockByNumber', ['latest', false]);
    expect(block.transactions).to.deep.equal(hashes);
    expect(await rpc('hardhat_dropTransaction', [hashes[0]])).to.equal(false);
    const dropped = await rpc<string>('eth_sendRawTransaction', [await signed(0, { to: TO, nonce: 3, gasLimit: 21000 })]);
    expect(await rpc('hardhat_dropTransaction', [dropped])).to.equal(true);
    await rpc('evm_mine');
    expect(await rpc('eth_getTransactionReceipt', [dropped])).to.equal(null);
  });

  it("pending reads see the pool's effects while automine is off", async () => {
    const { rpc } = newNode();
    await rpc('evm_setAutomine', [false]);
    await rpc('eth_sendRawTransaction', [await signed(0, { to: TO, nonce: 0, gasLimit: 21000, value: 5n })]);
    expect(await rpc('eth_getBalance', [TO, 'pending'])).to.equal('0x5');
    expect(await rpc('eth_getBalance', [TO, 'latest'])).to.equal('0x0');
    expect(await rpc('eth_getTransactionCount', [ADDRESSES[0], 'pending'])).to.equal('0x1');
    await rpc('hardhat_setBalance', [TO, '0x10']);
    expect(await rpc('eth_getBalance', [TO, 'pending'])).to.equal('0x15');
    await rpc('evm_mine');
    expect(await rpc('eth_getBalance', [TO, 'latest'])).to.equal('0x15');
  });

  it("the pending block is the head's child with the executable pool, unsealed (no hash, nonce, miner), as go-ethereum serves it", async () => {
    type RpcBlock = Record<string, string | null> & { transactions: Array<string | Record<string, string | null>> };
    const { rpc } = newNode();
    const head = await rpc<RpcBlock>('eth_getBlockByNumber', ['latest', false]);
    const empty = await rpc<RpcBlock>('eth_getBlockByNumber', ['pending', false]);
    expect(empty.number).to.equal('0x1');
    expect(empty.parentHash).to.equal(head.hash);
    expect([empty.hash, empty.nonce, empty.miner]).to.deep.equal([null, null, null]);
    expect(empty.transactions).to.deep.equal([]);

    await rpc('evm_setAutomine', [false]);
    const hashes = [];
    for (let nonce = 0; nonce < 2; nonce++) {
      hashes.push(await rpc<string>('eth_sendRawTransaction', [await signed(0, { to: TO, nonce, gasLimit: 21000, value: 1n })]));
    }
    await rpc('eth_sendRawTransaction', [await signed(1, { to: TO, nonce: 5, gasLimit: 21000 })]); // queued behind a nonce gap
    const timestamp = Number(head.timestamp) + 100;
    await rpc('evm_setNextBlockTimestamp', [timestamp]);

    const pending = await rpc<RpcBlock>('eth_getBlockByNumber', ['pending', true]);
    expect(pending.number).to.equal('0x1');
    expect(Number(pending.timestamp)).to.equal(timestamp);
    expect(Number(pending.gasUsed)).to.equal(42000);
    expect(pending.transactions.map((tx) => (tx as Record<string, string | null>).hash)).to.deep.equal(hashes);
    for (const [i, tx] of (pending.transactions as Array<Record<string, string | null>>).entries()) {
      expect([tx.blockHash, tx.blockNumber, tx.transactionIndex]).to.deep.equal([null, '0x1', `0x${i}`]);
    }
    expect(await rpc('eth_getBlockTransactionCountByNumber', ['pending'])).to.equal('0x2');
    const second = await rpc<Record<string, string | null>>('eth_getTransactionByBlockNumberAndIndex', ['pending', '0x1']);
    expect([second.hash, second.blockHash]).to.deep.equal([hashes[1], null]);
    expect(await rpc('eth_getUncleCountByBlockNumber', ['pending'])).to.equal('0x0');
    expect(await rpc('eth_getBlockReceipts', ['pending'])).to.equal(null);
    expect(await rpc('eth_blockNumber')).to.equal('0x0'); // nothing mined by asking

    // Mined as it was announced: the same transactions, roots and state.
    await rpc('evm_mine');
    const mined = await rpc<RpcBlock>('eth_getBlockByNumber', ['0x1', false]);
    expect(mined.hash).to.be.a('string');
    for (const field of ['parentHash', 'timestamp', 'stateRoot', 'transactionsRoot', 'receiptsRoot', 'logsBloom', 'gasUsed', 'baseFeePerGas']) {
      expect(mined[field], field).to.equal(pending[field]);
    }
    expect(mined.transactions).to.deep.equal(hashes);
    const next = await rpc<RpcBlock>('eth_getBlockByNumber', ['pending', false]);
    expect([next.number, next.parentHash, next.transactions.length]).to.deep.equal(['0x2', mined.hash, 0]);
  });

  it('the pool controls answer as their tools do: anvil_dropTransaction the hash or null, anvil_dropAllTransactions, anvil_removePoolTransactions', async () => {
    const { rpc } = newNode();
    await rpc('evm_setAutomine', [false]);
    const sendFrom = async (key: number, nonce: number) => rpc<string>('eth_sendRawTransaction', [await signed(key, { to: TO, nonce, gasLimit: 21000 })]);
    const first = await sendFrom(0, 0);
    expect(await rpc('anvil_dropTransaction', [first])).to.equal(first);
    expect(await rpc('anvil_dropTransaction', [first])).to.equal(null);
    expect(await rpc('hardhat_dropTransaction', [first])).to.equal(false);

    await sendFrom(0, 0);
    await sendFrom(0, 1);
    const other = await sendFrom(1, 0);
    expect(await rpc('anvil_removePoolTransactions', [ADDRESSES[0]])).to.equal(null);
    expect(await rpc('txpool_status')).to.deep.equal({ pending: '0x1', queued: '0x0' });
    expect((await rpc<{ transactions: string[] }>('eth_getBlockByNumber', ['pending', false])).transactions).to.deep.equal([other]);
    expect(await rpc('anvil_dropAllTransactions')).to.equal(null);
    expect(await rpc('txpool_status')).to.deep.equal({ pending: '0x0', queued: '0x0' });

    expect(await rpc('hardhat_mine', ['0x2'])).to.equal(true);
    expect(await rpc('anvil_mine', ['0x2'])).to.equal(null);
    expect(await rpc('chain_mine')).to.equal(null);
    expect(await rpc('eth_blockNumber')).to.equal('0x5');
  });

  it('interval mining (--block-time) produces blocks on its own and can be stopped', async () => {
    const { rpc, provider } = newNode({ blockTime: 0.05, wallClock: () => 1_800_000_000_000 });
    expect(await rpc('eth_mining')).to.equal(true);
    await rpc('eth_sendRawTransaction', [await signed(0, { to: TO, nonce: 0, gasLimit: 21000, value: 1n })]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await rpc('evm_setIntervalMining', [0]);
    const head = Number(await rpc<string>('eth_blockNumber'));
    expect(head).to.be.greaterThan(2);
    expect(await rpc('eth_getBalance', [TO, 'latest'])).to.equal('0x1');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(Number(await rpc<string>('eth_blockNumber'))).to.equal(head);
    await provider.disconnect();
  });

  it('a reset restores the configured mining mode: interval mining stays on, automine off (--block-time)', async () => {
    const { rpc, provider } = newNode({ blockTime: 3600 });
    const { chain } = await provider.ready();
    for (const when of ['before', 'after'] as const) {
      expect(await rpc('hardhat_getAutomine'), `automine ${when} the reset`).to.equal(false);
      expect(await rpc('eth_mining'), `interval mining ${when} the reset`).to.equal(true);
      if (when === 'before') {
        await rpc('evm_setAutomine', [true]);
        await rpc('evm_setIntervalMining', [0]);
        await rpc('hardhat_reset');
      }
    }
    expect(chain.isMining()).to.equal(true);
    await provider.disconnect();
  });

  for (const order of ['fees', 'fifo'] as const) {
    it(`orders a block's transactions by ${order === 'fees' ? 'tip, then arrival' : 'arrival'} (--order ${order}), nonces in order per sender`, async () => {
      const { rpc } = newNode({ order });
      await rpc('evm_setAutomine', [false]);
      const tip = (gwei: bigint) => ({ maxPriorityFeePerGas: gwei * 1_000_000_000n, maxFeePerGas: 200n * 1_000_000_000n });
      const low = await rpc<string>('eth_sendRawTransaction', [await signed(0, { to: TO, nonce: 0, gasLimit: 21000, ...tip(1n) })]);
      const lowNext = await rpc<string>('eth_sendRawTransaction', [await signed(0, { to: TO, nonce: 1, gasLimit: 21000, ...tip(9n) })]);
      const high = await rpc<string>('eth_sendRawTransaction', [await signed(1, { to: TO, nonce: 0, gasLimit: 21000, ...tip(5n) })]);
      await rpc('evm_mine');
      const block = await rpc<{ transactions: string[] }>('eth_getBlockByNumber', ['latest', false]);
      // By fees: sender 1's tip 5 beats sender 0's first (tip 1); sender 0's nonce 1 waits for its nonce 0.
      expect(block.transactions).to.deep.equal(order === 'fees' ? [high, low, lowNext] : [low, lowNext, high]);
    });
  }

  it('state setters change state without mining a block', async () => {
    const { rpc } = newNode();
    await rpc('hardhat_setBalance', [TO, '0x1234']);
    await rpc('anvil_setNonce', [TO, '0x7']);
    await rpc('evm_setAccountCode', [TO, '0x602a60005260206000f3']); // returns 42
    await rpc('hardhat_setStorageAt', [TO, '0x1', `0x${'00'.repeat(31)}05`]);
    expect(await rpc('eth_blockNumber')).to.equal('0x0');
    expect(await rpc('eth_getBalance', [TO, 'latest'])).to.equal('0x1234');
    expect(await rpc('eth_getTransactionCount', [TO, 'latest'])).to.equal('0x7');
    expect(BigInt(await rpc<string>('eth_call', [{ to: TO }]))).to.equal(42n);
    expect(await rpc('eth_getStorageAt', [TO, '0x1', 'latest'])).to.equal(`0x${'00'.repeat(31)}05`);
  });

  it("hardhat_setNonce keeps Hardhat's rules (never lower, not with a pool); chain_setNonce and anvil_setNonce set any nonce", async () => {
    const { rpc } = newNode();
    await rpc('hardhat_setNonce', [TO, '0x5']);
    await expectRpcError(rpc('hardhat_setNonce', [TO, '0x4']), -32602, /^New nonce \(4\) must not be smaller than the existing nonce \(5\)$/);
    expect(await rpc('eth_getTransactionCount', [TO, 'latest'])).to.equal('0x5');
    await rpc('evm_setAutomine', [false]);
    await rpc('eth_sendRawTransaction', [await signed(0, { to: TO, nonce: 0, gasLimit: 21000 })]);
    await expectRpcError(rpc('hardhat_setNonce', [TO, '0x9']), -32000, /transaction pool is not empty/);
    expect(await rpc('eth_getTransactionCount', [TO, 'latest'])).to.equal('0x5');
    await rpc('anvil_setNonce', [TO, '0x2']);
    expect(await rpc('eth_getTransactionCount', [TO, 'latest'])).to.equal('0x2');
    await rpc('chain_setNonce', [TO, '0x1']);
    expect(await rpc('eth_getTransactionCount', [TO, 'latest'])).to.equal('0x1');
  });

  it('impersonated accounts send without a signature', async () => {
    const { rpc } = newNode();
    const whale = '0x00000000000000000000000000000000000000aa';
    await rpc('hardhat_setBalance', [whale, '0xde0b6b3a7640000']);
    await expectRpcError(rpc('eth_sendTransaction', [{ from: whale, to: TO, value: '0x1' }]), -32000, /unknown account/);
    await rpc('hardhat_impersonateAccount', [whale]);
    const hash = await rpc<string>('eth_sendTransaction', [{ from: whale, to: TO, value: '0x1' }]);
    const receipt = await rpc<{ from: string; status: string }>('eth_getTransactionReceipt', [hash]);
    expect(receipt).to.deep.include({ from: whale, status: '0x1' });
    expect(await rpc('eth_getBalance', [TO, 'latest'])).to.equal('0x1');
    await rpc('hardhat_stopImpersonatingAccount', [whale]);
    await expectRpcError(rpc('eth_sendTransaction', [{ from: whale, to: TO, value: '0x1' }]), -32000, /unknown account/);
  });

  it('anvil_setIntervalMining takes seconds and turns automine off, as Anvil; evm_setIntervalMining takes milliseconds and leaves it', async () => {
    const { rpc, provider } = newNode();
    await rpc('evm_setIntervalMining', [60_000]);
    expect(await rpc('hardhat_getAutomine')).to.equal(true);
    await rpc('evm_setIntervalMining', [0]);
    // One second, not one millisecond: no block in 300 ms.
    expect(await rpc('anvil_setIntervalMining', [1])).to.equal(null);
    expect(await rpc('anvil_getAutomine')).to.equal(false);
    expect(await rpc('eth_mining')).to.equal(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await rpc('eth_blockNumber')).to.equal('0x0');
    await rpc('anvil_setIntervalMining', [0]);
    expect(await rpc('eth_mining')).to.equal(false);
    await expectRpcError(rpc('anvil_setIntervalMining', [3_000_000]), -32602, /invalid argument 0 \(seconds\): at most 2147483/);
    await provider.disconnect();
  });

  it('setStorageAt wants at most 32 bytes of even-length hex for the value', async () => {
    const { rpc } = newNode();
    await rpc('hardhat_setStorageAt', [TO, '0x1', '0x2a']);
    expect(await rpc('eth_getStorageAt', [TO, '0x1', 'latest'])).to.equal(`0x${'2a'.padStart(64, '0')}`);
    await expectRpcError(rpc('hardhat_setStorageAt', [TO, '0x1', '0xabc']), -32602, /invalid argument 2 \(value\): hex string of odd length/);
    await expectRpcError(rpc('hardhat_setStorageAt', [TO, '0x1', `0x${'11'.repeat(33)}`]), -32602, /\(value\): hex string has length 66, want at most 64/);
    await expectRpcError(rpc('hardhat_setStorageAt', [TO, '0x1', 42]), -32602, /\(value\): expected a storage value/);
    expect(await rpc('eth_getStorageAt', [TO, '0x1', 'latest'])).to.equal(`0x${'2a'.padStart(64, '0')}`);
  });

  it('a revert restores the coinbase', async () => {
    const { rpc } = newNode();
    const before = await rpc<string>('eth_coinbase');
    const id = await rpc<string>('evm_snapshot');
    await rpc('hardhat_setCoinbase', [TO]);
    expect(await rpc('eth_coinbase')).to.equal(TO);
    await rpc('evm_revert', [id]);
    expect(await rpc('eth_coinbase')).to.equal(before);
  });

  it('coinbase, next base fee and block gas limit setters apply to the next block', async () => {
    const { rpc } = newNode();
    await rpc('hardhat_setCoinbase', [TO]);
    await rpc('hardhat_setNextBlockBaseFeePerGas', ['0x3b9aca00']);
    await rpc('evm_setBlockGasLimit', ['0x1c9c381']);
    await rpc('evm_mine');
    const block = await rpc<Record<string, string>>('eth_getBlockByNumber', ['latest', false]);
    expect(block).to.deep.include({ miner: TO, baseFeePerGas: '0x3b9aca00', gasLimit: '0x1c9c381' });
    expect(await rpc('eth_coinbase')).to.equal(TO);
  });
});
