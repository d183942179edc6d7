import { expect } from 'chai';
import { createPublicClient, createTestClient, createWalletClient, http, parseEther } from 'viem';
import { type RunningCli, startCli } from '../helpers/cli.js';

const chain = {
  id: 1337,
  name: 'chain-sim',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
} as const;

describe('viem test clients against npx chain-sim', function () {
  this.timeout(60_000);
  let cli: RunningCli;

  before(async () => {
    // Exactly the README's command, through npx.
    cli = await startCli(['chain-sim', '--port', '0'], { command: 'npx', prefix: ['--no-install'] });
  });
  after(async () => {
    await cli.stop();
  });

  for (const mode of ['hardhat', 'anvil'] as const) {
    it(`drives snapshot, revert, mine, setBalance, impersonateAccount and increaseTime (mode: ${mode})`, async () => {
      const transport = http(cli.url);
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
  }
});
