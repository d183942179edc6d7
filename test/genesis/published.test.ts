/**
 * Published testnet genesis files (eth-clients/hoodi, sepolia, holesky: metadata/genesis.json)
 * give block 0 with the hash and state root their READMEs publish for the execution layer.
 */
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { newNode } from '../helpers/chain.js';

const file = (name: string) => fileURLToPath(new URL(`../../../test/fixtures/genesis/${name}.json`, import.meta.url));

const NETWORKS = [
  // Post-merge at genesis (TTD 0), Shanghai and Cancun at genesis, Prague by time, blob schedule.
  {
    name: 'hoodi',
    chainId: '0x88bb0',
    hash: '0xbbe312868b376a3001692a646dd2d7d1e4406380dfd86b98aa8a34d1557c971b',
    stateRoot: '0xda87d7f5f91c51508791bbcbd4aa5baf04917830b86985eeb9ad3d5bfb657576',
  },
  // Pre-merge at genesis (difficulty 0x20000, London at 0, the merge at block 1735371), no blob schedule.
  { name: 'sepolia', chainId: '0xaa36a7', hash: '0x25a5cc106eea7138acab33231d7160d69cb777ee0c2c553fcddf5138993e6dd9', stateRoot: undefined },
  // Post-merge at genesis; Shanghai … Osaka, bpo1 and bpo2 by time.
  {
    name: 'holesky',
    chainId: '0x4268',
    hash: '0xb5f7f912443c940f21fd611f12828d75b534364ed9e95ca4e307729a4661bde4',
    stateRoot: '0x69d8c9d72f6fa4ad42d4702b433707212f90db395eb54dc20bc85de253788783',
  },
];

describe('--genesis with published testnet genesis files', function () {
  this.timeout(60_000);
  for (const network of NETWORKS) {
    it(`${network.name}: block 0 has the published hash`, async () => {
      const { rpc } = newNode({ genesis: file(network.name), hardfork: undefined });
      const genesis = await rpc<{ hash: string; stateRoot: string; number: string }>('eth_getBlockByNumber', ['0x0', false]);
      expect(genesis.hash).to.equal(network.hash);
      if (network.stateRoot) expect(genesis.stateRoot).to.equal(network.stateRoot);
      expect(await rpc('eth_chainId')).to.equal(network.chainId);
    });
  }

  it('sepolia: the genesis difficulty counts into the total, later blocks follow pre-merge rules', async () => {
    const { rpc } = newNode({ genesis: file('sepolia'), hardfork: undefined });
    await rpc('evm_mine');
    const one = await rpc<{ difficulty: string; totalDifficulty: string; baseFeePerGas: string; withdrawalsRoot?: string }>('eth_getBlockByNumber', [
      '0x1',
      false,
    ]);
    expect(one.difficulty).to.equal('0x1');
    expect(one.totalDifficulty).to.equal('0x20001');
    expect(one.withdrawalsRoot).to.equal(undefined);
    expect(BigInt(one.baseFeePerGas) < 1_000_000_000n, 'base fee falls after an empty block').to.equal(true);
  });
});
