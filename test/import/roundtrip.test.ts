import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { Interface } from 'ethers';
import { ADDRESSES, CHAIN_ID, type Rpc, WALLETS, artifact, deploy, newNode, send, signed } from '../helpers/chain.js';
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

  it('a block of 300 transactions (logs, reverts, several senders and types) has the roots an importer recomputes', async () => {
    // The block builder's roots and its set-aside transaction list (blockBuilder.ts) against
    // @ethereumjs/block's transaction trie and runBlock's receipts and state roots.
    const source = newNode(SAME_GENESIS);
    const token = await deploy(source.rpc, 'Token', ['Token', 'TKN', 1000n], 0);
    const erc20 = new Interface(artifact('Token').abi);
    await source.rpc('chain_setAutomine', [false]);
    const raws: string[] = [];
    for (let nonce = 1; nonce <= 200; nonce++) {
      // Every third a token transfer (a log), every seventh one more than the balance (reverts).
      const data = nonce % 3 === 0 ? erc20.encodeFunctionData('transfer', [ADDRESSES[1], nonce % 7 === 0 ? 10n ** 6n : 1n]) : '0x';
      raws.push(await signed(0, { nonce, to: nonce % 3 === 0 ? token : TO, value: nonce % 3 === 0 ? 0n : BigInt(nonce), data }));
    }
    for (let nonce = 0; nonce < 100; nonce++) {
      raws.push(await WALLETS[1]!.signTransaction({ type: 0, chainId: CHAIN_ID, nonce, to: TO, value: 1n, gasLimit: 21000, gasPrice: 10n ** 11n }));
    }
    for (const raw of raws) await source.rpc('eth_sendRawTransaction', [raw]);
    await source.rpc('chain_mine');
    const block = await source.rpc<Block & { transactions: string[] }>('eth_getBlockByNumber', ['latest', false]);
    expect(block.transactions).to.have.length(300);
    const statuses = new Set<string>();
    for (const hash of block.transactions) statuses.add((await source.rpc<{ status: string }>('eth_getTransactionReceipt', [hash])).status);
    expect([...statuses].sort()).to.deep.equal(['0x0', '0x1']);

    const target = importedNode(await exportToFile(source.rpc, tempDir()));
    expect(await target.rpc('eth_getBlockByNumber', ['latest', false])).to.deep.equal(block);
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
    const error = await importedNode(full, { wallClock: () => 1_900_000_000_000 })
      .provider.ready()
      .then(
        () => undefined,
        (e: Error) => e,
      );
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
    const refused = async (params: unknown[]) =>
      source.rpc('chain_exportChain', params).then(
        () => expect.fail(`accepted ${JSON.stringify(params)}`),
        (e: { code: number; message: string }) => e,
      );
    expect(await refused(['0x3', '0x1'])).to.include({ code: -32602, message: 'first block 3 is after last block 1' });
    expect(await refused(['0x1', '0x9'])).to.include({ code: -32000, message: 'header not found' });
    expect((await refused(['0x1', 'latest', '0x1'])).code).to.equal(-32602);
  });
});
