/**
 * The two listings the explorer page reads (docs/methods.md): chain_impersonatedAccounts, the
 * addresses impersonated one by one, and chain_snapshots, the live snapshots with the block and
 * clock each was taken at. Driven through the provider with the tools' own method names.
 */
import { expect } from 'chai';
import { expectRpcError, newNode, send } from '../helpers/chain.js';

const TO = '0x000000000000000000000000000000000000beef';
const WHALE = '0x00000000000000000000000000000000000000aa';
const MULTISIG = '0x00000000000000000000000000000000000000bb';
const START_MS = 1_800_000_000_000;

interface SnapshotEntry {
  id: string;
  blockNumber: string;
  timestamp: string;
}

describe('test controls: the lists of impersonated accounts and snapshots', () => {
  it('chain_impersonatedAccounts lists what Hardhat and Anvil impersonation added, in order, until stopped or reset', async () => {
    const { rpc } = newNode();
    expect(await rpc('chain_impersonatedAccounts')).to.deep.equal([]);
    await rpc('hardhat_impersonateAccount', [WHALE]);
    // Checksummed input: listed lower-case, once.
    await rpc('anvil_impersonateAccount', ['0x00000000000000000000000000000000000000BB']);
    await rpc('hardhat_impersonateAccount', [WHALE]);
    expect(await rpc('chain_impersonatedAccounts')).to.deep.equal([WHALE, MULTISIG]);
    await rpc('anvil_stopImpersonatingAccount', [WHALE]);
    expect(await rpc('chain_impersonatedAccounts')).to.deep.equal([MULTISIG]);
    await rpc('hardhat_stopImpersonatingAccount', [MULTISIG]);
    expect(await rpc('chain_impersonatedAccounts')).to.deep.equal([]);
    await rpc('chain_impersonateAccount', [WHALE]);
    await rpc('hardhat_reset');
    expect(await rpc('chain_impersonatedAccounts')).to.deep.equal([]);
  });

  it('chain_snapshots lists the live snapshots with their block and time; a revert removes the reverted id and every later one', async () => {
    const { rpc } = newNode({ wallClock: () => START_MS });
    const start = BigInt(START_MS / 1000);
    expect(await rpc('chain_snapshots')).to.deep.equal([]);
    const first = await rpc<string>('evm_snapshot');
    await send(rpc, 0, { to: TO, nonce: 0, gasLimit: 21000, value: 1n });
    await rpc('evm_increaseTime', [100]);
    const second = await rpc<string>('anvil_snapshot');
    await send(rpc, 0, { to: TO, nonce: 1, gasLimit: 21000, value: 1n });
    const third = await rpc<string>('chain_snapshot');
    const fourth = await rpc<string>('evm_snapshot');
    expect([first, second, third, fourth]).to.deep.equal(['0x1', '0x2', '0x3', '0x4']);
    const at = (id: string, block: number, seconds: bigint): SnapshotEntry => ({
      id,
      blockNumber: `0x${block.toString(16)}`,
      timestamp: `0x${seconds.toString(16)}`,
    });
    expect(await rpc('chain_snapshots')).to.deep.equal([
      at(first, 0, start),
      at(second, 1, start + 100n),
      at(third, 2, start + 100n),
      at(fourth, 2, start + 100n),
    ]);

    // chain_revert keeps its snapshot and drops the later ones.
    expect(await rpc('chain_revert', [third])).to.equal(true);
    expect(await rpc('chain_snapshots')).to.deep.equal([at(first, 0, start), at(second, 1, start + 100n), at(third, 2, start + 100n)]);
    // evm_revert uses its snapshot up, and drops the later ones.
    expect(await rpc('evm_revert', [second])).to.equal(true);
    expect(await rpc('chain_snapshots')).to.deep.equal([at(first, 0, start)]);
    expect(await rpc('eth_blockNumber')).to.equal('0x1');
    // A failed revert changes nothing.
    expect(await rpc('anvil_revert', [third])).to.equal(false);
    expect(await rpc('chain_snapshots')).to.deep.equal([at(first, 0, start)]);
    expect(await rpc('evm_snapshot')).to.equal('0x5');
    await rpc('hardhat_reset');
    expect(await rpc('chain_snapshots')).to.deep.equal([]);
  });

  it('a rollback drops the snapshots taken on blocks it removed (anvil_rollback)', async () => {
    const { rpc } = newNode();
    const kept = await rpc<string>('evm_snapshot');
    await rpc('evm_mine');
    await rpc('evm_snapshot');
    await rpc('anvil_rollback', [1]);
    expect((await rpc<SnapshotEntry[]>('chain_snapshots')).map((s) => s.id)).to.deep.equal([kept]);
  });

  it('both refuse arguments, naming the rule', async () => {
    const { rpc } = newNode();
    await expectRpcError(rpc('chain_impersonatedAccounts', ['0x00000000000000000000000000000000000000aa']), -32602, /too many arguments, want at most 0/);
    await expectRpcError(rpc('chain_snapshots', [1]), -32602, /too many arguments, want at most 0/);
  });
});
