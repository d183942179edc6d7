/**
 * No state too big to save (issue 35): a save reads the accounts in short steps while it writes
 * them (the node answers between steps), an account with storage spans lines (format 3), a load
 * applies them in batches and gives the same state root, a revert that takes the state being
 * saved away starts the save again, and a dump too large for one answer is refused by name.
 * The memory bound is measured on the CLI: test/e2e/state-memory.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesToHex } from '@ethereumjs/util';
import { expect } from 'chai';
import type { StatePiece } from '../../src/engine/state/stateReading.js';
import { type SimNode, startNode } from '../../src/startup/node.js';
import { StatePersistenceError, StateSaver } from '../../src/persistence/persistence.js';
import { MAX_DUMP_BYTES } from '../../src/persistence/stateCapture.js';
import { ADDRESSES } from '../helpers/chain.js';

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
const addressOf = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const word = () => hex(randomBytes(32));

/** Slots of random keys and values for one account. */
function storage(count: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < count; i++) out[word()] = word();
  return out;
}

describe('persistence: states of any size', function () {
  this.timeout(180_000);

  let dir: string;
  let file: string;
  const nodes: SimNode[] = [];
  const start = async (stateFile?: string): Promise<SimNode> => {
    const node = await startNode({ quiet: true, hardfork: 'prague', stateFile });
    nodes.push(node);
    return node;
  };
  const rpcOf =
    (node: SimNode) =>
    <T = unknown>(method: string, params: unknown[] = []) =>
      node.dispatcher.call(method, params) as Promise<T>;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chain-sim-big-state-'));
    file = join(dir, 'state.json');
  });
  afterEach(async () => {
    for (const node of nodes.splice(0)) node.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes an account with storage over lines (format 3), one JSON document, and loads back to the same state root', async () => {
    const node = await start(file);
    const rpc = rpcOf(node);
    const big = addressOf(0xb16);
    const slots = storage(3000);
    await rpc('chain_loadState', [{ alloc: { [big]: { balance: '0x5', nonce: '0x7', code: '0x6000', storage: slots } } }]);
    const [zeroed, kept] = Object.keys(slots) as [string, string];
    await rpc('hardhat_setStorageAt', [big, zeroed, `0x${'0'.repeat(64)}`]);
    for (let i = 0; i < 3; i++) await rpc('hardhat_setCode', [addressOf(0xc0de00 + i), hex(randomBytes(300_000))]);
    await rpc('hardhat_setBalance', [addressOf(0xba1), '0x1234']);
    await rpc('evm_mine');
    await rpc('hardhat_setStorageAt', [addressOf(0xc0de00), '0x01', word()]); // after the last block
    const root = await node.chain.stateRoot();
    const report = await node.stateSaver!.save();
    expect(report.attempts).to.equal(1);
    expect(report.bytes).to.equal((await stat(file)).size);

    const text = await readFile(file, 'utf8');
    expect(text.startsWith('{"chainSimState":3,')).to.equal(true);
    const lines = text.split('\n');
    const header = lines.find((line) => line.startsWith(`"${big}":`))!;
    expect(header.endsWith('"storage":{'), header).to.equal(true);
    const first = lines.indexOf(header);
    expect(lines[first + 2999], 'the last of 2,999 slot lines').to.match(/^"0x[0-9a-f]{64}":"0x[0-9a-f]{64}"$/);
    expect(lines[first + 3000]).to.match(/^\}\},?$/);
    // Still one JSON document, holding what the node has.
    const json = JSON.parse(text) as { alloc: Record<string, { storage?: Record<string, string> }> };
    expect(Object.keys(json.alloc[big]!.storage!)).to.have.length(2999);
    expect(json.alloc[big]!.storage![zeroed]).to.equal(undefined);

    const again = await start(file);
    expect(bytesToHex(await again.chain.stateRoot())).to.equal(bytesToHex(root));
    const read = rpcOf(again);
    expect(await read('eth_getStorageAt', [big, kept, 'latest'])).to.equal(slots[kept]);
    expect(await read('eth_getStorageAt', [big, zeroed, 'latest'])).to.equal(`0x${'0'.repeat(64)}`);
    expect(((await read<string>('eth_getCode', [addressOf(0xc0de02), 'latest'])).length - 2) / 2).to.equal(300_000);
  });

  it('loads a version 2 file (each account on one line, storage and all) to the same state root', async () => {
    const node = await start(file);
    const rpc = rpcOf(node);
    const big = addressOf(0xb16);
    await rpc('chain_loadState', [{ alloc: { [big]: { balance: '0x5', code: '0x6000', storage: storage(2500) } } }]);
    await rpc('evm_mine');
    const root = await node.chain.stateRoot();
    await node.stateSaver!.save();
    // The same document as version 2 wrote it: the header line, then one line per account.
    const json = JSON.parse(await readFile(file, 'utf8')) as { alloc: Record<string, unknown>; blocks: unknown[] } & Record<string, unknown>;
    const { alloc, blocks, chainSimState: _, ...header } = json;
    const v2 = [
      `${JSON.stringify({ chainSimState: 2, ...header }).slice(0, -1)},`,
      '"alloc":{',
      Object.entries(alloc)
        .map(([address, account]) => `${JSON.stringify(address)}:${JSON.stringify(account)}`)
        .join(',\n'),
      '},',
      '"blocks":[',
      blocks.map((block) => JSON.stringify(block)).join(',\n'),
      ']}',
      '',
    ].join('\n');
    await writeFile(file, v2);
    const again = await start(file);
    expect(bytesToHex(await again.chain.stateRoot())).to.equal(bytesToHex(root));
    expect((await readFile(file, 'utf8')).startsWith('{"chainSimState":2,'), 'read, not yet rewritten').to.equal(true);
  });

  it('a load in batches leaves none of the intermediate trie nodes behind', async () => {
    const account: StatePiece = { kind: 'account', address: addressOf(0xa11), balance: 1n, nonce: 0n, code: Uint8Array.of(0x60, 0) };
    const batches: StatePiece[][] = [[account]];
    for (let b = 0; b < 40; b++) {
      const slots: [string, Uint8Array][] = [];
      for (let i = 0; i < 100; i++) slots.push([word(), randomBytes(32)]);
      batches.push([{ kind: 'storage', address: account.address, slots }]);
    }
    const inBatches = await start();
    const mark = await inBatches.chain.beginBulkLoad();
    for (const batch of batches) await inBatches.chain.loadPieces(batch);
    const swept = await inBatches.chain.endBulkLoad(mark);
    const atOnce = await start();
    await atOnce.chain.loadPieces(batches.flat());
    expect(swept, 'nodes of intermediate states').to.be.above(1000);
    expect(bytesToHex(await inBatches.chain.stateRoot())).to.equal(bytesToHex(await atOnce.chain.stateRoot()));
    expect(inBatches.chain.storedStateNodes).to.equal(atOnce.chain.storedStateNodes);
    expect(await inBatches.chain.dumpState()).to.deep.equal(await atOnce.chain.dumpState());
  });

  it('answers other requests while it saves: each read step is a short task of its own', async () => {
    const node = await start(file);
    const rpc = rpcOf(node);
    for (let i = 0; i < 2; i++)
      await rpc('chain_loadState', [{ alloc: { [addressOf(0x5107 + i)]: { balance: '0x1', code: '0x6000', storage: storage(10_000) } } }]);
    const saving = node.stateSaver!.save();
    let done = false;
    void saving.then(() => (done = true));
    // The longest wait for an answer, from the save's start: a client sending one request after another.
    const gaps: number[] = [];
    let last = performance.now();
    while (!done) {
      await rpc('eth_getBalance', [ADDRESSES[0], 'latest']);
      const now = performance.now();
      gaps.push(now - last);
      last = now;
      await new Promise((resolve) => setImmediate(resolve)); // the save's writes need the event loop too
    }
    const report = await saving;
    // The reading used to be one task: nothing was answered until it ended (about 1 s for these 20,000 slots on 2 busy cores).
    expect(gaps.length, `requests answered during a ${report.ms.toFixed(0)} ms save`).to.be.at.least(10);
    expect(Math.max(...gaps), `the longest wait for an answer during a ${report.ms.toFixed(0)} ms save`).to.be.below(Math.min(200, report.ms / 5));
  });

  it('starts again when a revert takes the state being saved away, and gives up after three times, the file unchanged', async () => {
    const node = await start(file);
    const rpc = rpcOf(node);
    const contract = addressOf(0xc0de);
    const fail = (error: unknown) => expect.fail(String(error));
    let snapshot = await rpc<string>('evm_snapshot');
    await rpc('hardhat_setCode', [contract, hex(randomBytes(3_000_000))]); // more than one step
    // The first reading is reverted away under the save: the file then holds the state reverted to.
    const once = new StateSaver(node.chain, file, 0, fail, undefined, {
      afterCapture: async (attempt) => {
        if (attempt === 1) expect(await rpc('evm_revert', [snapshot])).to.equal(true);
      },
    });
    const report = await once.save();
    expect(report.attempts).to.equal(2);
    const saved = JSON.parse(await readFile(file, 'utf8')) as { alloc: Record<string, unknown> };
    expect(saved.alloc[contract], 'the code set after the snapshot').to.equal(undefined);
    const before = await readFile(file, 'utf8');

    // Every reading reverted away: the save fails, naming why, and the file keeps its content.
    snapshot = await rpc<string>('evm_snapshot');
    await rpc('hardhat_setCode', [contract, hex(randomBytes(3_000_000))]);
    const always = new StateSaver(node.chain, file, 0, fail, undefined, {
      afterCapture: async () => {
        expect(await rpc('evm_revert', [snapshot])).to.equal(true);
        snapshot = await rpc<string>('evm_snapshot');
        await rpc('hardhat_setCode', [contract, hex(randomBytes(3_000_000))]);
      },
    });
    try {
      await always.save();
      expect.fail('the save must fail');
    } catch (error) {
      expect(error).to.be.instanceOf(StatePersistenceError);
      expect((error as Error).message).to.equal(
        `state file ${file}: cannot write: the state was reverted away while it was being saved, 3 times (evm_revert to a snapshot older than the state); the file keeps its previous content`,
      );
    }
    expect(await readFile(file, 'utf8')).to.equal(before);
  });

  it('counts a state as reverted away while a reader outside the queue keeps its nodes (a lease)', async () => {
    const node = await start(file);
    const rpc = rpcOf(node);
    const contract = addressOf(0xc0de);
    const snapshot = await rpc<string>('evm_snapshot');
    await rpc('hardhat_setCode', [contract, hex(randomBytes(3_000_000))]);
    // As a trace running outside the queue holds one: the revert's nodes wait until it ends.
    const release = await node.chain.inspect((core) => core.trieNodes.lease());
    const saver = new StateSaver(node.chain, file, 0, (error) => expect.fail(String(error)), undefined, {
      afterCapture: async (attempt) => {
        if (attempt === 1) expect(await rpc('evm_revert', [snapshot])).to.equal(true);
      },
    });
    try {
      expect((await saver.save()).attempts).to.equal(2);
    } finally {
      release();
    }
    const saved = JSON.parse(await readFile(file, 'utf8')) as { alloc: Record<string, unknown> };
    expect(saved.alloc[contract], 'the code set after the snapshot').to.equal(undefined);
  });

  it(`refuses a dump past ${MAX_DUMP_BYTES} bytes of JSON with -32000, naming the limit and --state`, async () => {
    const node = await start();
    const rpc = rpcOf(node);
    const code = hex(randomBytes(2_400_000));
    for (let i = 0; i < 15; i++) await rpc('hardhat_setCode', [addressOf(0xc0de00 + i), code]); // 72 MB of hex
    for (const method of ['chain_dumpState', 'anvil_dumpState', 'hardhat_dumpState']) {
      try {
        await rpc(method);
        expect.fail(`${method} must be refused`);
      } catch (error) {
        expect((error as { code?: number }).code, method).to.equal(-32000);
        expect((error as Error).message).to.equal(
          `state too large: the accounts would pass ${MAX_DUMP_BYTES} bytes of JSON, the most one answer holds; save the state with --state FILE (written to disk as a stream, no limit)`,
        );
      }
    }
    // Under the limit it answers, as before.
    await rpc('hardhat_setCode', [addressOf(0xc0de00), '0x']);
    await rpc('hardhat_setCode', [addressOf(0xc0de01), '0x']);
    const dumped = await rpc<{ alloc: Record<string, { code?: string }> }>('chain_dumpState');
    expect(dumped.alloc[addressOf(0xc0de02)]!.code).to.equal(code);
  });
});
