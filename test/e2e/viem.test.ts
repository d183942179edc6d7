import { expect } from 'chai';
import { createPublicClient, createTestClient, createWalletClient, http, parseEther } from 'viem';
import { npxChainSimForSuite } from '../helpers/cli.js';
import { CHAIN_SIM_CHAIN } from '../helpers/viem.js';

const chain = CHAIN_SIM_CHAIN;

describe('viem test clients against npx chain-sim', function () {
  this.timeout(60_000);
  const running = npxChainSimForSuite();

  for (const mode of ['hardhat', 'anvil'] as const) {
    it(`drives snapshot, revert, mine, setBalance, impersonateAccount and increaseTime (mode: ${mode})`, async () => {
      const transport = http(running().url);
      const test = createTestClient({ chain, mode, transport });
      const client = createPublicClient({ chain, transport });
      const whale = '0x00000000000000000000000000000000000000bb';
      const target = '0x000000000000000000000000000000000000c0de';

      const id = await test.snapshot();
      const startBlock = await client.getBlockNumber();
      await test.setBalance({ address: whale, value: parseEther('5') });
      expect(await client.getBalance({ address: whale })).to.equal(parseEther('5'));

      await test.impersonateAccount({ address: whale });
      const wallet = createWalletClient({ chain, transport, account: whale });
      const hash = await wallet.sendTransaction({ to: target, value: parseEther('1') });
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      expect(receipt.status).to.equal('success');
      expect(receipt.from).to.equal(whale);
      await test.stopImpersonatingAccount({ address: whale });

      const before = await client.getBlock();
      const pending = await client.getBlock({ blockTag: 'pending' });
      expect([pending.number, pending.hash, pending.parentHash]).to.deep.equal([before.number + 1n, null, before.hash]);
      await test.increaseTime({ seconds: 1000 });
      await test.mine({ blocks: 3 });
      const after = await client.getBlock();
      expect(after.number).to.equal(before.number + 3n);
      expect(after.timestamp - before.timestamp >= 1000n).to.equal(true);

      await test.revert({ id });
      expect(await client.getBlockNumber()).to.equal(startBlock);
      expect(await client.getBalance({ address: target })).to.equal(0n);
      expect(await client.getBalance({ address: whale })).to.equal(0n);
    });

    it(`drives automine, the txpool actions, unsigned sends, logging and reset (mode: ${mode})`, async () => {
      const transport = http(running().url);
      const test = createTestClient({ chain, mode, transport });
      const client = createPublicClient({ chain, transport });
      const sender = '0x00000000000000000000000000000000000000cc';
      await test.setBalance({ address: sender, value: parseEther('1') });

      expect(await test.getAutomine()).to.equal(true);
      await test.setAutomine(false);
      expect(await test.getAutomine()).to.equal(false);
      const hash = await test.sendUnsignedTransaction({ from: sender, to: sender, value: 1n });
      await test.sendUnsignedTransaction({ from: sender, to: sender, value: 2n, nonce: 3 }); // behind a gap
      expect(await test.getTxpoolStatus()).to.deep.equal({ pending: 1, queued: 1 });
      const content = await test.getTxpoolContent();
      expect(Object.values(content.pending).flatMap((byNonce) => Object.values(byNonce).map((tx) => tx.hash))).to.deep.equal([hash]);
      const inspect = await test.inspectTxpool();
      expect(Object.values(inspect.queued).flatMap((byNonce) => Object.keys(byNonce))).to.deep.equal(['3']);

      await test.mine({ blocks: 1 });
      expect((await client.getTransactionReceipt({ hash })).from).to.equal(sender);
      await test.setAutomine(true);
      await test.setLoggingEnabled(true);
      await test.setLoggingEnabled(false);

      await test.reset();
      expect(await client.getBlockNumber()).to.equal(0n);
      expect(await test.getTxpoolStatus()).to.deep.equal({ pending: 0, queued: 0 });
    });
  }

  it('spaces blocks by a block timestamp interval until it is removed (mode: anvil)', async () => {
    const transport = http(running().url);
    const test = createTestClient({ chain, mode: 'anvil', transport });
    const client = createPublicClient({ chain, transport });
    await test.setBlockTimestampInterval({ interval: 5 });
    await test.mine({ blocks: 3 });
    const head = await client.getBlock();
    const parent = await client.getBlock({ blockNumber: head.number - 1n });
    expect(head.timestamp - parent.timestamp).to.equal(5n);
    await test.removeBlockTimestampInterval();
    await test.setNextBlockTimestamp({ timestamp: head.timestamp + 1n });
    await test.mine({ blocks: 1 });
    expect((await client.getBlock()).timestamp).to.equal(head.timestamp + 1n);
  });
});
