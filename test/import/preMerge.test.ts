import { expect } from 'chai';
import { ADDRESSES, WALLETS, newNode, send } from '../helpers/chain.js';
import { mineOne, newPowNode, solveWork, submit } from '../helpers/powMiner.js';
import { type Block, TO, answers, exportToFile, hexNumber, importedNode, tempDir } from './chain.js';

const CLOCK = { wallClock: () => 1_800_000_000_000 };
const MINER_A = '0x00000000000000000000000000000000000000a1';
const MINER_B = '0x00000000000000000000000000000000000000b2';
const MINER_C = '0x00000000000000000000000000000000000000c3';

describe('--import of proof-of-work chains', function () {
  this.timeout(120_000);

  for (const hardfork of ['spuriousDragon', 'london']) {
    it(`${hardfork}: block rewards, ${hardfork === 'london' ? 'base fees' : 'receipts with a state root instead of a status'}`, async () => {
      const options = { quiet: true, hardfork, coinbase: MINER_A, ...CLOCK };
      const source = newNode(options);
      const fees = hardfork === 'london' ? { type: 2 } : { type: 0, gasPrice: 10n ** 10n, maxFeePerGas: undefined, maxPriorityFeePerGas: undefined };
      for (let nonce = 0; nonce < 3; nonce++) await send(source.rpc, 0, { to: TO, value: 1n, nonce, gasLimit: 21000, ...fees });
      await source.rpc('chain_mine', [2]);
      const file = await exportToFile(source.rpc, tempDir());
      const target = importedNode(file, options);
      expect(await answers(target.rpc, 5)).to.deep.equal(await answers(source.rpc, 5));
      expect(await target.rpc('eth_getBalance', [MINER_A, 'latest'])).to.equal(await source.rpc('eth_getBalance', [MINER_A, 'latest']));
      const receipt = await target.rpc<Record<string, unknown>>('eth_getTransactionReceipt', [
        (await target.rpc<Block>('eth_getBlockByNumber', ['0x1', false])).transactions[0],
      ]);
      if (hardfork === 'spuriousDragon') {
        expect(receipt)
          .to.have.property('root')
          .that.matches(/^0x[0-9a-f]{64}$/);
        expect(receipt).to.not.have.property('status');
      } else {
        expect(receipt.status).to.equal('0x1');
      }
    });
  }

  it('sealed blocks with an uncle: seals trusted, the uncle kept and both miners rewarded', async () => {
    const { rpc } = await newPowNode({ coinbase: MINER_A, ...CLOCK });
    const forA = await solveWork(rpc);
    await rpc('chain_setCoinbase', [MINER_B]);
    const forB = await solveWork(rpc);
    expect(await submit(rpc, forA)).to.equal(true);
    expect(await submit(rpc, forB)).to.equal(true); // becomes an uncle
    await rpc('chain_setCoinbase', [MINER_C]);
    await mineOne(rpc);
    // Pow mode does not automine: the transaction waits for the next sealed block.
    await rpc('eth_sendRawTransaction', [
      await WALLETS[0]!.signTransaction({ type: 0, chainId: 1337, to: TO, value: 1n, nonce: 0, gasLimit: 21000, gasPrice: 10n ** 10n }),
    ]);
    await mineOne(rpc);
    expect((await rpc<Block>('eth_getBlockByNumber', ['0x3', false])).transactions).to.have.length(1);
    const head = Number(await rpc<string>('eth_blockNumber'));
    expect((await rpc<{ uncles: string[] }>('eth_getBlockByNumber', ['0x2', false])).uncles).to.have.length(1);

    const file = await exportToFile(rpc, tempDir());
    // Imported into an instant-mode node with the same genesis (same hardfork, coinbase and clock).
    const target = importedNode(file, { hardfork: 'grayGlacier', coinbase: MINER_A, ...CLOCK });
    expect(await answers(target.rpc, head)).to.deep.equal(await answers(rpc, head));
    for (const n of [0, 1]) {
      expect(await target.rpc('eth_getUncleByBlockNumberAndIndex', ['0x2', hexNumber(n)])).to.deep.equal(
        await rpc('eth_getUncleByBlockNumberAndIndex', ['0x2', hexNumber(n)]),
      );
    }
    for (const miner of [MINER_A, MINER_B, MINER_C, ADDRESSES[0]!]) {
      expect(await target.rpc('eth_getBalance', [miner, 'latest']), miner).to.equal(await rpc('eth_getBalance', [miner, 'latest']));
    }
    expect(BigInt(await target.rpc<string>('eth_getBalance', [MINER_B, 'latest']))).to.equal((7n * 2n * 10n ** 18n) / 8n);
  });
});
