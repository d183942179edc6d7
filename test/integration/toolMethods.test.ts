// Methods that Hardhat's and Anvil's helper libraries call beyond the core test controls:
// automine query, prevRandao, block timestamp interval, txpool_*, unsigned sends,
// auto-impersonation, node metadata, request logging.
import { expect } from 'chai';
import { getAddress, keccak256 } from 'ethers';
import { ADDRESSES, expectRpcError, newNode, nonceOf, signed } from '../helpers/chain.js';

const TO = '0x000000000000000000000000000000000000beef';
const STRANGER = '0x00000000000000000000000000000000000000b0';
/** Runtime code returning PREVRANDAO: PREVRANDAO PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN. */
const RETURNS_PREVRANDAO = '0x4460005260206000f3';
const RANDAO = `0x${'ab'.repeat(32)}`;

interface Block {
  number: string;
  hash: string;
  timestamp: string;
  mixHash: string;
}

describe("methods of the tools' helper libraries", () => {
  it('getAutomine answers the mining mode under the Hardhat and Anvil names', async () => {
    const { rpc } = newNode();
    expect(await rpc('hardhat_getAutomine')).to.equal(true);
    await rpc('evm_setAutomine', [false]);
    expect(await rpc('anvil_getAutomine')).to.equal(false);
    expect(await rpc('chain_getAutomine')).to.equal(false);
  });

  it("setPrevRandao sets the next block's mixHash, seen by calls against pending; later blocks hash on from it", async () => {
    const { rpc } = newNode();
    await rpc('hardhat_setCode', [TO, RETURNS_PREVRANDAO]);
    await rpc('hardhat_setPrevRandao', [RANDAO]);
    expect(await rpc('eth_call', [{ to: TO }, 'pending'])).to.equal(RANDAO);
    const id = await rpc<string>('evm_snapshot');
    // Three blocks in one call: the first takes the value, the rest (reserved empty blocks) follow from it.
    await rpc('hardhat_mine', ['0x3']);
    const blocks = await Promise.all([1, 2, 3].map((n) => rpc<Block>('eth_getBlockByNumber', [`0x${n}`, false])));
    expect(blocks.map((b) => b.mixHash)).to.deep.equal([RANDAO, keccak256(RANDAO), keccak256(keccak256(RANDAO))]);
    expect(await rpc('eth_call', [{ to: TO }, 'latest'])).to.equal(blocks[2]!.mixHash);
    // Used up by the block that took it; a revert to before that block gives it back.
    await rpc('evm_revert', [id]);
    await rpc('evm_mine');
    expect((await rpc<Block>('eth_getBlockByNumber', ['latest', false])).mixHash).to.equal(RANDAO);
    await expectRpcError(rpc('hardhat_setPrevRandao', ['0x1234']), -32602, /argument 0 \(prevRandao\)/);
  });

  it('setPrevRandao is refused before the merge, where the header has no PREVRANDAO', async () => {
    const { rpc } = newNode({ hardfork: 'london' });
    await expectRpcError(rpc('hardhat_setPrevRandao', [RANDAO]), -32000, /only be set after the merge/);
  });

  it('a block timestamp interval spaces blocks by that many seconds until removed, and reverts with snapshots', async () => {
    const { rpc } = newNode({ wallClock: () => 1_800_000_000_000 });
    const id = await rpc<string>('evm_snapshot');
    expect(await rpc('anvil_setBlockTimestampInterval', [7])).to.equal(true);
    await rpc('evm_increaseTime', [1000]); // the interval decides, as in Anvil
    await rpc('anvil_mine', ['0x3']);
    const times = await Promise.all([0, 1, 2, 3].map(async (n) => Number((await rpc<Block>('eth_getBlockByNumber', [`0x${n}`, false])).timestamp)));
    expect(times.slice(1).map((t, i) => t - times[i]!)).to.deep.equal([7, 7, 7]);
    // A timestamp set for the next block still wins.
    await rpc('evm_setNextBlockTimestamp', [times[3]! + 100]);
    await rpc('evm_mine');
    expect(Number((await rpc<Block>('eth_getBlockByNumber', ['latest', false])).timestamp)).to.equal(times[3]! + 100);
    expect(await rpc('anvil_removeBlockTimestampInterval')).to.equal(true);
    expect(await rpc('anvil_removeBlockTimestampInterval')).to.equal(false);
    await rpc('anvil_setBlockTimestampInterval', [7]);
    await rpc('evm_revert', [id]);
    expect(await rpc('anvil_removeBlockTimestampInterval')).to.equal(false);
    await expectRpcError(rpc('anvil_setBlockTimestampInterval', [0]), -32602, /argument 0 \(seconds\): must be at least 1/);
  });

  it('txpool_status, txpool_content and txpool_inspect split the pool into pending and queued as go-ethereum does', async () => {
    const { rpc } = newNode();
    await rpc('evm_setAutomine', [false]);
    const runnable = await rpc<string>('eth_sendRawTransaction', [await signed(0, { to: TO, nonce: 0, gasLimit: 21000, value: 5n })]);
    const creation = await rpc<string>('eth_sendRawTransaction', [await signed(0, { nonce: 1, data: '0x00', maxFeePerGas: 7n * 10n ** 9n })]);
    const gapped = await rpc<string>('eth_sendRawTransaction', [await signed(1, { to: TO, nonce: 3, gasLimit: 21000 })]);
    expect(await rpc('txpool_status')).to.deep.equal({ pending: '0x2', queued: '0x1' });

    const sender0 = getAddress(ADDRESSES[0]!);
    const sender1 = getAddress(ADDRESSES[1]!);
    type Content = Record<'pending' | 'queued', Record<string, Record<string, { hash: string; blockHash: null; nonce: string }>>>;
    const content = await rpc<Content>('txpool_content');
    expect(Object.keys(content.pending)).to.deep.equal([sender0]);
    expect(Object.keys(content.pending[sender0]!)).to.deep.equal(['0', '1']);
    expect(content.pending[sender0]!['0']!.hash).to.equal(runnable);
    expect(content.pending[sender0]!['1']!.hash).to.equal(creation);
    expect(content.pending[sender0]!['0']!.blockHash).to.equal(null);
    expect(content.queued[sender1]!['3']!.hash).to.equal(gapped);

    const inspect = await rpc<Record<'pending' | 'queued', Record<string, Record<string, string>>>>('txpool_inspect');
    expect(inspect.pending[sender0]).to.deep.equal({
      '0': `${getAddress(TO)}: 5 wei + 21000 gas × 100000000000 wei`,
      '1': 'contract creation: 0 wei + 100000 gas × 7000000000 wei',
    });
    expect(inspect.queued[sender1]!['3']).to.match(/^0x[0-9a-fA-F]{40}: 0 wei \+ 21000 gas × \d+ wei$/);

    await rpc('evm_mine');
    expect(await rpc('txpool_status')).to.deep.equal({ pending: '0x0', queued: '0x1' });
  });

  it('eth_sendUnsignedTransaction sends from any funded address without a signature', async () => {
    const { rpc } = newNode();
    await expectRpcError(rpc('eth_sendUnsignedTransaction', [{ from: STRANGER, to: TO, value: '0x1' }]), -32000, /insufficient funds/);
    await rpc('hardhat_setBalance', [STRANGER, '0xde0b6b3a7640000']);
    const hash = await rpc<string>('eth_sendUnsignedTransaction', [{ from: STRANGER, to: TO, value: '0x1' }]);
    const receipt = await rpc<{ status: string; from: string }>('eth_getTransactionReceipt', [hash]);
    expect(receipt).to.include({ status: '0x1', from: STRANGER });
    expect(await rpc('eth_getBalance', [TO, 'latest'])).to.equal('0x1');
    // An owned account is not signed for either: the sender is whoever `from` names.
    expect(await nonceOf(rpc, ADDRESSES[0]!)).to.equal(0);
    await rpc('eth_sendUnsignedTransaction', [{ from: ADDRESSES[0], to: TO, value: '0x1' }]);
    expect(await nonceOf(rpc, ADDRESSES[0]!)).to.equal(1);
    await expectRpcError(rpc('eth_sendUnsignedTransaction', [{ to: TO }]), -32602, /missing "from"/);
  });

  it('anvil_autoImpersonateAccount lets every address send until switched off or reset', async () => {
    const { rpc } = newNode();
    await rpc('hardhat_setBalance', [STRANGER, '0xde0b6b3a7640000']);
    const sendAsStranger = () => rpc<string>('eth_sendTransaction', [{ from: STRANGER, to: TO, value: '0x1' }]);
    await expectRpcError(sendAsStranger(), -32000, /unknown account/);
    expect(await rpc('anvil_autoImpersonateAccount', [true])).to.equal(true);
    await sendAsStranger();
    await rpc('anvil_autoImpersonateAccount', [false]);
    await expectRpcError(sendAsStranger(), -32000, /unknown account/);
    await rpc('anvil_autoImpersonateAccount', [true]);
    await rpc('hardhat_reset');
    await rpc('hardhat_setBalance', [STRANGER, '0xde0b6b3a7640000']);
    await expectRpcError(sendAsStranger(), -32000, /unknown account/);
  });

  it('hardhat_metadata and anvil_metadata describe the node; a reset starts a new instance, a revert does not', async () => {
    const { rpc } = newNode();
    type Metadata = { clientVersion: string; chainId: number; instanceId: string; latestBlockNumber: number; latestBlockHash: string };
    const first = await rpc<Metadata>('hardhat_metadata');
    expect(first.clientVersion).to.equal(await rpc('web3_clientVersion'));
    expect(first.chainId).to.equal(1337);
    expect(first.instanceId).to.match(/^0x[0-9a-f]{64}$/);
    expect(first.latestBlockNumber).to.equal(0);
    const id = await rpc<string>('evm_snapshot');
    await rpc('evm_mine');
    const mined = await rpc<Metadata>('anvil_metadata');
    const head = await rpc<Block>('eth_getBlockByNumber', ['latest', false]);
    expect(mined).to.include({ latestBlockNumber: 1, latestBlockHash: head.hash, instanceId: first.instanceId });
    await rpc('evm_revert', [id]);
    expect((await rpc<Metadata>('hardhat_metadata')).instanceId).to.equal(first.instanceId);
    await rpc('hardhat_reset');
    expect((await rpc<Metadata>('hardhat_metadata')).instanceId).to.not.equal(first.instanceId);
  });

  it('setLoggingEnabled switches the per-request log on and off', async () => {
    const lines: string[] = [];
    const { rpc } = newNode({ quiet: false, logger: (line) => lines.push(line) });
    await rpc('eth_blockNumber');
    expect(lines.filter((line) => line.startsWith('eth_blockNumber'))).to.deep.equal([]);
    expect(await rpc('hardhat_setLoggingEnabled', [true])).to.equal(true);
    await rpc('eth_chainId');
    await rpc('anvil_setLoggingEnabled', [false]);
    await rpc('eth_blockNumber');
    expect(lines.filter((line) => /^eth_(chainId|blockNumber) /.test(line))).to.have.length(1);
    expect(lines.find((line) => line.startsWith('eth_chainId'))).to.match(/^eth_chainId \d+\.\dms$/);
  });

  it('anvil_snapshot and anvil_revert are evm_snapshot and evm_revert', async () => {
    const { rpc } = newNode();
    const id = await rpc<string>('anvil_snapshot');
    await rpc('evm_mine');
    expect(await rpc('anvil_revert', [id])).to.equal(true);
    expect(await rpc('eth_blockNumber')).to.equal('0x0');
    expect(await rpc('anvil_revert', [id])).to.equal(false);
  });

  it("hardhat_reset takes viem's fork-less options object; a bad fork URL is refused by name", async () => {
    const { rpc } = newNode();
    await rpc('evm_mine');
    expect(await rpc('hardhat_reset', [{ forking: { blockNumber: null } }])).to.equal(true);
    expect(await rpc('eth_blockNumber')).to.equal('0x0');
    await expectRpcError(
      rpc('anvil_reset', [{ forking: { jsonRpcUrl: 'ftp://127.0.0.1:1' } }]),
      -32602,
      /argument 0 \(options\)\.forking\.jsonRpcUrl: expected an http\(s\) URL/,
    );
    await expectRpcError(
      rpc('anvil_reset', [{ forking: { jsonRpcUrl: 'http://127.0.0.1:1', blockNumber: 'soon' } }]),
      -32602,
      /forking\.blockNumber: expected a block number/,
    );
    // A reachable-looking URL is tried: nothing listens there, so -32000 naming the upstream.
    await expectRpcError(
      rpc('anvil_reset', [{ forking: { jsonRpcUrl: 'http://127.0.0.1:1' } }]),
      -32000,
      /fork upstream http:\/\/127\.0\.0\.1:1\/.*unreachable/,
    );
  });

  it("eth_sendTransaction's default fee cap covers a next-block base fee set above twice the head's", async () => {
    const { rpc } = newNode();
    await rpc('hardhat_setNextBlockBaseFeePerGas', ['0x174876e800']); // 100 gwei against a 1 gwei head
    const hash = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], to: TO, value: '0x1' }]);
    const block = await rpc<{ baseFeePerGas: string }>('eth_getBlockByNumber', ['latest', false]);
    expect(block.baseFeePerGas).to.equal('0x174876e800');
    expect((await rpc<{ status: string }>('eth_getTransactionReceipt', [hash])).status).to.equal('0x1');
  });
});
