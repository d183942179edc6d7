/** chain_exportGenesis → --genesis: the rebuilt block 0 has the same hash, for every kind of chain. */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChainSimOptions } from '../../src/index.js';
import { ADDRESSES, newNode } from '../helpers/chain.js';

const root = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

describe('chain_exportGenesis', function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => (dir = await mkdtemp(join(tmpdir(), 'chain-sim-genesis-'))));
  after(() => rm(dir, { recursive: true, force: true }));

  const roundTrip = async (name: string, options: ChainSimOptions, afterStart?: (rpc: ReturnType<typeof newNode>['rpc']) => Promise<void>) => {
    const { rpc } = newNode(options);
    const genesis = await rpc<{ hash: string }>('eth_getBlockByNumber', ['0x0', false]);
    if (afterStart) await afterStart(rpc);
    const exported = await rpc<Record<string, unknown>>('chain_exportGenesis');
    const path = join(dir, `${name}.json`);
    await writeFile(path, JSON.stringify(exported, null, 2));
    const rebuilt = newNode({ genesis: path, hardfork: undefined });
    const again = await rebuilt.rpc<{ hash: string }>('eth_getBlockByNumber', ['0x0', false]);
    expect(again.hash, name).to.equal(genesis.hash);
    return { exported, rebuilt };
  };

  it('round-trips the default chain (newest mainnet fork, prefunded accounts)', async () => {
    const { exported, rebuilt } = await roundTrip('default', { hardfork: undefined });
    const alloc = exported.alloc as Record<string, { balance: string }>;
    expect(BigInt(alloc[ADDRESSES[0]!]!.balance)).to.equal(10_000n * 10n ** 18n);
    expect(await rebuilt.rpc('eth_getBalance', [ADDRESSES[0], 'latest'])).to.equal(`0x${(10_000n * 10n ** 18n).toString(16)}`);
  });

  for (const hardfork of ['london', 'byzantium', 'cancun']) {
    it(`round-trips a --hardfork ${hardfork} chain`, () => roundTrip(hardfork, { hardfork }));
  }

  it('round-trips a chain started with --fixture fixtures/erc20.json', async () => {
    const { exported } = await roundTrip('erc20', { fixtures: [root('fixtures/erc20.json')] });
    const token = (exported.alloc as Record<string, { code?: string; storage?: object }>)['0x5fbdb2315678afecb367f032d93f642f64180aa3']!;
    expect(token.code).to.match(/^0x60/);
    expect(Object.keys(token.storage!).length).to.be.greaterThan(0);
  });

  it('describes block 0, not the state after later blocks and setters', async () => {
    await roundTrip('mined', {}, async (rpc) => {
      await rpc('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x1' }]);
      await rpc('hardhat_setBalance', [ADDRESSES[2], '0x1']);
    });
  });

  it('round-trips the published and hand-written genesis files', async () => {
    for (const name of ['hoodi', 'sepolia', 'holesky', 'schedule']) {
      const { exported } = await roundTrip(name, { genesis: root(`test/fixtures/genesis/${name}.json`), hardfork: undefined });
      if (name === 'schedule') {
        const config = exported.config as Record<string, unknown>;
        expect(config).to.include({
          chainId: 4242,
          byzantiumBlock: 1,
          londonBlock: 3,
          mergeNetsplitBlock: 5,
          shanghaiTime: 1_700_001_000,
          bpo1Time: 1_700_005_000,
        });
      }
    }
  });
});
