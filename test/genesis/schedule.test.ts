/**
 * A hand-written genesis whose forks come by block (Byzantium at 1 … London at 3, the merge
 * at 5) and by time (Shanghai, Cancun, Prague, Osaka, bpo1): blocks mined across every
 * boundary get that fork's header fields, and transactions and calls follow its rules.
 */
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { Wallet } from 'ethers';
import { KEYS, type Rpc, newNode } from '../helpers/chain.js';
import { rpcError } from '../helpers/rpc.js';

export const SCHEDULE_GENESIS = fileURLToPath(new URL('../../../test/fixtures/genesis/schedule.json', import.meta.url));
const GENESIS_TIME = 1_700_000_000;
const SHANGHAI = 1_700_001_000;
const CANCUN = 1_700_002_000;
const PRAGUE = 1_700_003_000;
const OSAKA = 1_700_004_000;
const FUNDED = new Wallet(KEYS[0]);
/** PUSH0 PUSH0 RETURN: deploys empty code from Shanghai on; an invalid opcode before. */
const PUSH0_INIT = '0x5f5ff3';

interface Block {
  number: string;
  hash: string;
  parentHash: string;
  timestamp: string;
  difficulty: string;
  gasLimit: string;
  nonce: string;
  extraData: string;
  baseFeePerGas?: string;
  withdrawalsRoot?: string;
  blobGasUsed?: string;
  excessBlobGas?: string;
  parentBeaconBlockRoot?: string;
  requestsHash?: string;
  transactions: string[];
}

function scheduleNode(): { rpc: Rpc } {
  // A wall clock stopped at the genesis time: each block is one second after its parent unless told otherwise.
  return newNode({ genesis: SCHEDULE_GENESIS, hardfork: undefined, wallClock: () => GENESIS_TIME * 1000 });
}

const block = (rpc: Rpc, n: number) => rpc<Block>('eth_getBlockByNumber', [`0x${n.toString(16)}`, false]);
const mineAt = async (rpc: Rpc, timestamp: number) => {
  await rpc('evm_setNextBlockTimestamp', [timestamp]);
  await rpc('evm_mine');
};

