/**
 * Anvil's pieces on a forked chain: no CREATE2 deployer is written into a fork (the upstream's
 * account is what a fork sees, as in Anvil), eth_getAccountInfo before the pinned block comes
 * from the upstream's balance, nonce and code, and a rollback cannot go below the pinned block.
 */
import { expect } from 'chai';
import { type ChainSimOptions, type ChainSimServer, createProvider, createServer } from '../../src/index.js';
import { ADDRESSES, expectRpcError } from '../helpers/chain.js';
import { fetchRpc } from '../helpers/rpc.js';

const DEPLOYER = '0x4e59b44847b379578588920ca78fbf26c0b4956c';
const TO = '0x000000000000000000000000000000000000beef';
type Rpc = <T = unknown>(method: string, params?: unknown[]) => Promise<T>;

function node(options: ChainSimOptions): { rpc: Rpc; close: () => Promise<void> } {
  const provider = createProvider({ quiet: true, forkCache: false, ...options });
  return {
    rpc: async <T>(method: string, params: unknown[] = []) => (await provider.request({ method, params })) as T,
    close: () => provider.disconnect(),
  };
}

describe('Anvil controls on a fork', function () {
  this.timeout(60_000);
  let upstream: ChainSimServer;
  let url = '';
  let up: Rpc;

  before(async () => {
    // An upstream without the deployer, with a few blocks: block 1 pays TO 5 wei, blocks 2 and 3 are empty.
    upstream = await createServer({ quiet: true, noCreate2Deployer: true, hardfork: 'prague' });
    url = (await upstream.listen(0, '127.0.0.1')).url;
    up = fetchRpc(() => url);
    await up('eth_sendTransaction', [{ from: ADDRESSES[0], to: TO, value: '0x5' }]);
    await up('evm_mine');
    await up('evm_mine');
  });
  after(() => upstream.close());

  it("writes no deployer into a fork: the upstream's account is seen (none here; a local chain has it)", async () => {
    const fork = node({ fork: url });
    try {
      expect(await fork.rpc('eth_getCode', [DEPLOYER, 'latest'])).to.equal('0x');
      await fork.rpc('evm_mine');
      expect(await fork.rpc('eth_getCode', [DEPLOYER, 'latest'])).to.equal('0x');
    } finally {
      await fork.close();
    }
    // A local node reset onto the fork loses it; reset back to local, it is written again (as Anvil's reset does).
    const local = node({});
    try {
      expect(await local.rpc('eth_getCode', [DEPLOYER, 'latest'])).to.match(/^0x7fff/);
      await local.rpc('anvil_reset', [{ forking: { jsonRpcUrl: url } }]);
      expect(await local.rpc('eth_getCode', [DEPLOYER, 'latest'])).to.equal('0x');
      await local.rpc('anvil_reset', []);
      expect(await local.rpc('eth_getCode', [DEPLOYER, 'latest'])).to.match(/^0x7fff/);
    } finally {
      await local.close();
    }
  });

  it("eth_getAccountInfo before the pinned block is the upstream's balance, nonce and code; after, the local state", async () => {
    const fork = node({ fork: url });
    try {
      expect(await fork.rpc('eth_getAccountInfo', [TO, '0x0'])).to.deep.equal({ balance: '0x0', nonce: '0x0', code: '0x' });
      expect(await fork.rpc('eth_getAccountInfo', [ADDRESSES[0], '0x1'])).to.deep.include({ nonce: '0x1', code: '0x' });
      expect(await fork.rpc('eth_getAccountInfo', [TO, '0x2'])).to.deep.equal({ balance: '0x5', nonce: '0x0', code: '0x' });
      await fork.rpc('tenderly_addBalance', [TO, '0x1']);
      expect(await fork.rpc('eth_getAccountInfo', [TO, 'latest'])).to.deep.equal({ balance: '0x6', nonce: '0x0', code: '0x' });
    } finally {
      await fork.close();
    }
  });

  it('anvil_rollback and anvil_reorg stop at the pinned block', async () => {
    const fork = node({ fork: url });
    try {
      await fork.rpc('evm_mine');
      await fork.rpc('evm_mine');
      expect(await fork.rpc('eth_blockNumber')).to.equal('0x5');
      await expectRpcError(fork.rpc('anvil_rollback', [3]), -32602, /^Rollback depth 3 goes below block 3, the first block this chain holds$/);
      expect(await fork.rpc('anvil_rollback', [2])).to.equal(null);
      expect(await fork.rpc('eth_blockNumber')).to.equal('0x3');
      expect(await fork.rpc('eth_getBalance', [TO, 'latest'])).to.equal('0x5');
      await fork.rpc('evm_mine');
      expect(await fork.rpc('anvil_reorg', [1, [[{ from: ADDRESSES[1], to: TO, value: '0x2' }, 0]]])).to.equal(null);
      expect(await fork.rpc('eth_getBalance', [TO, 'latest'])).to.equal('0x7');
    } finally {
      await fork.close();
    }
  });
});
