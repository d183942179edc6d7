import { expect } from 'chai';
import type { Chain } from '../../src/engine/chain.js';
import { RangeBlock } from '../../src/engine/blocks/emptyRanges.js';
import { ADDRESSES, type Rpc, newNode, send } from '../helpers/chain.js';

/**
 * Background hashing of reserved runs (src/engine/blocks/runHashing.ts): a run that reaches
 * the head unhashed (a loaded state's; here reserved in 'lazy' mode, which hashes nothing
 * ahead) is hashed a slice at a time while the node serves other requests, so a later send
 * does not wait for the whole run; it follows the head, so a revert, a reset or a rollback
 * over the run ends it, and an idle node does nothing. chain_mine hashes its own runs as it
 * adds them (test/concurrency/isolation.test.ts).
 */

const hex = (n: number | bigint) => `0x${n.toString(16)}`;

async function startNode(): Promise<{ rpc: Rpc; chain: Chain; close: () => Promise<void> }> {
  const { provider, rpc } = newNode({});
  const { chain } = await provider.ready();
  return { rpc, chain, close: () => provider.disconnect() };
}

/**
 * chain_mine with `params`, its run left unhashed as a loaded state's runs arrive: reserved in
 * 'lazy' mode, then the default mode again, which hashes a run left at the head in the background.
 */
async function reserveUnhashed(rpc: Rpc, chain: Chain, params: string[]): Promise<void> {
  await chain.configure({ emptyBlocks: 'lazy' });
  await rpc('hardhat_mine', params);
  await chain.configure({ emptyBlocks: 'reserve' });
}

const turn = (ms = 10) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether background hashing has a slice scheduled. */
const hashingScheduled = (chain: Chain) => chain.inspect(async (core) => core.runHashing.running);

/** Wait, sending no request, until `done` holds; how many distinct values of `progress` were seen on the way. */
async function waitIdle(done: () => boolean, progress: () => bigint, what: string): Promise<number> {
  const seen = new Set<bigint>();
  const deadline = Date.now() + 60_000;
  while (!done()) {
    seen.add(progress());
    if (Date.now() > deadline) throw new Error(`${what}: not done after 60 s (at ${progress()})`);
    await turn();
  }
  return seen.size;
}

/** The reserved head's run (the test mined one last). */
function headRun(chain: Chain): RangeBlock['run'] {
  const head = chain.head;
  if (!(head instanceof RangeBlock)) throw new Error('the head is not a reserved block');
  return head.run;
}

