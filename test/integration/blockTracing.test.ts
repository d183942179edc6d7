// debug_traceBlockByNumber / ByHash / debug_traceBlock and the raw-data getters, on blocks
// built here: several transactions in one block, traced together and one by one.
import { expect } from 'chai';
import { Interface, Transaction } from 'ethers';
import { StructLogTracer, TraceBudget } from '../../src/engine/tracers/tracing.js';
import { ADDRESSES, artifact, deploy, expectRpcError, newNode, signed } from '../helpers/chain.js';

const token = new Interface(artifact('Token').abi);
const TO = '0x000000000000000000000000000000000000beef';

interface TxTrace {
  txHash: string;
  result: unknown;
}

/** A token, then one block with three transfers (key 0) and a plain payment (key 1). */
async function blockOfFour() {
  const node = newNode();
  const { rpc } = node;
  const address = await deploy(rpc, 'Token', ['Token', 'TKN', 1000n]);
  await rpc('evm_setAutomine', [false]);
  const hashes: string[] = [];
  for (let i = 0; i < 3; i++) {
    const data = token.encodeFunctionData('transfer', [TO, BigInt(i + 1)]);
    hashes.push(await rpc<string>('eth_sendRawTransaction', [await signed(0, { to: address, nonce: 1 + i, data })]));
  }
  hashes.push(await rpc<string>('eth_sendRawTransaction', [await signed(1, { to: TO, nonce: 0, value: 5n, gasLimit: 21000 })]));
  await rpc('evm_mine');
  const block = await rpc<{ hash: string; number: string; stateRoot: string; transactions: string[] }>('eth_getBlockByNumber', ['latest', false]);
  expect(block.transactions).to.deep.equal(hashes);
  return { ...node, address, hashes, block };
}

