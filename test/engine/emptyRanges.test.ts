import { expect } from 'chai';
import type { Chain } from '../../src/engine/chain.js';
import type { EmptyBlocksMode } from '../../src/engine/blocks/runHashing.js';
import { ADDRESSES, type Rpc, newNode, send } from '../helpers/chain.js';
import { fileURLToPath } from 'node:url';

/** A wall clock stopped at a fixed time: both nodes of a comparison stamp the same timestamps. */
const NOW_MS = 1_800_000_000_000;
const SHANGHAI = 1_700_001_000;
const SCHEDULE_GENESIS = fileURLToPath(new URL('../../../test/fixtures/genesis/schedule.json', import.meta.url));

interface Block {
  number: string;
  hash: string;
  parentHash: string;
  timestamp: string;
  baseFeePerGas?: string;
  mixHash: string;
  withdrawalsRoot?: string;
  transactions: unknown[];
}

const hex = (n: number | bigint) => `0x${n.toString(16)}`;
const block = (rpc: Rpc, n: number | bigint | string) => rpc<Block>('eth_getBlockByNumber', [typeof n === 'string' ? n : hex(n), true]);

/**
 * A node; `emptyBlocks` 'lazy' for tests of what mining and reads compute (no background
 * hashing), 'vm' for the reference chains.
 */
async function startNode(options: Parameters<typeof newNode>[0] = {}, emptyBlocks: EmptyBlocksMode = 'reserve'): Promise<{ rpc: Rpc; chain: Chain }> {
  const { provider, rpc } = newNode({ wallClock: () => NOW_MS, ...options });
  const { chain } = await provider.ready();
  if (emptyBlocks !== 'reserve') await chain.configure({ emptyBlocks });
  return { rpc, chain };
}

/** How far the store has computed: reserved blocks above this have no hash yet. */
const computed = (chain: Chain) => chain.blocks.lastUnreserved;

