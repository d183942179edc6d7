import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { Contract, JsonRpcProvider, JsonRpcSigner } from 'ethers';
import { createPublicClient, createTestClient, createWalletClient, http, parseEther } from 'viem';
import { type RunningCli, runNode, startCli } from '../helpers/cli.js';
import { holder, HOLDERS, token, upstreamForSuite } from './upstream.js';

const PROJECT = fileURLToPath(new URL('../../../test/e2e/hardhat-project/', import.meta.url));

describe('forking end to end: npx chain-sim --fork with ethers, viem and Hardhat', function () {
  this.timeout(60_000);
  const up = upstreamForSuite();

  async function withCli(args: string[], body: (cli: RunningCli) => Promise<void>): Promise<void> {
    const cli = await startCli(['--port', '0', '--no-fork-cache', ...args]);
    try {
      await body(cli);
    } finally {
      await cli.stop();
    }
  }

  it('prints what was forked (Ganache spellings, credentials masked) and drives it with ethers', async () => {
    const pinned = up().head - 1n;
    const withCredentials = up().url.replace('http://', 'http://alice:hunter2@');
    await withCli(['--fork.url', withCredentials, '--fork.blockNumber', String(pinned)], async (cli) => {
      const banner = cli.output();
      expect(banner).to.include('http://***:***@127.0.0.1');
      expect(banner).to.not.include('hunter2');
      const pinnedBlock = await up().rpc<{ hash: string }>('eth_getBlockByNumber', [`0x${pinned.toString(16)}`, false]);
      expect(banner).to.match(/Chain id:\s+31337/);
      expect(banner).to.include(`Block:           ${pinned}`);
      expect(banner).to.include(pinnedBlock.hash);
      expect(banner).to.match(/Hardfork:\s+prague/);
      const provider = new JsonRpcProvider(cli.url, undefined, { staticNetwork: true, pollingInterval: 50 });
      try {
        expect((await provider.getNetwork()).chainId).to.equal(31337n);
        const whale = holder(HOLDERS);
        await provider.send('hardhat_impersonateAccount', [whale]);
        await provider.send('hardhat_setBalance', [whale, '0xde0b6b3a7640000']);
        const erc20 = new Contract(up().tokenAddress, token, new JsonRpcSigner(provider, whale)); // impersonated: not in eth_accounts
        const recipient = holder(2);
        const tx = await erc20.getFunction('transfer')(recipient, 123n);
        const receipt = await tx.wait();
        expect(receipt!.status).to.equal(1);
        expect(BigInt(receipt!.blockNumber)).to.equal(pinned + 1n);
        expect(await erc20.getFunction('balanceOf')(recipient)).to.equal(2123n);
        // A call at a block before the fork and one at the pinned block.
        expect(await erc20.getFunction('balanceOf')(recipient, { blockTag: Number(up().holdersBlock) - 1 })).to.equal(0n);
        expect(await erc20.getFunction('balanceOf')(recipient, { blockTag: Number(pinned) })).to.equal(2000n);
        // Logs across the fork point, through ethers' queryFilter.
        const events = await erc20.queryFilter(erc20.filters.Transfer!(null, recipient), 0, 'latest');
        expect(events.map((event) => event.blockNumber)).to.deep.equal([Number(up().holdersBlock), Number(pinned) + 1]);
        // Snapshot and revert.
        const id = await provider.send('evm_snapshot', []);
        await (await erc20.getFunction('transfer')(recipient, 1n)).wait();
        expect(await provider.send('evm_revert', [id])).to.equal(true);
        expect(await erc20.getFunction('balanceOf')(recipient)).to.equal(2123n);
      } finally {
        provider.destroy();
      }
    });
  });

  for (const mode of ['hardhat', 'anvil'] as const) {
    it(`viem's test client resets to a fork block and back (mode: ${mode}; Anvil's -f spelling)`, async () => {
      await withCli(['-f', up().url], async (cli) => {
        const chain = {
          id: 31337,
          name: 'fork',
          nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
          rpcUrls: { default: { http: [cli.url] } },
        } as const;
        const transport = http(cli.url);
        const test = createTestClient({ chain, mode, transport });
        const client = createPublicClient({ chain, transport });
        expect(await client.getBlockNumber({ cacheTime: 0 })).to.equal(up().head);
        await test.reset({ jsonRpcUrl: up().url, blockNumber: up().holdersBlock });
        expect(await client.getBlockNumber({ cacheTime: 0 })).to.equal(up().holdersBlock);
        const whale = holder(4) as `0x${string}`;
        await test.impersonateAccount({ address: whale });
        await test.setBalance({ address: whale, value: parseEther('1') });
        const wallet = createWalletClient({ chain, transport, account: whale });
        const data = token.encodeFunctionData('transfer', [holder(5), 4000n]) as `0x${string}`;
        const id = await test.snapshot();
        const hash = await wallet.sendTransaction({ to: up().tokenAddress as `0x${string}`, data });
        expect((await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).to.equal('success');
        const balanceOf = async (who: string) =>
          BigInt((await client.call({ to: up().tokenAddress as `0x${string}`, data: token.encodeFunctionData('balanceOf', [who]) as `0x${string}` })).data!);
        expect(await balanceOf(holder(5))).to.equal(9000n);
        await test.revert({ id });
        expect(await balanceOf(holder(5))).to.equal(5000n);
        await test.reset();
        expect(await client.getBlockNumber({ cacheTime: 0 })).to.equal(up().head);
      });
    });
  }

  it("Hardhat's network helpers: reset(url, block), impersonate a holder, snapshot, reset back", async () => {
    await withCli([], async (cli) => {
      const run = await runNode(['fork-helpers.cjs'], {
        cwd: PROJECT,
        env: {
          CHAIN_SIM_URL: cli.url,
          HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true',
          FORK_URL: up().url,
          FORK_BLOCK: String(up().holdersBlock),
          HOLDER: holder(7),
          TOKEN: up().tokenAddress,
        },
      });
      expect(run.code, run.stderr).to.equal(0);
      expect(JSON.parse(run.stdout)).to.deep.equal({
        forkedAt: Number(up().holdersBlock),
        holderBefore: '7000',
        status: '0x1',
        recipient: '250',
        recipientAfterRestore: '0',
        afterMine: Number(up().holdersBlock) + 5,
        afterReset: 0,
        codeAfterReset: '0x',
      });
    });
  });
});