describe('--genesis with a fork schedule by block and by time', function () {
  this.timeout(60_000);

  it('follows each fork from its block or timestamp on', async () => {
    const { rpc } = scheduleNode();
    expect(await rpc('eth_chainId')).to.equal('0x1092');

    // Block 0: Homestead…Spurious Dragon, proof of work; the file's header fields.
    const genesis = await block(rpc, 0);
    expect(genesis.difficulty).to.equal('0x1');
    expect(genesis.nonce).to.equal('0x0000000000000042');
    expect(genesis.extraData).to.equal('0x636861696e2d73696d');
    expect(genesis.baseFeePerGas).to.equal(undefined);
    // The alloc, code and storage included.
    expect(await rpc('eth_call', [{ to: '0x00000000000000000000000000000000000000aa' }, 'latest'])).to.equal(`0x${'2a'.padStart(64, '0')}`);

    // Before London a type-2 transaction is refused, in go-ethereum's words.
    const dynamicFee = await FUNDED.signTransaction({
      chainId: 4242,
      type: 2,
      nonce: 0,
      gasLimit: 21_000,
      to: FUNDED.address,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 1n,
    });
    expect((await rpcError(() => rpc('eth_sendRawTransaction', [dynamicFee]))).message).to.equal('transaction type not supported');

    // Block 1 (Byzantium): a legacy transfer; its receipt has a status (no state root).
    const legacy = await FUNDED.signTransaction({ chainId: 4242, type: 0, nonce: 0, gasLimit: 21_000, to: FUNDED.address, gasPrice: 10n ** 9n });
    const legacyHash = await rpc<string>('eth_sendRawTransaction', [legacy]);
    const receipt = await rpc<{ blockNumber: string; status?: string; root?: string }>('eth_getTransactionReceipt', [legacyHash]);
    expect(receipt.blockNumber).to.equal('0x1');
    expect(receipt.status).to.equal('0x1');
    expect((await block(rpc, 1)).difficulty).to.equal('0x1');

    await rpc('evm_mine'); // block 2: Istanbul, Berlin; still no base fee
    const two = await block(rpc, 2);
    expect(two.baseFeePerGas).to.equal(undefined);

    // Block 3 (London): the initial base fee, a doubled gas limit, and type-2 transactions.
    const dynamicHash = await rpc<string>('eth_sendRawTransaction', [
      await FUNDED.signTransaction({
        chainId: 4242,
        type: 2,
        nonce: 1,
        gasLimit: 21_000,
        to: FUNDED.address,
        maxFeePerGas: 10n ** 10n,
        maxPriorityFeePerGas: 1n,
      }),
    ]);
    const three = await block(rpc, 3);
    expect(three.transactions).to.deep.equal([dynamicHash]);
    expect(three.baseFeePerGas).to.equal('0x3b9aca00');
    expect(BigInt(three.gasLimit)).to.equal(2n * BigInt(two.gasLimit));

    // The merge at block 5: proof of work up to block 4, difficulty 0 from block 5.
    await rpc('hardhat_mine', ['0x2']);
    expect((await block(rpc, 4)).difficulty).to.equal('0x1');
    expect((await block(rpc, 5)).difficulty).to.equal('0x0');

    // PUSH0 fails before Shanghai, in calls against the head and against pending.
    expect((await rpcError(() => rpc('eth_call', [{ data: PUSH0_INIT }, 'latest']))).message).to.match(/invalid opcode/);
    expect((await block(rpc, 5)).withdrawalsRoot).to.equal(undefined);

    // Shanghai: withdrawals from the first block at or after shanghaiTime; PUSH0 works there.
    await rpc('evm_setNextBlockTimestamp', [SHANGHAI]);
    expect(await rpc('eth_call', [{ data: PUSH0_INIT }, 'pending'])).to.equal('0x');
    await rpc('evm_mine');
    const shanghai = await block(rpc, 6);
    expect(shanghai.timestamp).to.equal(`0x${SHANGHAI.toString(16)}`);
    expect(shanghai.withdrawalsRoot).to.equal('0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421');
    expect(await rpc('eth_call', [{ data: PUSH0_INIT }, 'latest'])).to.equal('0x');
    // Calls at an older block keep that block's rules.
    expect((await rpcError(() => rpc('eth_call', [{ data: PUSH0_INIT }, '0x5']))).message).to.match(/invalid opcode/);
    expect(shanghai.blobGasUsed).to.equal(undefined);

    // Cancun: blob gas fields and the beacon root; the blob base fee appears.
    expect(await rpc('eth_blobBaseFee')).to.equal('0x0');
    await mineAt(rpc, CANCUN);
    const cancun = await block(rpc, 7);
    expect(cancun.blobGasUsed).to.equal('0x0');
    expect(cancun.excessBlobGas).to.equal('0x0');
    expect(cancun.parentBeaconBlockRoot).to.equal(`0x${'00'.repeat(32)}`);
    expect(cancun.requestsHash).to.equal(undefined);
    expect(await rpc('eth_blobBaseFee')).to.equal('0x1');

    // Prague: the requests hash (of no requests).
    await mineAt(rpc, PRAGUE);
    expect((await block(rpc, 8)).requestsHash).to.equal('0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');

    // Osaka: EIP-7825 caps a transaction's gas at 2^24; before it only the block limit applies.
    const bigGas = { from: FUNDED.address, to: FUNDED.address, gas: '0x1312d00' }; // 20,000,000
    expect(await rpc('eth_estimateGas', [bigGas, 'latest'])).to.equal('0x5208');
    const beforeOsaka = await rpc<string>('eth_sendTransaction', [{ ...bigGas, gasPrice: '0x3b9aca00' }]);
    expect(beforeOsaka).to.match(/^0x[0-9a-f]{64}$/);
    await rpc('evm_setNextBlockTimestamp', [OSAKA]);
    const capped = await rpcError(() => rpc('eth_sendTransaction', [{ ...bigGas, gasPrice: '0x3b9aca00' }]));
    expect(capped.message).to.equal('transaction gas limit too high (cap: 16777216, tx: 20000000)');

    // Every block links to its parent.
    for (let n = 1; n <= 9; n++) {
      const [parent, child] = [await block(rpc, n - 1), await block(rpc, n)];
      if (!child) break;
      expect(child.parentHash).to.equal(parent.hash);
    }
  });

  it("carries the file's blob schedule into the fork rules (bpo1: target 2, max 4)", async () => {
    const { rpc } = scheduleNode();
    const exported = await rpc<{ config: { blobSchedule: Record<string, unknown> } }>('chain_exportGenesis');
    expect(exported.config.blobSchedule.bpo1).to.deep.equal({ target: 2, max: 4, baseFeeUpdateFraction: 1000000 });
    expect(exported.config.blobSchedule.cancun).to.deep.equal({ target: 3, max: 6, baseFeeUpdateFraction: 3338477 });
  });

  it("mines many empty blocks across a time fork with the new fork's header fields", async () => {
    const { rpc } = scheduleNode();
    await rpc('hardhat_mine', ['0x5']); // to the merge
    // 100 blocks 20 s apart from ~GENESIS_TIME+5: Shanghai (GENESIS_TIME+1000) starts half-way.
    await rpc('hardhat_mine', ['0x64', '0x14']);
    let crossed = 0;
    for (let n = 6; n <= 105; n++) {
      const [parent, child] = [await block(rpc, n - 1), await block(rpc, n)];
      expect(child.parentHash).to.equal(parent.hash);
      const shanghai = Number(BigInt(child.timestamp)) >= SHANGHAI;
      expect(child.withdrawalsRoot !== undefined, `block ${n}`).to.equal(shanghai);
      if (shanghai && parent.withdrawalsRoot === undefined) crossed = n;
    }
    expect(crossed).to.be.greaterThan(6);
  });
});
