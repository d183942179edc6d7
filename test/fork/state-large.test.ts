/**
 * A forked node's large --state file loads back to the same state (issue 35): the overlay's
 * accounts are applied in batches of LOAD_BATCH_BYTES, as a plain state's, rather than collected
 * into one map and written in one task. The load's memory is a figure for the bench
 * (bench/bigState.ts), not for this test: a forced collection in the shared Mocha process every
 * half second made it take from 30 s to over 300 s depending on the machine's load.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { type ChainSimServer, createServer } from '../../src/index.js';

const ACCOUNTS = 20;
const SLOTS_PER_ACCOUNT = 1000;

const address = (i: number): string => `0x${(0xf0a0000 + i).toString(16).padStart(40, '0')}`;

describe('--state on a fork: a large overlay loads back', function () {
  this.timeout(120_000);
  let upstream: ChainSimServer;
  let upstreamUrl: string;
  let dir: string;

  before(async () => {
    upstream = await createServer({ quiet: true, port: 0, host: '127.0.0.1' });
    upstreamUrl = (await upstream.listen(0, '127.0.0.1')).url;
    dir = await mkdtemp(join(tmpdir(), 'chain-sim-fork-state-large-'));
  });
  after(async () => {
    await upstream.close();
    await rm(dir, { recursive: true, force: true });
  });

  it(`loads ${ACCOUNTS * SLOTS_PER_ACCOUNT} overlay slots back to the same state root, balances and storage`, async () => {
    const file = join(dir, 'state.json');
    const options = { quiet: true, port: 0, host: '127.0.0.1', fork: upstreamUrl, forkCache: false, stateFile: file };
    let node = await createServer(options);
    let rpc = <T = unknown>(method: string, params: unknown[] = []) => node.node.dispatcher.call(method, params) as Promise<T>;
    const sampled: [string, string, string][] = [];
    for (let first = 0; first < ACCOUNTS; first += 10) {
      const alloc: Record<string, { balance: string; storage: Record<string, string> }> = {};
      for (let i = first; i < first + 10; i++) {
        const storage: Record<string, string> = {};
        for (let s = 0; s < SLOTS_PER_ACCOUNT; s++) storage[`0x${randomBytes(32).toString('hex')}`] = `0x${randomBytes(32).toString('hex')}`;
        alloc[address(i)] = { balance: `0x${(i + 1).toString(16)}`, storage };
        sampled.push([address(i), ...Object.entries(storage)[i % SLOTS_PER_ACCOUNT]!]);
      }
      await rpc('chain_loadState', [{ alloc }]);
    }
    await rpc('evm_mine');
    const head = await rpc<{ number: string; stateRoot: string }>('eth_getBlockByNumber', ['latest', false]);
    await node.close(); // saves
    const size = (await stat(file)).size;
    expect(size, 'the file holds every slot').to.be.above(ACCOUNTS * SLOTS_PER_ACCOUNT * 130);

    node = await createServer(options);
    rpc = <T = unknown>(method: string, params: unknown[] = []) => node.node.dispatcher.call(method, params) as Promise<T>;
    try {
      const restored = await rpc<{ number: string; stateRoot: string }>('eth_getBlockByNumber', ['latest', false]);
      expect({ number: restored.number, stateRoot: restored.stateRoot }).to.deep.equal({ number: head.number, stateRoot: head.stateRoot });
      for (const [who, slot, value] of sampled) expect(await rpc('eth_getStorageAt', [who, slot, 'latest'])).to.equal(value);
      expect(await rpc('eth_getBalance', [address(ACCOUNTS - 1), 'latest'])).to.equal(`0x${ACCOUNTS.toString(16)}`);
    } finally {
      await node.close();
    }
  });
});
