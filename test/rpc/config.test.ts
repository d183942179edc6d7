/**
 * eth_config (EIP-7910) as go-ethereum answers it: fork ids (EIP-2124/6122) checked against
 * go-ethereum's own mainnet vectors, and the current/next/last rules of a scheduled genesis and
 * of a single-hardfork dev chain, in process and over HTTP.
 */
import { crc32 as zlibCrc32 } from 'node:zlib';
import { expect } from 'chai';
import { hexToBytes } from '@ethereumjs/util';
import { crc32, forkIdHash } from '../../src/engine/rules/forkId.js';
import { type Rpc, newNode } from '../helpers/chain.js';
import { postJson, rpcError, httpServerPerSuite } from '../helpers/rpc.js';
import { fileURLToPath } from 'node:url';

interface Rules {
  activationTime: number;
  blobSchedule: { target: number; max: number; baseFeeUpdateFraction: number } | null;
  chainId: string;
  forkId: string;
  precompiles: Record<string, string>;
  systemContracts: Record<string, string>;
}
interface Config {
  current: Rules | null;
  next: Rules | null;
  last: Rules | null;
}

const SCHEDULE_GENESIS = fileURLToPath(new URL('../../../test/fixtures/genesis/schedule.json', import.meta.url));
const hex4 = (n: number) => `0x${n.toString(16).padStart(8, '0')}`;
const u64 = (n: bigint) => {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(n);
  return out;
};