describe('debug_traceBlockByNumber, debug_traceBlockByHash, debug_traceBlock', () => {
  it('answers one { txHash, result } per transaction, each what debug_traceTransaction answers, without moving the state', async () => {
    const { rpc, hashes, block } = await blockOfFour();
    const balance = await rpc('eth_getBalance', [TO, 'latest']);
    for (const config of [undefined, { tracer: 'callTracer', tracerConfig: { withLog: true } }, { enableMemory: true, disableStack: true }]) {
      const params = config ? [config] : [];
      const byNumber = await rpc<TxTrace[]>('debug_traceBlockByNumber', [block.number, ...params]);
      expect(byNumber.map((entry) => entry.txHash)).to.deep.equal(hashes);
      for (let i = 0; i < hashes.length; i++) {
        expect(byNumber[i]!.result, `${JSON.stringify(config)} tx ${i}`).to.deep.equal(await rpc('debug_traceTransaction', [hashes[i], ...params]));
      }
      expect(await rpc('debug_traceBlockByHash', [block.hash, ...params])).to.deep.equal(byNumber);
      expect(await rpc('debug_traceBlockByNumber', ['latest', ...params])).to.deep.equal(byNumber);
      const raw = await rpc<string>('debug_getRawBlock', [block.number]);
      expect(await rpc('debug_traceBlock', [raw, ...params])).to.deep.equal(byNumber);
    }
    // Later transfers see the earlier ones: the recipient's balance slot is already set (SSTORE of a non-zero slot: 2,900 gas).
    const traces = await rpc<Array<{ result: { structLogs: Array<{ op: string; gasCost: number }> } }>>('debug_traceBlockByNumber', [block.number]);
    expect(traces[1]!.result.structLogs.filter((log) => log.op === 'SSTORE').map((log) => log.gasCost)).to.deep.equal([2900, 2900]);
    expect(traces[3]!.result.structLogs).to.deep.equal([]); // a payment runs no code
    expect((await rpc<{ stateRoot: string }>('eth_getBlockByNumber', ['latest', false])).stateRoot).to.equal(block.stateRoot);
    expect(await rpc('eth_getBalance', [TO, 'latest'])).to.equal(balance);
  });

  it("refuses the genesis block, unknown blocks, the pending block and an undecodable RLP block with go-ethereum's errors", async () => {
    const { rpc, block } = await blockOfFour();
    await expectRpcError(rpc('debug_traceBlockByNumber', ['0x0']), -32000, /^genesis is not traceable$/);
    await expectRpcError(rpc('debug_traceBlockByNumber', ['earliest']), -32000, /^genesis is not traceable$/);
    const genesis = await rpc<{ hash: string }>('eth_getBlockByNumber', ['0x0', false]);
    await expectRpcError(rpc('debug_traceBlockByHash', [genesis.hash]), -32000, /^genesis is not traceable$/);
    await expectRpcError(rpc('debug_traceBlock', [await rpc<string>('debug_getRawBlock', ['0x0'])]), -32000, /^genesis is not traceable$/);
    await expectRpcError(rpc('debug_traceBlockByNumber', ['0x63']), -32000, /^block #99 not found$/);
    const unknown = `0x${'01'.padStart(64, '0')}`;
    await expectRpcError(rpc('debug_traceBlockByHash', [unknown]), -32000, new RegExp(`^block ${unknown} not found$`));
    await expectRpcError(rpc('debug_traceBlockByNumber', ['pending']), -32000, /pending block is not supported/);
    await expectRpcError(rpc('debug_traceBlock', ['0xc0']), -32000, /^could not decode block: /);
    await expectRpcError(rpc('debug_traceBlockByNumber', ['3']), -32602, /argument 0 \(blockNumber\)/);
    await expectRpcError(rpc('debug_traceBlockByNumber', [block.number, { tracer: 'nope' }]), -32602, /runs no JavaScript tracers/);
  });

  it("keeps a whole block within one trace budget: the transactions' records are counted together", async () => {
    const { provider, block } = await blockOfFour();
    const chain = (await provider.ready()).chain;
    // What each transfer's struct logs take alone, with a budget too large to matter.
    const alone: number[] = [];
    for (let i = 0; i < 3; i++) {
      const budget = new TraceBudget();
      await chain.traceBlock(
        { number: BigInt(block.number) },
        (index) =>
          new StructLogTracer(
            { disableStack: false, disableStorage: false, enableMemory: true, enableReturnData: false, limit: 0 },
            index === i ? budget : new TraceBudget(),
          ),
      );
      alone.push(budget.usedBytes);
    }
    // A budget that holds any one of them but not all three.
    const shared = new TraceBudget(Math.max(...alone) + 1);
    const options = { disableStack: false, disableStorage: false, enableMemory: true, enableReturnData: false, limit: 0 };
    let failure: unknown;
    await chain.traceBlock({ number: BigInt(block.number) }, () => new StructLogTracer(options, shared)).catch((error: unknown) => (failure = error));
    expect(String(failure)).to.match(/trace too large/);
    expect(shared.exceeded).to.equal(true);
  });
});

describe('raw data: debug_getRaw*, eth_getRawTransaction*', () => {
  it('serves the block, header, receipts and transactions in their consensus encodings', async () => {
    const { rpc, hashes, block } = await blockOfFour();
    const rawBlock = await rpc<string>('debug_getRawBlock', [block.number]);
    const rawHeader = await rpc<string>('debug_getRawHeader', [{ blockHash: block.hash }]);
    // The header's hash is the block's; the block's RLP holds the header's.
    const { keccak256 } = await import('ethers');
    expect(keccak256(rawHeader)).to.equal(block.hash);
    expect(rawBlock).to.include(rawHeader.slice(2));
    for (let i = 0; i < hashes.length; i++) {
      const raw = await rpc<string>('eth_getRawTransactionByHash', [hashes[i]]);
      expect(keccak256(raw)).to.equal(hashes[i]);
      expect(Transaction.from(raw).hash).to.equal(hashes[i]);
      expect(await rpc('debug_getRawTransaction', [hashes[i]])).to.equal(raw);
      expect(await rpc('eth_getRawTransactionByBlockHashAndIndex', [block.hash, `0x${i.toString(16)}`])).to.equal(raw);
      expect(await rpc('eth_getRawTransactionByBlockNumberAndIndex', [block.number, `0x${i.toString(16)}`])).to.equal(raw);
      expect(rawBlock).to.include(raw.slice(4)); // typed: inside the block as a byte string after its RLP prefix
    }
    // Receipts: their trie root is the header's receiptsRoot (checked by re-deriving it with the engine's trie).
    const receipts = await rpc<string[]>('debug_getRawReceipts', [block.number]);
    expect(receipts).to.have.length(4);
    const { orderedTrieRoot } = await import('../../src/engine/state/trieRoot.js');
    const { hexToBytes, bytesToHex } = await import('@ethereumjs/util');
    const header = await rpc<{ receiptsRoot: string }>('eth_getBlockByNumber', [block.number, false]);
    expect(bytesToHex(await orderedTrieRoot(receipts.map((r) => hexToBytes(r as `0x${string}`))))).to.equal(header.receiptsRoot);
    expect(receipts[0]!.startsWith('0x02')).to.equal(true); // EIP-1559 receipts carry their type
  });

  it('answers unknown blocks and transactions as go-ethereum: empty bytes, no receipts; an unknown hash is an error', async () => {
    const { rpc, hashes } = await blockOfFour();
    expect(await rpc('debug_getRawBlock', ['0x99'])).to.equal('0x');
    expect(await rpc('debug_getRawHeader', ['0x99'])).to.equal('0x');
    expect(await rpc('debug_getRawReceipts', ['0x99'])).to.deep.equal([]);
    expect(await rpc('debug_getRawReceipts', ['0x0'])).to.deep.equal([]);
    const unknown = `0x${'ab'.repeat(32)}`;
    expect(await rpc('debug_getRawTransaction', [unknown])).to.equal('0x');
    expect(await rpc('eth_getRawTransactionByHash', [unknown])).to.equal('0x');
    expect(await rpc('eth_getRawTransactionByBlockNumberAndIndex', ['latest', '0x9'])).to.equal('0x');
    await expectRpcError(rpc('debug_getRawBlock', [{ blockHash: unknown }]), -32000, /not found/);
    // A pooled transaction is served too.
    const pooled = await signed(2, { to: TO, nonce: 0, gasLimit: 21000 });
    const pooledHash = await rpc<string>('eth_sendRawTransaction', [pooled]);
    expect(await rpc('eth_getRawTransactionByHash', [pooledHash])).to.equal(pooled);
    expect(hashes).to.have.length(4);
    expect(ADDRESSES).to.have.length(3);
  });
});
