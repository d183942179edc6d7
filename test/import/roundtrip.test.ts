import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { Interface } from 'ethers';
import { ADDRESSES, type Rpc, artifact, newNode, send } from '../helpers/chain.js';
import { type Block, type BuiltChain, SAME_GENESIS, TO, answers, buildChain, exportToFile, hexNumber, importedNode, tempDir } from './chain.js';

/** State reads at every block: balances, nonces, code, storage, a call and an estimate. */
async function readsAt(rpc: Rpc, built: BuiltChain): Promise<unknown[]> {
  const erc20 = new Interface(artifact('Token').abi);
  const balanceOf = erc20.encodeFunctionData('balanceOf', [ADDRESSES[0]]);
  const out: unknown[] = [];
  for (let n = 0; n <= built.head; n++) {
    const at = hexNumber(n);
    for (const who of [ADDRESSES[0], ADDRESSES[1], ADDRESSES[2], TO]) {
      out.push(await rpc('eth_getBalance', [who, at]), await rpc('eth_getTransactionCount', [who, at]), await rpc('eth_getCode', [who, at]));
    }
    out.push(await rpc('eth_getStorageAt', [built.token, '0x2', at]));
    const call = { to: built.token, data: balanceOf };
    out.push(await rpc('eth_call', [call, at]).catch((e: Error) => e.message));
    out.push(await rpc('eth_estimateGas', [{ from: ADDRESSES[0], to: TO, value: '0x1' }, at]));
  }
  return out;
}

describe('RLP chain export and --import', function () {
  this.timeout(120_000);

  it('an exported chain imports into a fresh instance with every block, transaction, receipt, log and state identical', async () => {
    const source = newNode(SAME_GENESIS);
    const built = await buildChain(source.rpc);
    const file = await exportToFile(source.rpc, tempDir());
    const target = importedNode(file);
    expect(await target.rpc('eth_blockNumber')).to.equal(hexNumber(built.head));

    const expected = await answers(source.rpc, built.head);
    const actual = await answers(target.rpc, built.head);
    expect(actual).to.deep.equal(expected);
    // Every transaction type made it into the file, and the reverted one kept its status.
    const types = new Set<string>();
    const statuses = new Set<string>();
    for (const item of actual) {
      const record = item as { type?: string; status?: string; transactionHash?: string };
      if (record?.transactionHash && record.type) types.add(record.type);
      if (record?.transactionHash && record.status) statuses.add(record.status);
    }
    expect([...types].sort()).to.deep.equal(['0x0', '0x1', '0x2', '0x3', '0x4']);
    expect([...statuses].sort()).to.deep.equal(['0x0', '0x1']);
    expect(await readsAt(target.rpc, built)).to.deep.equal(await readsAt(source.rpc, built));

    // Exporting the imported chain gives the same file, byte for byte.
    expect(await target.rpc('chain_exportChain')).to.equal(`0x${readFileSync(file).toString('hex')}`);

    // New transactions build on the imported head.
    const head = await target.rpc<Block>('eth_getBlockByNumber', ['latest', false]);
    const receipt = await send(target.rpc, 1, { to: TO, value: 1n, nonce: 2, gasLimit: 21000 });
    expect(receipt.blockNumber).to.equal(hexNumber(built.head + 1));
    const next = await target.rpc<Block & { parentHash: string }>('eth_getBlockByNumber', ['latest', false]);
    expect(next.parentHash).to.equal(head.hash);
  });

  it('skips blocks the chain already has, e.g. the genesis block of a full export; a different genesis is named', async () => {
    const source = newNode(SAME_GENESIS);
    await send(source.rpc, 0, { to: TO, value: 1n, nonce: 0, gasLimit: 21000 });
    await send(source.rpc, 0, { to: TO, value: 1n, nonce: 1, gasLimit: 21000 });
    const dir = tempDir();
    const full = await exportToFile(source.rpc, dir, 'full.rlp', ['0x0', 'latest']);
    const target = importedNode(full);
    expect(await target.rpc('eth_getBlockByNumber', ['latest', false])).to.deep.equal(await source.rpc('eth_getBlockByNumber', ['latest', false]));

    // Another genesis (another clock at start): the file's block 0 is not this chain's.
    const error = await importedNode(full, { wallClock: () => 1_900_000_000_000 }).provider.ready().then(() => undefined, (e: Error) => e);
    expect(error?.message).to.match(/^import .*full\.rlp: block 0: hash 0x[0-9a-f]{64} differs from this chain's block 0 0x[0-9a-f]{64}/);
  });

  it('chain_exportChain takes a range (numbers or tags) and refuses a bad one', async () => {
    const source = newNode(SAME_GENESIS);
    expect(await source.rpc('chain_exportChain')).to.equal('0x');
    await send(source.rpc, 0, { to: TO, value: 1n, nonce: 0, gasLimit: 21000 });
    await source.rpc('chain_mine', [2]);
    const one = async (n: number) => (await source.rpc<string>('chain_exportChain', [hexNumber(n), hexNumber(n)])).slice(2);
    const blocks = [await one(0), await one(1), await one(2), await one(3)];
    expect(await source.rpc('chain_exportChain')).to.equal(`0x${blocks.slice(1).join('')}`);
    expect(await source.rpc('chain_exportChain', ['0x2'])).to.equal(`0x${blocks[2]}${blocks[3]}`);
    expect(await source.rpc('chain_exportChain', ['earliest', 'latest'])).to.equal(`0x${blocks.join('')}`);
    expect(await source.rpc('chain_exportChain', ['latest'])).to.equal(`0x${blocks[3]}`);
    const refused = async (params: unknown[]) => source.rpc('chain_exportChain', params).then(
      () => expect.fail(`accepted ${JSON.stringify(params)}`),
      (e: { code: number; message: string }) => e,
    );
    expect(await refused(['0x3', '0x1'])).to.include({ code: -32602, message: 'first block 3 is after last block 1' });
    expect(await refused(['0x1', '0x9'])).to.include({ code: -32000, message: 'header not found' });
    expect((await refused(['0x1', 'latest', '0x1'])).code).to.equal(-32602);
  });
});
