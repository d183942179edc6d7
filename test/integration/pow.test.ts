import { createBlockFromRPC, createBlockHeaderFromRPC } from '@ethereumjs/block';
import { runBlock } from '@ethereumjs/vm';
import { expect } from 'chai';
import { createChainCommon } from '../../src/engine/rules/hardforks.js';
import { datasetSize, hashimotoLight, sealHashOf, verifySeal } from '../../src/engine/pow/ethash.js';
import { boundaryOf, meetsBoundary } from '../../src/engine/pow/seal.js';
import { nonceToBytes } from '../../src/engine/pow/miner.js';
import { epoch0Cache } from '../engine/pow/helpers.js';
import { ADDRESSES, type Rpc, expectRpcError, newNode, signed } from '../helpers/chain.js';
import { type Solution, fromHex, mineOne, newPowNode, solveWork, submit, toHex } from '../helpers/powMiner.js';

const ETHER = 10n ** 18n;
const BLOCK_REWARD = 2n * ETHER; // Constantinople to Gray Glacier
const TO = '0x000000000000000000000000000000000000beef';
const MINER_A = '0x00000000000000000000000000000000000000a1';
const MINER_B = '0x00000000000000000000000000000000000000b2';
const MINER_C = '0x00000000000000000000000000000000000000c3';

interface Block {
  number: string;
  hash: string;
  parentHash: string;
  nonce: string;
  mixHash: string;
  miner: string;
  difficulty: string;
  sha3Uncles: string;
  baseFeePerGas: string;
  transactions: string[];
  uncles: string[];
}

interface Receipt {
  blockNumber: string;
  gasUsed: string;
  effectiveGasPrice: string;
  status: string;
}

const common = createChainCommon(1337n, 'grayGlacier');

const balance = async (rpc: Rpc, who: string) => BigInt(await rpc<string>('eth_getBalance', [who, 'latest']));
const block = (rpc: Rpc, tag: string | number) => rpc<Block>('eth_getBlockByNumber', [typeof tag === 'number' ? `0x${tag.toString(16)}` : tag, false]);

