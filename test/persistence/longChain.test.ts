/**
 * A long chain through --state (issue 25, item 5): the file is streamed, a run of empty
 * blocks is one line however long, and a restart restores the same chain (same hashes)
 * without computing the run; files written before the stream format still load.
 */
import { expect } from 'chai';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeBlocks } from '../../src/persistence/savedBlocks.js';
import { encodeStateFile } from '../../src/persistence/stateFile.js';
import { readStateFile } from '../../src/persistence/persistence.js';
import { ADDRESSES, newNode } from '../helpers/chain.js';

const RUN = 100_000;

interface Header {
  number: string;
  hash: string;
  parentHash: string;
  timestamp: string;
  baseFeePerGas?: string;
  mixHash: string;
}

describe('persistence: a long chain', function () {
  this.timeout(120_000);

  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chain-sim-long-'));
    file = join(dir, 'state.json');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it(`saves ${RUN.toLocaleString('en')}-block runs as a few lines, and a restart serves the same blocks`, async () => {
    const probes = [1, 2, 3, 5_000, 50_000, RUN, RUN + 1, RUN + 2, RUN + 3, RUN + 2 + 77_777, 2 * RUN + 1];
    const before = new Map<number, Header>();
    let tx = '';
    {
      const { provider, rpc } = newNode({ stateFile: file });
      try {
        await rpc('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x1' }]);
        await rpc('chain_mine', [`0x${(RUN - 1).toString(16)}`, '0xc']);
        // Part of the run computed (moved into the block array), part still reserved.
        await rpc('eth_getBlockByNumber', ['0x1388', false]);
        tx = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[2], value: '0x2' }]);
        await rpc('chain_mine', [`0x${RUN.toString(16)}`]);
        for (const n of probes) before.set(n, await rpc<Header>('eth_getBlockByNumber', [`0x${n.toString(16)}`, false]));
      } finally {
        await provider.disconnect();
      }
    }
    const size = (await stat(file)).size;
    expect(size, 'two runs of 100,000 blocks in a few lines').to.be.below(32 * 1024);
    const text = await readFile(file, 'utf8');
    expect(text.startsWith('{"chainSimState":3,')).to.equal(true);
    expect(text.match(/"emptyRun"/g)).to.have.length(2);
    // Still one JSON document.
    expect((JSON.parse(text) as { blocks: unknown[] }).blocks).to.have.length(5);

    const { provider, rpc } = newNode({ stateFile: file });
    try {
      const node = await provider.ready();
      // Restored as reservations: not computed by the load (hashed in the background from now on).
      expect(node.chain.blocks.lastUnreserved < BigInt(2 * RUN + 1)).to.equal(true);
      expect(await rpc('eth_blockNumber')).to.equal(`0x${(2 * RUN + 1).toString(16)}`);
      for (const n of [...probes].reverse()) {
        const header = await rpc<Header>('eth_getBlockByNumber', [`0x${n.toString(16)}`, false]);
        const want = before.get(n)!;
        expect(
          {
            number: header.number,
            hash: header.hash,
            parentHash: header.parentHash,
            timestamp: header.timestamp,
            baseFeePerGas: header.baseFeePerGas,
            mixHash: header.mixHash,
          },
          `block ${n}`,
        ).to.deep.equal({
          number: want.number,
          hash: want.hash,
          parentHash: want.parentHash,
          timestamp: want.timestamp,
          baseFeePerGas: want.baseFeePerGas,
          mixHash: want.mixHash,
        });
      }
      expect(await rpc<{ blockNumber: string }>('eth_getTransactionReceipt', [tx])).to.deep.include({ blockNumber: `0x${(RUN + 1).toString(16)}` });
      // The chain continues from the restored head.
      await rpc('evm_mine');
      expect(await rpc<Header>('eth_getBlockByNumber', ['latest', false])).to.deep.include({ parentHash: before.get(2 * RUN + 1)!.hash });
    } finally {
      await provider.disconnect();
    }
  });

  it('a block read by number and then by hash inside a long run computes nothing past it', async () => {
    const { provider, rpc } = newNode({});
    try {
      const node = await provider.ready();
      await node.chain.configure({ emptyBlocks: 'lazy' }); // no background hashing (runHashing.ts)
      await rpc('chain_mine', [`0x${RUN.toString(16)}`]);
      const block = await rpc<Header>('eth_getBlockByNumber', ['0xa', false]);
      expect(node.chain.blocks.lastUnreserved).to.equal(10n);
      expect(await rpc<Header>('eth_getBlockByHash', [block.hash, false])).to.deep.include({ number: '0xa', hash: block.hash });
      expect(node.chain.blocks.lastUnreserved, 'the rest of the run is not computed').to.equal(10n);
    } finally {
      await provider.disconnect();
    }
  });

  it('reads a state file written before the stream format (one JSON object, every block)', async () => {
    let head: Header | undefined;
    let oldText = '';
    {
      const { provider, rpc } = newNode({});
      try {
        await rpc('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x1' }]);
        await rpc('chain_mine', ['0x20']);
        head = await rpc<Header>('eth_getBlockByNumber', ['latest', false]);
        const node = await provider.ready();
        const alloc = await node.chain.dumpState();
        // What the previous writer produced: encodeStateFile with every block encoded.
        oldText = `${JSON.stringify(encodeStateFile({ chainId: node.chain.chainId, hardfork: node.chain.common.hardfork(), gasLimit: node.chain.blockGasLimit, alloc, blocks: encodeBlocks(node.chain.allBlocks()) }))}\n`;
      } finally {
        await provider.disconnect();
      }
    }
    await writeFile(file, oldText);
    expect((await readStateFile(file))!.blocks).to.have.length(34);
    const { provider, rpc } = newNode({ stateFile: file });
    try {
      expect(await rpc<Header>('eth_getBlockByNumber', ['latest', false])).to.deep.include({ hash: head!.hash, number: head!.number });
    } finally {
      await provider.disconnect();
    }
    // Saved again in the stream format, the same chain.
    expect((await readFile(file, 'utf8')).startsWith('{"chainSimState":3,')).to.equal(true);
    const again = newNode({ stateFile: file });
    try {
      expect(await again.rpc<Header>('eth_getBlockByNumber', ['latest', false])).to.deep.include({ hash: head!.hash });
    } finally {
      await again.provider.disconnect();
    }
  });

  it('reads a streamed file reformatted as one line or pretty-printed (read whole), runs included', async () => {
    let head: Header | undefined;
    {
      const { provider, rpc } = newNode({ stateFile: file });
      await rpc('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x1' }]);
      await rpc('chain_mine', ['0x400']);
      head = await rpc<Header>('eth_getBlockByNumber', ['latest', false]);
      await provider.disconnect();
    }
    const parsed = JSON.parse(await readFile(file, 'utf8')) as unknown;
    for (const text of [JSON.stringify(parsed), JSON.stringify(parsed, null, 2)]) {
      await writeFile(file, text);
      const { provider, rpc } = newNode({ stateFile: file });
      try {
        expect(await rpc<Header>('eth_getBlockByNumber', ['latest', false])).to.deep.include({ hash: head!.hash, number: head!.number });
      } finally {
        await provider.disconnect();
      }
    }
  });

  it('refuses a streamed file cut short, naming the file and the line', async () => {
    {
      const { provider, rpc } = newNode({ stateFile: file });
      await rpc('chain_mine', ['0x3']);
      await provider.disconnect();
    }
    const text = await readFile(file, 'utf8');
    const cut = text.slice(0, text.lastIndexOf('\n', text.length - 2));
    await writeFile(file, cut);
    const { provider } = newNode({ stateFile: file });
    try {
      await provider.ready();
      expect.fail('a truncated file must be refused');
    } catch (error) {
      expect((error as Error).message).to.match(
        new RegExp(`^state file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: line \\d+: the file ends before the state does`),
      );
    }
    expect(await readFile(file, 'utf8')).to.equal(cut);
  });
});