/** Every block of both chains, whole, by number and by hash; then what else reads blocks. */
async function expectSameChains(vm: Rpc, reserved: Rpc): Promise<void> {
  const head = BigInt(await vm<string>('eth_blockNumber'));
  expect(BigInt(await reserved<string>('eth_blockNumber'))).to.equal(head);
  // From the head down, so the reserved node computes everything on the first read.
  for (let n = head; n >= 0n; n--) {
    const [a, b] = [await block(vm, n), await block(reserved, n)];
    expect(b, `block ${n}`).to.deep.equal(a);
    if (n > 0n) expect(a.parentHash).to.equal((await block(vm, n - 1n)).hash);
    if (n % 37n === 0n) expect(await reserved('eth_getBlockByHash', [a.hash, true])).to.deep.equal(a);
  }
  const history = [hex(Math.min(Number(head) + 1, 1024)), 'latest', [10, 50]];
  expect(await reserved('eth_feeHistory', history)).to.deep.equal(await vm('eth_feeHistory', history));
  expect(await reserved('chain_exportChain')).to.equal(await vm('chain_exportChain'));
  expect(await reserved('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }])).to.deep.equal(
    await vm('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]),
  );
}

/** Init code that stores BLOCKHASH(NUMBER - 1) in slot 0 of the created account. */
const STORE_PARENT_HASH = '0x43600190034060005500';
/** Init code that returns BLOCKHASH(n) (n < 2^24). */
const returnBlockHash = (n: number) => `0x62${n.toString(16).padStart(6, '0')}4060005260206000f3`;

describe('reserved empty blocks (chain_mine of many)', function () {
  this.timeout(120_000);

  it('answers exactly as blocks mined through the VM: intervals, time travel, base fee decay, adjacent reservations, setters in between', async () => {
    const vm = await startNode();
    await vm.chain.configure({ emptyBlocks: 'vm' });
    const lazy = await startNode({}, 'lazy');
    for (const { rpc } of [vm, lazy]) {
      await rpc('hardhat_mine', ['0x32']);
      await send(rpc, 0, { to: ADDRESSES[1], value: 5 });
      await rpc('hardhat_mine', ['0x1e', '0xc']); // 12 s apart
      await rpc('evm_increaseTime', ['0x3e8']);
      await rpc('hardhat_mine', ['0x190']); // the base fee falls to its floor (7 wei) on the way
      await rpc('hardhat_mine', ['0xa']); // right after the previous reservation
      await rpc('hardhat_mine', ['0x5', '0x3']);
      await rpc('hardhat_setBalance', [ADDRESSES[2], '0x1234']); // state changed: the next run starts in the VM
      await rpc('hardhat_mine', ['0x5']);
      await rpc('hardhat_setCoinbase', ['0x00000000000000000000000000000000000000c0']);
      await rpc('hardhat_mine', ['0x5']);
      await rpc('evm_setNextBlockTimestamp', [hex(NOW_MS / 1000 + 100_000)]);
      await rpc('hardhat_mine', ['0x4']);
      await rpc('evm_mine', [{ timestamp: NOW_MS / 1000 + 200_000, blocks: 6 }]);
      await rpc('evm_mine', [NOW_MS / 1000 + 300_000]);
      await rpc('hardhat_mine', ['0x3']);
    }
    // The reservations were not computed by mining: only the blocks the VM built are.
    expect(computed(lazy.chain) < lazy.chain.blocks.headNumber).to.equal(true);
    await expectSameChains(vm.rpc, lazy.rpc);
  });

  for (const hardfork of ['paris', 'shanghai', 'cancun', 'prague', 'osaka']) {
    it(`starts a run right after a transaction, a setter, a coinbase change and a revert as the VM does (${hardfork})`, async () => {
      const vm = await startNode({ hardfork });
      await vm.chain.configure({ emptyBlocks: 'vm' });
      const lazy = await startNode({ hardfork }, 'lazy');
      for (const { rpc } of [vm, lazy]) {
        await send(rpc, 0, { to: ADDRESSES[1], value: 5 });
        await rpc('hardhat_mine', ['0x3']);
        await send(rpc, 1, { to: ADDRESSES[2], value: 7 });
        await rpc('hardhat_setStorageAt', [ADDRESSES[2], '0x1', `0x${'11'.repeat(32)}`]);
        await rpc('hardhat_setCoinbase', ['0x00000000000000000000000000000000000000c0']);
        await rpc('hardhat_mine', ['0x2', '0x5']);
        const id = await rpc<string>('evm_snapshot');
        await rpc('hardhat_mine', ['0x4']);
        await rpc('evm_revert', [id]);
        await rpc('hardhat_mine', ['0x3']); // the same constant fields: the last template again
        await rpc('evm_mine');
      }
      expect(computed(lazy.chain) < lazy.chain.blocks.headNumber).to.equal(true);
      await expectSameChains(vm.rpc, lazy.rpc);
    });
  }

  it('answers as the VM across a fork boundary inside the run (--genesis schedule by time)', async () => {
    const options = { genesis: SCHEDULE_GENESIS, hardfork: undefined, wallClock: () => 1_700_000_000_000 };
    const vm = await startNode(options);
    await vm.chain.configure({ emptyBlocks: 'vm' });
    const lazy = await startNode(options);
    for (const { rpc } of [vm, lazy]) {
      await rpc('hardhat_mine', ['0x5']); // to the merge
      await rpc('hardhat_mine', ['0x64', '0x14']); // Shanghai starts half-way
      await rpc('hardhat_mine', ['0x32']);
    }
    const blocks = await Promise.all([50, 56, 60].map((n) => block(lazy.rpc, n)));
    expect(blocks.map((b) => b.withdrawalsRoot !== undefined)).to.deep.equal(blocks.map((b) => Number(BigInt(b.timestamp)) >= SHANGHAI));
    await expectSameChains(vm.rpc, lazy.rpc);
  });

  it('reserves in O(1): the call computes nothing; eth_blockNumber and log queries over the run compute nothing either', async () => {
    const { rpc, chain } = await startNode({}, 'lazy');
    await rpc('hardhat_mine', ['0x186a0']);
    await rpc('hardhat_mine', ['0x186a0']); // a second reservation right after the first
    expect(await rpc('eth_blockNumber')).to.equal(hex(200_000));
    expect(computed(chain)).to.equal(0n); // not even the first block of the first call was built
    expect(await rpc('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }])).to.deep.equal([]);
    expect(await rpc('eth_getBalance', [ADDRESSES[0], 'latest'])).to.equal(await rpc('eth_getBalance', [ADDRESSES[0], '0x0']));
    expect(computed(chain)).to.equal(0n);
    // A read inside the run computes the blocks up to it, no further.
    const [parent, child] = [await block(rpc, 50_000), await block(rpc, 50_001)];
    expect(child.parentHash).to.equal(parent.hash);
    expect(computed(chain)).to.equal(50_001n);
    const head = await block(rpc, 'latest');
    expect(head.number).to.equal(hex(200_000));
    expect(head.parentHash).to.equal((await block(rpc, 199_999)).hash);
    expect((await block(rpc, 100_001)).parentHash).to.equal((await block(rpc, 100_000)).hash);
  });

  it('finds a block by hash inside a run nobody has computed yet', async () => {
    const vm = await startNode();
    await vm.chain.configure({ emptyBlocks: 'vm' });
    const lazy = await startNode({}, 'lazy');
    for (const { rpc } of [vm, lazy]) await rpc('hardhat_mine', ['0x3e8']);
    const wanted = await block(vm.rpc, 777);
    expect(computed(lazy.chain)).to.equal(0n);
    expect(await lazy.rpc('eth_getBlockByHash', [wanted.hash, true])).to.deep.equal(wanted);
    expect(await lazy.rpc('eth_getBlockByHash', [`0x${'ab'.repeat(32)}`, false])).to.equal(null);
  });

  it("gives the EVM the reserved blocks' hashes (BLOCKHASH) and links the next real block to the run", async () => {
    const { rpc } = await startNode();
    await rpc('hardhat_mine', ['0x1f4']);
    const receipt = await send(rpc, 0, { data: STORE_PARENT_HASH, gasLimit: 100_000 });
    const mined = await block(rpc, receipt.blockNumber as string);
    expect(mined.number).to.equal(hex(501));
    expect(mined.parentHash).to.equal((await block(rpc, 500)).hash);
    expect(await rpc('eth_getStorageAt', [receipt.contractAddress, '0x0', 'latest'])).to.equal(mined.parentHash);
    // And from a call at the head of a fresh run.
    await rpc('hardhat_mine', ['0x64']);
    expect(await rpc('eth_call', [{ data: returnBlockHash(550) }, 'latest'])).to.equal((await block(rpc, 550)).hash);
  });

  it('reads state at a block inside a run as the state at its start', async () => {
    const { rpc } = await startNode();
    await rpc('hardhat_mine', ['0x64']);
    await send(rpc, 0, { to: ADDRESSES[1], value: 1 });
    const at50 = await rpc('eth_getBalance', [ADDRESSES[1], '0x32']);
    const latest = await rpc('eth_getBalance', [ADDRESSES[1], 'latest']);
    expect(BigInt(latest as string) - BigInt(at50 as string)).to.equal(1n);
    expect(await rpc('eth_getBalance', [ADDRESSES[1], '0x1'])).to.equal(at50);
  });

  it('drops reservations on revert in O(1), before or between them, and mines the same blocks again', async () => {
    const { rpc, chain } = await startNode({}, 'lazy');
    await rpc('hardhat_mine', ['0x64']);
    const before = await rpc<string>('evm_snapshot');
    const head = await block(rpc, 'latest');
    await rpc('hardhat_mine', ['0xf4240']); // 1,000,000 more
    const middle = await rpc<string>('evm_snapshot');
    await rpc('hardhat_mine', ['0x3e8']);
    expect(await rpc('evm_revert', [middle])).to.equal(true);
    expect(await rpc('eth_blockNumber')).to.equal(hex(1_000_100));
    expect(await rpc('evm_revert', [before])).to.equal(true);
    expect(computed(chain)).to.equal(100n); // nothing of the dropped reservations was computed
    expect(await block(rpc, 'latest')).to.deep.equal(head);
    expect(await block(rpc, 101)).to.equal(null);
    await rpc('hardhat_mine', ['0xa']);
    expect((await block(rpc, 101)).parentHash).to.equal(head.hash);
  });

  it('cuts a reservation when a revert lands inside it, keeping the blocks before the cut', async () => {
    const { rpc, chain } = await startNode();
    await rpc('hardhat_mine', ['0x3e8']);
    const at600 = await block(rpc, 600);
    await chain.inspect((core) => core.blocks.truncateAbove(700n));
    expect(chain.blocks.headNumber).to.equal(700n);
    expect((await block(rpc, 'latest')).parentHash).to.equal((await block(rpc, 699)).hash);
    expect(await block(rpc, 600)).to.deep.equal(at600);
    const at680 = await block(rpc, 680);
    await chain.inspect((core) => core.blocks.truncateAbove(650n)); // inside the computed part
    expect(await block(rpc, 651)).to.equal(null);
    expect(await rpc('eth_blockNumber')).to.equal(hex(650));
    // By hash: the run still holds the cut blocks' hashes, but they are no longer the chain's.
    expect(await rpc('eth_getBlockByHash', [at600.hash, true])).to.deep.equal(at600);
    expect(await rpc('eth_getBlockByHash', [at680.hash, true])).to.equal(null);
  });

  it('a block mined after a long run links to it without keeping an object per empty block', async () => {
    const { rpc, chain } = await startNode();
    await rpc('hardhat_mine', ['0x30d40']); // 200,000
    const receipt = await send(rpc, 0, { to: ADDRESSES[1], value: 1 });
    expect(receipt.blockNumber).to.equal(hex(200_001));
    expect((await block(rpc, 200_001)).parentHash).to.equal((await block(rpc, 200_000)).hash);
    // The store holds the run as one stretch, grown by each turn of the mine: only the blocks
    // read by number or hash became objects.
    const segments = await chain.inspect(async (core) => core.blocks.segments().length);
    expect(segments).to.equal(3); // genesis, the run, the transfer's block
    const some = await block(rpc, 123_456);
    expect(await rpc('eth_getBlockByHash', [some.hash, true])).to.deep.equal(some);
  });

  it('reports each block of a chain_mine added over several turns once, in order, to a block filter polled meanwhile', async () => {
    const { rpc, chain } = await startNode();
    const filter = await rpc<string>('eth_newBlockFilter');
    let done = false;
    const mining = rpc('hardhat_mine', [hex(20_000)]).then(() => (done = true)); // about 90 ms of hashing: many turns of at most 4 ms
    const polls: string[][] = [];
    while (!done) {
      polls.push(await rpc<string[]>('eth_getFilterChanges', [filter]));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await mining;
    polls.push(await rpc<string[]>('eth_getFilterChanges', [filter]));
    expect(polls.filter((hashes) => hashes.length > 0).length, 'polls that got part of the run').to.be.above(1);
    const hashes = polls.flat();
    expect(hashes).to.have.length(20_000);
    expect(new Set(hashes).size).to.equal(20_000);
    for (const n of [1, 255, 256, 257, 4_096, 4_097, 12_345, 20_000]) expect(hashes[n - 1], `block ${n}`).to.equal((await block(rpc, n)).hash);
    const segments = await chain.inspect(async (core) => core.blocks.segments());
    expect(segments).to.have.length(2); // genesis and the run, grown turn by turn
  });

  it("reports every reserved block's hash to block filters when polled (the poll computes them)", async () => {
    const { rpc, chain } = await startNode({}, 'lazy');
    const filter = await rpc<string>('eth_newBlockFilter');
    await rpc('hardhat_mine', ['0x64']);
    await rpc('hardhat_mine', ['0x32']);
    expect(computed(chain)).to.equal(0n);
    const hashes = await rpc<string[]>('eth_getFilterChanges', [filter]);
    expect(hashes).to.have.length(150);
    for (const n of [1, 2, 100, 101, 150]) expect(hashes[n - 1]).to.equal((await block(rpc, n)).hash);
    // Reserved, then reverted before the poll: reported as mined-then-reverted blocks are.
    const id = await rpc<string>('evm_snapshot');
    await rpc('hardhat_mine', ['0x5']);
    await rpc('evm_revert', [id]);
    await send(rpc, 0, { to: ADDRESSES[1], value: 1 });
    const after = await rpc<string[]>('eth_getFilterChanges', [filter]);
    expect(after).to.have.length(6);
    expect(after[5]).to.equal((await block(rpc, 151)).hash);
    expect(after.slice(0, 5)).to.not.include(after[5]);
  });

  it('keeps interval mining and evm_mine with a timestamp working after a reservation', async () => {
    const { rpc } = await startNode();
    await rpc('hardhat_mine', ['0x3e8']);
    await rpc('evm_mine', [NOW_MS / 1000 + 5000]);
    expect((await block(rpc, 'latest')).timestamp).to.equal(hex(NOW_MS / 1000 + 5000));
    expect((await block(rpc, 'latest')).parentHash).to.equal((await block(rpc, 1000)).hash);
    await rpc('evm_setIntervalMining', [50]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await rpc('evm_setIntervalMining', [0]);
    const head = Number(BigInt(await rpc<string>('eth_blockNumber')));
    expect(head).to.be.greaterThan(1002);
    expect((await block(rpc, head)).parentHash).to.equal((await block(rpc, head - 1)).hash);
  });
});