describe('eth_config (EIP-7910)', function () {
  this.timeout(30_000);

  describe('fork id', () => {
    // go-ethereum core/forkid/forkid_test.go, mainnet: head past every block fork, then each timestamp fork.
    const MAINNET = {
      genesisHash: hexToBytes('0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3'),
      genesisTimestamp: 0n,
      // homestead, dao, eip150, eip155 = eip158, byzantium, constantinople = petersburg, istanbul, muirGlacier, berlin, london, arrowGlacier, grayGlacier
      blocks: [1150000n, 1920000n, 2463000n, 2675000n, 2675000n, 4370000n, 7280000n, 7280000n, 9069000n, 9200000n, 12244000n, 12965000n, 13773000n, 15050000n],
      timestamps: [1681338455n, 1710338135n, 1746612311n, 1764798551n, 1765290071n, 1767747671n],
    };

    it('matches go-ethereum mainnet vectors from Gray Glacier to BPO2', () => {
      const at = (time: bigint) => hex4(new DataView(forkIdHash(MAINNET, time).buffer).getUint32(0));
      expect(at(1681338454n)).to.equal('0xf0afd0e3');
      expect(at(1681338455n)).to.equal('0xdce96c2d');
      expect(at(1710338135n)).to.equal('0x9f3d2254');
      expect(at(1746612311n)).to.equal('0xc376cf8b');
      expect(at(1764798551n)).to.equal('0x5167e2a6');
      expect(at(1765290071n)).to.equal('0xcba2a1c0');
      expect(at(2000000000n)).to.equal('0x07c9462e');
    });

    it('the genesis hash alone gives the unsynced id; crc32 continues as zlib does', () => {
      expect(hex4(crc32(MAINNET.genesisHash))).to.equal('0xfc64ec04');
      const bytes = Buffer.from('chain-sim fork id');
      expect(crc32(bytes.subarray(5), crc32(bytes.subarray(0, 5)))).to.equal(zlibCrc32(bytes));
    });
  });

  describe('a genesis file with forks by block and by time', () => {
    const GENESIS_TIME = 1_700_000_000;
    let rpc: Rpc;
    beforeEach(() => {
      ({ rpc } = newNode({ genesis: SCHEDULE_GENESIS, hardfork: undefined, wallClock: () => GENESIS_TIME * 1000 }));
    });

    /** The expected id, folded with zlib's crc32 over the block forks 1, 2, 3, 5 and the timestamps passed. */
    async function expectedForkId(times: bigint[]): Promise<string> {
      const genesis = await rpc<{ hash: string }>('eth_getBlockByNumber', ['0x0', false]);
      let hash = zlibCrc32(Buffer.from(genesis.hash.slice(2), 'hex'));
      for (const n of [1n, 2n, 3n, 5n, ...times]) hash = zlibCrc32(u64(n), hash);
      return hex4(hash);
    }

    it('before Shanghai: no current rules, Shanghai next, bpo1 last', async () => {
      const config = await rpc<Config>('eth_config');
      expect(config.current).to.equal(null);
      expect(config.next!.activationTime).to.equal(1_700_001_000);
      expect(config.next!.blobSchedule).to.equal(null);
      expect(config.next!.chainId).to.equal('0x1092');
      expect(config.next!.forkId).to.equal(await expectedForkId([1_700_001_000n]));
      expect(Object.keys(config.next!.precompiles)).to.have.length(9);
      expect(config.next!.systemContracts).to.deep.equal({});
      expect(config.last!.activationTime).to.equal(1_700_005_000);
      expect(config.last!.blobSchedule).to.deep.equal({ target: 2, max: 4, baseFeeUpdateFraction: 1000000 });
      expect(config.last!.forkId).to.equal(await expectedForkId([1_700_001_000n, 1_700_002_000n, 1_700_003_000n, 1_700_004_000n, 1_700_005_000n]));
      expect(config.last!.precompiles.P256VERIFY).to.equal('0x0000000000000000000000000000000000000100');
    });

    it('past Prague: Prague is current (its system contracts, its blobs), Osaka next', async () => {
      await rpc('evm_setNextBlockTimestamp', [1_700_003_500]);
      await rpc('evm_mine');
      const config = await rpc<Config>('eth_config');
      expect(config.current!.activationTime).to.equal(1_700_003_000);
      expect(config.current!.blobSchedule).to.deep.equal({ target: 6, max: 9, baseFeeUpdateFraction: 5007716 });
      expect(config.current!.forkId).to.equal(await expectedForkId([1_700_001_000n, 1_700_002_000n, 1_700_003_000n]));
      expect(Object.keys(config.current!.precompiles)).to.have.length(17);
      expect(config.current!.precompiles.P256VERIFY).to.equal(undefined);
      expect(config.current!.systemContracts).to.deep.equal({
        BEACON_ROOTS_ADDRESS: '0x000f3df6d732807ef1319fb7b8bb8522d0beac02',
        CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS: '0x0000bbddc7ce488642fb579f8b00f3a590007251',
        DEPOSIT_CONTRACT_ADDRESS: '0x0000000000000000000000000000000000000000',
        HISTORY_STORAGE_ADDRESS: '0x0000f90827f1c53a10cb7a02335b175320002935',
        WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS: '0x00000961ef480eb55e80d19ad83579a64c007002',
      });
      expect(config.next!.activationTime).to.equal(1_700_004_000);
      expect(config.next!.blobSchedule).to.deep.equal({ target: 6, max: 9, baseFeeUpdateFraction: 5007716 });
      expect(config.last!.activationTime).to.equal(1_700_005_000);
    });

    it('at the last fork: next and last are null', async () => {
      await rpc('evm_setNextBlockTimestamp', [1_700_005_000]);
      await rpc('evm_mine');
      const config = await rpc<Config>('eth_config');
      expect(config.current!.activationTime).to.equal(1_700_005_000);
      expect(config.next).to.equal(null);
      expect(config.last).to.equal(null);
    });
  });

  describe('a dev chain on one hardfork', () => {
    const url = httpServerPerSuite({ hardfork: 'prague' });

    it('over HTTP: Prague from genesis (activation 0), the genesis hash alone as fork id, no next fork', async () => {
      const answer = await postJson(url(), { jsonrpc: '2.0', id: 1, method: 'eth_config', params: [] });
      const config = (JSON.parse(answer.body) as { result: Config }).result;
      const genesis = JSON.parse((await postJson(url(), { jsonrpc: '2.0', id: 2, method: 'eth_getBlockByNumber', params: ['0x0', false] })).body) as {
        result: { hash: string };
      };
      expect(config.current!.activationTime).to.equal(0);
      expect(config.current!.chainId).to.equal('0x539');
      expect(config.current!.forkId).to.equal(hex4(zlibCrc32(Buffer.from(genesis.result.hash.slice(2), 'hex'))));
      expect(config.current!.blobSchedule).to.deep.equal({ target: 6, max: 9, baseFeeUpdateFraction: 5007716 });
      expect(Object.keys(config.current!.systemContracts)).to.have.length(5);
      expect(config.next).to.equal(null);
      expect(config.last).to.equal(null);
    });

    it('bpo2 from genesis: the blob counts ethereumjs runs bpo2 with', async () => {
      const { rpc } = newNode({ hardfork: 'bpo2' });
      const config = await rpc<Config>('eth_config');
      expect(config.current!.blobSchedule).to.deep.equal({ target: 14, max: 21, baseFeeUpdateFraction: 11684671 });
      expect(config.current!.precompiles.P256VERIFY).to.equal('0x0000000000000000000000000000000000000100');
    });

    it('a London chain has no timestamp fork: current, next and last are null', async () => {
      const { rpc } = newNode({ hardfork: 'london' });
      expect(await rpc('eth_config')).to.deep.equal({ current: null, next: null, last: null });
    });

    it('refuses Amsterdam, whose rules chain-sim does not describe', async () => {
      const { rpc } = newNode({ hardfork: 'amsterdam' });
      const error = await rpcError(() => rpc('eth_config'));
      expect(error.message).to.match(/amsterdam/);
    });

    it('refuses parameters', async () => {
      const { rpc } = newNode();
      const error = await rpcError(() => rpc('eth_config', [1]));
      expect(error.code).to.equal(-32602);
    });
  });
});
