import { expect } from 'chai';
import { createPublicClient, createTestClient, http } from 'viem';
import { type ChainSimServer, createServer } from '../../src/index.js';
import { CHAIN_SIM_CHAIN } from '../helpers/viem.js';

const chain = CHAIN_SIM_CHAIN;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Each tool's names with that tool's rules, as viem's test client sends them in each mode. */
describe("viem's test client modes get their tool's mining rules", function () {
  this.timeout(30_000);
  let server: ChainSimServer;
  let url: string;
  beforeEach(async () => {
    server = await createServer({ quiet: true });
    url = (await server.listen(0, '127.0.0.1')).url;
  });
  afterEach(async () => {
    await server.close();
  });

  for (const mode of ['anvil', 'hardhat'] as const) {
    it(`mine({ blocks: 3, interval: 10 }) spaces blocks as ${mode === 'anvil' ? 'Anvil (the clock jumps before each block)' : 'Hardhat (the first block at the clock)'}`, async () => {
      const transport = http(url);
      const test = createTestClient({ chain, mode, transport });
      const client = createPublicClient({ chain, transport, cacheTime: 0 });
      const start = await client.getBlock();
      await test.mine({ blocks: 3, interval: 10 });
      const [b1, b2, b3] = await Promise.all([1n, 2n, 3n].map((n) => client.getBlock({ blockNumber: start.number + n })));
      expect([b2!.timestamp - b1!.timestamp, b3!.timestamp - b2!.timestamp]).to.deep.equal([10n, 10n]);
      const firstStep = b1!.timestamp - start.timestamp;
      if (mode === 'anvil') expect(firstStep >= 10n, `first step ${firstStep}`).to.equal(true);
      else expect(firstStep < 10n, `first step ${firstStep}`).to.equal(true);
      // Anvil's clock stays ahead by the blocks' 30 s; Hardhat's continues from the last block.
      await test.mine({ blocks: 1 });
      const next = await client.getBlock();
      expect(next.timestamp - b3!.timestamp < 10n).to.equal(true);
    });
  }

  it('anvil mode: setIntervalMining({ interval: 1 }) is one block a second, automine off (after any anvil_ call)', async () => {
    const transport = http(url);
    const test = createTestClient({ chain, mode: 'anvil', transport });
    const client = createPublicClient({ chain, transport, cacheTime: 0 });
    await test.mine({ blocks: 1 });
    const before = await client.getBlockNumber();
    await test.setIntervalMining({ interval: 1 });
    expect(await test.getAutomine()).to.equal(false);
    await sleep(300);
    // Hardhat's milliseconds would have mined a block per millisecond by now.
    expect((await client.getBlockNumber()) - before <= 1n).to.equal(true);
    await test.setIntervalMining({ interval: 0 });
    const stopped = await client.getBlockNumber();
    await sleep(1200);
    expect(await client.getBlockNumber()).to.equal(stopped);
  });

  it('hardhat mode: setIntervalMining({ interval: 1 }) is 1000 ms as Hardhat reads it, automine stays on', async () => {
    const transport = http(url);
    const test = createTestClient({ chain, mode: 'hardhat', transport });
    const client = createPublicClient({ chain, transport, cacheTime: 0 });
    await test.setIntervalMining({ interval: 1 });
    expect(await test.getAutomine()).to.equal(true);
    const before = await client.getBlockNumber();
    await sleep(2300);
    const mined = (await client.getBlockNumber()) - before;
    expect(mined >= 1n && mined <= 3n, `${mined} blocks in 2.3 s`).to.equal(true);
    await test.setIntervalMining({ interval: 0 });
  });
});