describe('reserved runs hashed in the background (runHashing.ts)', function () {
  this.timeout(180_000);

  it('hashes a large run left at the head unhashed, a slice at a time, with identical hashes; a later send finds them ready', async () => {
    const { rpc, chain, close } = await startNode();
    try {
      // Time travel and a base fee change before and between the runs: the hashes must still be ethereumjs' own.
      await rpc('evm_increaseTime', [hex(3600)]);
      await rpc('hardhat_setNextBlockBaseFeePerGas', [hex(5_000_000_000n)]);
      await reserveUnhashed(rpc, chain, [hex(50_000), hex(12)]);
      await rpc('evm_increaseTime', [hex(100_000)]);
      await reserveUnhashed(rpc, chain, [hex(150_000)]);
      const head = chain.blocks.headNumber;
      expect(head).to.equal(200_000n);
      // A read answers while the work is under way.
      expect(chain.blocks.lastUnreserved < head).to.equal(true);
      expect(await rpc('eth_blockNumber')).to.equal(hex(head));
      expect(chain.blocks.lastUnreserved < head, 'the read was answered before the run was hashed').to.equal(true);
      // With no request at all, the run gets hashed, in more than one slice.
      const observed = await waitIdle(
        () => chain.blocks.lastUnreserved === head,
        () => chain.blocks.lastUnreserved,
        'background hashing',
      );
      expect(observed, 'progress seen between slices').to.be.above(1);
      await turn(20);
      expect(await hashingScheduled(chain), 'nothing scheduled once the head is hashed').to.equal(false);
      // Each block as ethereumjs builds and hashes it from its fields (its own RLP and Keccak), across both runs.
      const samples = [2n, 3n, 100n, 300n, 49_999n, 50_000n, 50_001n, 50_002n, 50_500n, 123_456n, 199_999n, 200_000n];
      for (const n of samples) {
        const mined = chain.blocks.byNumber(n)!;
        expect(mined, `block ${n}`).to.be.instanceOf(RangeBlock);
        const built = mined.block;
        expect(built.header.number).to.equal(n);
        expect(built.hash(), `hash of block ${n}`).to.deep.equal(mined.hash);
        expect(built.header.parentHash, `parent of block ${n}`).to.deep.equal(chain.blocks.byNumber(n - 1n)!.hash);
      }
      const [early, late] = [chain.blocks.byNumber(2n)!.block.header, chain.blocks.byNumber(50_002n)!.block.header];
      expect(early.baseFeePerGas! < 5_000_000_000n).to.equal(true);
      expect(late.timestamp - chain.blocks.byNumber(50_000n)!.block.header.timestamp >= 100_000n).to.equal(true);
      // The send builds on the hashed head.
      const receipt = await send(rpc, 0, { to: ADDRESSES[1], value: 1 });
      expect(receipt.blockNumber).to.equal(hex(200_001));
      const mined = await rpc<{ parentHash: string }>('eth_getBlockByNumber', [hex(200_001), false]);
      expect(mined.parentHash).to.equal(chain.blocks.byNumber(200_000n)!.hashHex);
    } finally {
      await close();
    }
  });

  it('goes on while the node is quiet: nothing but one timer in the process', async () => {
    const { rpc, chain, close } = await startNode();
    try {
      await reserveUnhashed(rpc, chain, [hex(50_000)]);
      expect(chain.blocks.lastUnreserved).to.equal(0n);
      // One timer and no I/O: the event loop must not sleep in its poll phase between slices.
      await turn(5_000);
      expect(chain.blocks.lastUnreserved).to.equal(50_000n);
    } finally {
      await close();
    }
  });

  it('a send right after an unhashed run reaches the head waits only for the rest of the hashing and links to the run', async () => {
    const { rpc, chain, close } = await startNode();
    try {
      await reserveUnhashed(rpc, chain, [hex(300_000)]);
      const run = headRun(chain);
      const receipt = await send(rpc, 0, { to: ADDRESSES[1], value: 1 });
      expect(receipt.blockNumber).to.equal(hex(300_001));
      expect(run.materialized).to.equal(300_000);
      const mined = await rpc<{ parentHash: string }>('eth_getBlockByNumber', [hex(300_001), false]);
      expect(mined.parentHash).to.equal(chain.blocks.byNumber(300_000n)!.hashHex);
      expect(chain.blocks.byNumber(300_000n)!.block.hash()).to.deep.equal(chain.blocks.byNumber(300_000n)!.hash);
      await turn(20);
      expect(await hashingScheduled(chain)).to.equal(false);
    } finally {
      await close();
    }
  });

  for (const [what, undo, head] of [
    ['a revert to before the run', (rpc: Rpc, snapshot: string) => rpc('evm_revert', [snapshot]), 100n],
    ['a reset', (rpc: Rpc) => rpc('hardhat_reset', []), 0n],
  ] as const) {
    it(`stops hashing a run that ${what} dropped`, async () => {
      const { rpc, chain, close } = await startNode();
      try {
        await rpc('hardhat_mine', [hex(100)]);
        const snapshot = await rpc<string>('evm_snapshot');
        await reserveUnhashed(rpc, chain, [hex(1_000_000)]);
        const run = headRun(chain);
        await waitIdle(
          () => run.materialized > 0,
          () => BigInt(run.materialized),
          'the start of background hashing',
        );
        expect(await undo(rpc, snapshot)).to.not.equal(false);
        // Through the RPC: a read waits for the work an answer left behind (ChainBase.settling).
        expect(await rpc('eth_blockNumber')).to.equal(hex(head));
        expect(chain.blocks.lastUnreserved, 'the new head was hashed first').to.equal(head);
        const stopped = run.materialized;
        expect(stopped).to.be.below(1_000_000);
        await turn(100);
        expect(run.materialized, 'no hashing after the run was dropped').to.equal(stopped);
        expect(await hashingScheduled(chain)).to.equal(false);
        // A new unhashed run starts it again.
        await reserveUnhashed(rpc, chain, [hex(1000)]);
        const again = headRun(chain);
        await waitIdle(
          () => again.materialized === 1000,
          () => BigInt(again.materialized),
          'hashing the new run',
        );
      } finally {
        await close();
      }
    });
  }

  it('a rollback into the run hashes only the part still in the chain, then stops', async () => {
    const { rpc, chain, close } = await startNode();
    try {
      await reserveUnhashed(rpc, chain, [hex(1_000_000)]);
      const run = headRun(chain);
      await rpc('anvil_rollback', [hex(900_000)]);
      expect(chain.blocks.headNumber).to.equal(100_000n);
      expect(headRun(chain)).to.equal(run);
      await waitIdle(
        () => run.materialized >= 100_000,
        () => BigInt(run.materialized),
        'hashing the kept part',
      );
      await turn(100);
      expect(run.materialized, 'nothing past the new head').to.equal(100_000);
      expect(await hashingScheduled(chain)).to.equal(false);
    } finally {
      await close();
    }
  });

  it('does no background work on an idle node, and stops once a short run is hashed', async () => {
    const { rpc, chain, close } = await startNode();
    try {
      expect(await hashingScheduled(chain)).to.equal(false);
      await send(rpc, 0, { to: ADDRESSES[1], value: 1 });
      expect(await hashingScheduled(chain)).to.equal(false);
      await rpc('evm_mine'); // an empty block: reserved as a run of one
      await turn(20);
      expect(chain.blocks.lastUnreserved).to.equal(chain.blocks.headNumber);
      expect(await hashingScheduled(chain)).to.equal(false);
    } finally {
      await close();
    }
  });
});