describe('proof-of-work mode (chain_getWork / chain_submitWork)', () => {
  before(async function () {
    this.timeout(20_000);
    await epoch0Cache(); // one cache build per run; every node below loads it from the file
  });

  it('a JavaScript miner seals blocks with the transactions sent meanwhile: receipts, balances, rewards', async () => {
    const { rpc } = await newPowNode({ coinbase: MINER_A });
    expect(await rpc('eth_mining')).to.equal(true);
    let tips = 0n;
    const nonces = [0, 0];
    for (let round = 1; round <= 3; round++) {
      const hashes: string[] = [];
      for (const key of [0, 1]) {
        const raw = await signed(key, { to: TO, value: BigInt(round), nonce: nonces[key]!++, gasLimit: 21_000 });
        hashes.push(await rpc<string>('eth_sendRawTransaction', [raw]));
      }
      // Sent, not mined: no receipt until a miner seals the block.
      for (const hash of hashes) expect(await rpc('eth_getTransactionReceipt', [hash])).to.equal(null);
      expect(await rpc('eth_blockNumber')).to.equal(`0x${(round - 1).toString(16)}`);
      const solution = await mineOne(rpc);
      const sealed = await block(rpc, 'latest');
      expect(sealed.number).to.equal(`0x${round.toString(16)}`);
      expect(sealed.nonce).to.equal(solution.nonce);
      expect(sealed.mixHash).to.equal(solution.mixDigest);
      expect(sealed.difficulty).to.equal('0x4');
      expect(sealed.miner).to.equal(MINER_A);
      expect(sealed.transactions).to.deep.equal(hashes);
      // Rebuilt from its JSON by @ethereumjs/block: same hash, the work's seal hash, a valid Ethash seal.
      const header = createBlockHeaderFromRPC(sealed as never, { common });
      expect(toHex(header.hash())).to.equal(sealed.hash);
      expect(toHex(sealHashOf(header.raw()))).to.equal(solution.powHash);
      const { cache } = await epoch0Cache();
      expect(verifySeal(cache, 0, sealHashOf(header.raw()), header.nonce, header.mixHash, header.difficulty)).to.equal(true);
      for (const hash of hashes) {
        const receipt = await rpc<Receipt>('eth_getTransactionReceipt', [hash]);
        expect(receipt.blockNumber).to.equal(sealed.number);
        expect(receipt.status).to.equal('0x1');
        tips += BigInt(receipt.gasUsed) * (BigInt(receipt.effectiveGasPrice) - BigInt(sealed.baseFeePerGas));
      }
    }
    await mineOne(rpc); // an empty block pays the block reward too
    expect(await rpc('eth_blockNumber')).to.equal('0x4');
    expect(tips).to.equal(6n * 21_000n * 1_000_000_000n); // 1 gwei tip each
    expect(await balance(rpc, MINER_A)).to.equal(4n * BLOCK_REWARD + tips);
    expect(await balance(rpc, TO)).to.equal(2n * (1n + 2n + 3n));
    expect(await rpc('eth_getTransactionCount', [ADDRESSES[1], 'latest'])).to.equal('0x3');
  });

  it('a sealed block keeps the contracts its transactions created (chain_deployedContracts)', async () => {
    const { rpc } = await newPowNode();
    // Init code of a contract whose code returns 42.
    const hash = await rpc<string>('eth_sendRawTransaction', [await signed(0, { data: '0x600a600c600039600a6000f3602a60005260206000f3', nonce: 0 })]);
    await mineOne(rpc);
    const { contractAddress } = await rpc<{ contractAddress: string }>('eth_getTransactionReceipt', [hash]);
    const listed = await rpc<{ contracts: Array<{ address: string; transactionHash: string; blockNumber: string }> }>('chain_deployedContracts');
    expect(listed.contracts).to.have.length(1);
    expect(listed.contracts[0]).to.deep.include({ address: contractAddress, transactionHash: hash, blockNumber: '0x1' });
  });

  it('hands out the same work until the pool or the head changes, and earlier work stays valid', async () => {
    const { rpc } = await newPowNode();
    const first = await rpc<string[]>('chain_getWork');
    expect(await rpc('chain_getWork')).to.deep.equal(first);
    expect(first[1]).to.equal(`0x${'00'.repeat(32)}`); // epoch 0 seed
    expect(first[2]).to.equal(toHex(boundaryOf(4n)));
    const emptyBlock = await solveWork(rpc);
    const hash = await rpc<string>('eth_sendRawTransaction', [await signed(0, { to: TO, value: 1n, nonce: 0, gasLimit: 21_000 })]);
    const withTx = await rpc<string[]>('chain_getWork');
    expect(withTx[0]).to.not.equal(first[0]);
    expect(await rpc('chain_getWork')).to.deep.equal(withTx);
    await rpc('chain_setCoinbase', [MINER_B]);
    const withCoinbase = await rpc<string[]>('chain_getWork');
    expect(withCoinbase[0]).to.not.equal(withTx[0]);
    // A block timestamp interval moves the pending block's timestamp: new work.
    await rpc('anvil_setBlockTimestampInterval', [1000]);
    expect((await rpc<string[]>('chain_getWork'))[0]).to.not.equal(withCoinbase[0]);
    await rpc('anvil_removeBlockTimestampInterval');

    // The older work (empty block, before the transaction) is still accepted.
    expect(await submit(rpc, emptyBlock)).to.equal(true);
    const one = await block(rpc, 1);
    expect(one.transactions).to.deep.equal([]);
    expect(await rpc('eth_getTransactionReceipt', [hash])).to.equal(null);
    await mineOne(rpc);
    expect((await block(rpc, 2)).transactions).to.deep.equal([hash]);
    expect((await block(rpc, 2)).miner).to.equal(MINER_B);
  });

  it('refuses wrong nonces, wrong mix digests, results above the boundary, unknown and stale work, changing nothing', async () => {
    const { rpc } = await newPowNode({ difficulty: 16, coinbase: MINER_A });
    const hash = await rpc<string>('eth_sendRawTransaction', [await signed(0, { to: TO, value: 1n, nonce: 0, gasLimit: 21_000 })]);
    const work = await rpc<string[]>('chain_getWork');
    const good = await solveWork(rpc);
    const { cache } = await epoch0Cache();
    let above: Solution | undefined;
    for (let n = 0n; !above; n++) {
      const out = hashimotoLight(cache, datasetSize(0), fromHex(good.powHash), nonceToBytes(n));
      if (!meetsBoundary(out.result, boundaryOf(16n))) above = { powHash: good.powHash, nonce: toHex(nonceToBytes(n)), mixDigest: toHex(out.mixDigest) };
    }
    const flipped = fromHex(good.mixDigest);
    flipped[31]! ^= 1;
    const bad: Array<[string, Solution]> = [
      ['wrong mix digest', { ...good, mixDigest: toHex(flipped) }],
      ['wrong nonce', { ...good, nonce: toHex(nonceToBytes(BigInt(good.nonce) + 1n)) }],
      ['result above the boundary', above],
      ['unknown work', { ...good, powHash: `0x${'ab'.repeat(32)}` }],
    ];
    for (const [what, solution] of bad) {
      expect(await submit(rpc, solution), what).to.equal(false);
      expect(await rpc('eth_blockNumber'), what).to.equal('0x0');
      expect(await rpc('eth_getTransactionReceipt', [hash]), what).to.equal(null);
      expect(await balance(rpc, MINER_A), what).to.equal(0n);
      expect(await rpc('chain_getWork'), what).to.deep.equal(work);
    }

    // Work built on a state that changed since (a test control wrote to it) is refused too.
    await rpc('hardhat_setBalance', [TO, '0x64']);
    expect(await submit(rpc, good)).to.equal(false);
    expect(await rpc('eth_blockNumber')).to.equal('0x0');
    expect(await balance(rpc, TO)).to.equal(100n);

    // Stale: work for block 1 is forgotten once it could not even be an uncle of the next block.
    const old = await solveWork(rpc);
    await rpc('chain_setCoinbase', [MINER_B]); // so that the blocks below differ from `old`
    for (let i = 0; i < 7; i++) await mineOne(rpc);
    expect(await submit(rpc, old)).to.equal(false);
    expect(await rpc('eth_blockNumber')).to.equal('0x7');
    expect(await rpc('eth_getUncleCountByBlockNumber', ['latest'])).to.equal('0x0');
  });

  it('after a revert, work on the dropped blocks is refused and new work builds on the restored head', async () => {
    const { rpc } = await newPowNode();
    const snapshot = await rpc<string>('evm_snapshot');
    await mineOne(rpc);
    const onDropped = await solveWork(rpc); // block 2 on block 1
    expect(await rpc('evm_revert', [snapshot])).to.equal(true);
    expect(await submit(rpc, onDropped)).to.equal(false);
    expect(await rpc('eth_blockNumber')).to.equal('0x0');
    await mineOne(rpc);
    expect((await block(rpc, 1)).parentHash).to.equal((await block(rpc, 0)).hash);
  });

  it('work handed out after a snapshot is refused once the chain reverts to it (its state was freed)', async () => {
    const { rpc } = await newPowNode();
    await mineOne(rpc);
    const snapshot = await rpc<string>('evm_snapshot');
    const onFreedState = await solveWork(rpc); // block 2 on block 1, the head the revert keeps
    expect(await rpc('evm_revert', [snapshot])).to.equal(true);
    expect(await submit(rpc, onFreedState)).to.equal(false);
    await mineOne(rpc);
    expect(await rpc('eth_blockNumber')).to.equal('0x2');
    expect(await rpc('eth_getBalance', [ADDRESSES[0]!, 'latest'])).to.not.equal('0x0');
  });

  it('rejects malformed submitWork and submitHashrate parameters with -32602', async () => {
    const { rpc } = await newPowNode();
    const h32 = `0x${'11'.repeat(32)}`;
    const n8 = `0x${'22'.repeat(8)}`;
    await expectRpcError(rpc('chain_submitWork', [`0x${'22'.repeat(7)}`, h32, h32]), -32602, /argument 0 \(nonce\).*want 16/);
    await expectRpcError(rpc('chain_submitWork', [n8, `0x${'11'.repeat(31)}`, h32]), -32602, /argument 1 \(powHash\)/);
    await expectRpcError(rpc('chain_submitWork', [n8, h32, `0x${'11'.repeat(33)}`]), -32602, /argument 2 \(mixDigest\)/);
    await expectRpcError(rpc('chain_submitWork', [n8, h32, 'zz']), -32602, /argument 2/);
    await expectRpcError(rpc('chain_submitWork', [n8, h32]), -32602, /missing value/);
    await expectRpcError(rpc('eth_submitHashrate', ['0x10', `0x${'11'.repeat(31)}`]), -32602, /argument 1 \(id\)/);
    await expectRpcError(rpc('eth_submitHashrate', ['0x010', h32]), -32602, /argument 0 \(hashrate\)/);
  });

  it('a second solution for the same height becomes an uncle of a later block, with rewards for both miners', async () => {
    const { rpc, provider } = await newPowNode({ coinbase: MINER_A });
    const genesis = await block(rpc, 0);
    const forA = await solveWork(rpc);
    await rpc('chain_setCoinbase', [MINER_B]);
    const forB = await solveWork(rpc);
    expect(forB.powHash).to.not.equal(forA.powHash);
    expect(await submit(rpc, forA)).to.equal(true);
    expect(await submit(rpc, forB)).to.equal(true); // a valid sibling of the head: kept as an uncle candidate
    expect(await rpc('eth_blockNumber')).to.equal('0x1');
    expect((await block(rpc, 1)).miner).to.equal(MINER_A);

    await rpc('chain_setCoinbase', [MINER_C]);
    await mineOne(rpc);
    const two = await block(rpc, 2);
    expect(two.uncles).to.have.length(1);
    expect(two.sha3Uncles).to.not.equal('0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347');
    expect(await rpc('eth_getUncleCountByBlockNumber', ['0x2'])).to.equal('0x1');
    expect(await rpc('eth_getUncleCountByBlockHash', [two.hash])).to.equal('0x1');
    const uncle = await rpc<Block & { transactions: unknown[] }>('eth_getUncleByBlockNumberAndIndex', ['0x2', '0x0']);
    expect(await rpc('eth_getUncleByBlockHashAndIndex', [two.hash, '0x0'])).to.deep.equal(uncle);
    expect(await rpc('eth_getUncleByBlockNumberAndIndex', ['0x2', '0x1'])).to.equal(null);
    expect(uncle.hash).to.equal(two.uncles[0]);
    expect(uncle.number).to.equal('0x1');
    expect(uncle.parentHash).to.equal(genesis.hash);
    expect(uncle.miner).to.equal(MINER_B);
    expect(uncle.nonce).to.equal(forB.nonce);
    expect(uncle.mixHash).to.equal(forB.mixDigest);
    expect(uncle.transactions).to.deep.equal([]);
    expect(uncle.hash).to.not.equal((await block(rpc, 1)).hash);
    const rebuilt = createBlockFromRPC(two as never, [uncle], { common });
    expect(toHex(rebuilt.hash())).to.equal(two.hash);
    expect(rebuilt.uncleHashIsValid()).to.equal(true);
    expect(toHex(rebuilt.uncleHeaders[0]!.hash())).to.equal(uncle.hash);

    // Rewards: the includer gets reward/32 extra, the uncle's miner (8 + 1 - 2)/8 of the reward.
    expect(await balance(rpc, MINER_A)).to.equal(BLOCK_REWARD);
    expect(await balance(rpc, MINER_C)).to.equal(BLOCK_REWARD + BLOCK_REWARD / 32n);
    expect(await balance(rpc, MINER_B)).to.equal((7n * BLOCK_REWARD) / 8n);
    // @ethereumjs/vm's runBlock, which pays uncle rewards itself, re-executes block 2 to the same state root.
    const { chain } = await provider.ready();
    await chain.inspect(async (core) =>
      runBlock(await core.vm.shallowCopy(false), {
        block: chain.blocks.byNumber(2n)!.block,
        root: chain.blocks.byNumber(1n)!.block.header.stateRoot,
        skipBlockValidation: true,
        skipHeaderValidation: true,
      }),
    );

    // Included once only.
    await mineOne(rpc);
    expect((await block(rpc, 3)).uncles).to.deep.equal([]);
    expect(await balance(rpc, MINER_B)).to.equal((7n * BLOCK_REWARD) / 8n);
  });

  it('chain_mining follows miner_stop / miner_start; hashrates submitted in the last 10 s are summed', async () => {
    let now = 1_800_000_000_000;
    const { rpc } = await newPowNode({ wallClock: () => now });
    expect(await rpc('eth_hashrate')).to.equal('0x0');
    expect(await rpc('eth_submitHashrate', [`0x${'500000'.padStart(64, '0')}`, `0x${'01'.repeat(32)}`])).to.equal(true);
    expect(await rpc('eth_submitHashrate', ['0x100', `0x${'02'.repeat(32)}`])).to.equal(true);
    expect(await rpc('eth_hashrate')).to.equal('0x500100');
    now += 6_000;
    expect(await rpc('eth_submitHashrate', ['0x200', `0x${'02'.repeat(32)}`])).to.equal(true); // replaces id 2's rate
    expect(await rpc('eth_hashrate')).to.equal('0x500200');
    now += 6_000;
    expect(await rpc('eth_hashrate')).to.equal('0x200'); // id 1 went quiet 12 s ago

    const solution = await solveWork(rpc);
    expect(await rpc('miner_stop')).to.equal(true);
    expect(await rpc('eth_mining')).to.equal(false);
    await expectRpcError(rpc('eth_getWork'), -32000, /no mining work available yet/);
    expect(await submit(rpc, solution)).to.equal(false);
    expect(await rpc('miner_start')).to.equal(true);
    expect(await rpc('eth_mining')).to.equal(true);
    expect(await submit(rpc, solution)).to.equal(true);
    expect(await rpc('eth_blockNumber')).to.equal('0x1');
  });

  it('filters see pooled transactions at once and blocks when they are sealed', async () => {
    const { rpc } = await newPowNode();
    const blocks = await rpc<string>('eth_newBlockFilter');
    const pending = await rpc<string>('eth_newPendingTransactionFilter');
    const hash = await rpc<string>('eth_sendRawTransaction', [await signed(0, { to: TO, value: 1n, nonce: 0, gasLimit: 21_000 })]);
    expect(await rpc('eth_getFilterChanges', [pending])).to.deep.equal([hash]);
    expect(await rpc('eth_getFilterChanges', [blocks])).to.deep.equal([]);
    await mineOne(rpc);
    expect(await rpc('eth_getFilterChanges', [blocks])).to.deep.equal([(await block(rpc, 1)).hash]);
  });

  it('canonical difficulty follows the hardfork formula (minimum 131072 after a genesis of difficulty 1)', async () => {
    const { rpc } = await newPowNode({ difficulty: 'canonical' });
    const [, , boundary] = await rpc<string[]>('chain_getWork');
    expect(boundary).to.equal(toHex(boundaryOf(131_072n)));
  });

  it('defaults to Gray Glacier and refuses a post-merge hardfork', async () => {
    const { rpc } = await newPowNode();
    const genesis = await block(rpc, 0);
    expect(genesis.baseFeePerGas).to.equal('0x3b9aca00'); // London rules
    expect(genesis.difficulty).to.equal('0x1');
    for (const hardfork of ['paris', 'cancun']) {
      // Refused when the provider is created, not on its first request.
      expect(() => newNode({ mining: 'pow', hardfork })).to.throw(
        new RegExp(`invalid value for mining: pow needs a pre-merge hardfork .*${hardfork} is after the merge`),
      );
    }
  });

  it('the built-in CPU miner (minerThreads) seals blocks by itself, reports its hashrate and obeys miner_stop', async () => {
    const { rpc, provider } = await newPowNode({ minerThreads: 1 });
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const hash = await rpc<string>('eth_sendRawTransaction', [await signed(0, { to: TO, value: 1n, nonce: 0, gasLimit: 21_000 })]);
    let receipt: Receipt | null = null;
    for (const deadline = Date.now() + 10_000; !receipt && Date.now() < deadline; ) {
      await sleep(20);
      receipt = await rpc<Receipt | null>('eth_getTransactionReceipt', [hash]);
    }
    expect(receipt?.status).to.equal('0x1');
    await sleep(1_100); // one hashrate report
    expect(Number(await rpc<string>('eth_hashrate'))).to.be.greaterThan(0);
    await rpc('miner_stop');
    const stopped = await rpc<string>('eth_blockNumber');
    await sleep(200);
    expect(await rpc('eth_blockNumber')).to.equal(stopped);
    await provider.disconnect();
  });

  it('without --mining pow, getWork is not supported and submitWork / submitHashrate answer false', async () => {
    const { rpc } = newNode();
    await expectRpcError(rpc('eth_getWork'), -32000, /not supported/);
    const h32 = `0x${'11'.repeat(32)}`;
    expect(await rpc('eth_submitWork', [`0x${'22'.repeat(8)}`, h32, h32])).to.equal(false);
    expect(await rpc('eth_submitHashrate', ['0x10', h32])).to.equal(false);
    expect(await rpc('eth_hashrate')).to.equal('0x0');
    expect(await rpc('eth_mining')).to.equal(true); // automine
  });
});
