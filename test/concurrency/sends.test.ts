/**
 * 1,000 eth_sendRawTransaction calls from 10 senders, fired at once with each sender's nonces
 * shuffled, over HTTP and through the in-process provider: every transaction is mined exactly
 * once, in nonce order per sender, in contiguous blocks. Meanwhile readers poll the head and
 * check that a block, its receipts and the state at it always agree.
 */
import { expect } from 'chai';
import type { Wallet } from 'ethers';
import { type ChainSimProvider, type ChainSimServer, createProvider, createServer } from '../../src/index.js';
import { postJson } from '../helpers/rpc.js';
import { type Batch, RECIPIENT, type RpcBlock, type RpcReceipt, checkChain, checkLookups, defaultWallets, shuffle, signTransfer } from './chainCheck.js';

const SENDERS = 10;
const PER_SENDER = 100;

/** JSON-RPC batches over HTTP; an error anywhere fails the test. */
function httpBatch(url: string): Batch {
  return async (calls) => {
    const res = await postJson(
      url,
      calls.map(([method, params], id) => ({ jsonrpc: '2.0', id, method, params })),
    );
    const replies = JSON.parse(res.body) as Array<{ id: number; result?: unknown; error?: { message: string } }>;
    expect(replies).to.have.length(calls.length);
    return replies
      .sort((a, b) => a.id - b.id)
      .map((r) => {
        if (r.error) throw new Error(`${calls[r.id]![0]}: ${r.error.message}`);
        return r.result;
      });
  };
}

function providerBatch(provider: ChainSimProvider): Batch {
  return (calls) => Promise.all(calls.map(([method, params]) => provider.request({ method, params })));
}

/** EVM code run by eth_call: returns (BALANCE(RECIPIENT), NUMBER), read in one step of the chain's queue. */
// PUSH20 recipient, BALANCE, PUSH1 0, MSTORE, NUMBER, PUSH1 32, MSTORE, PUSH1 64, PUSH1 0, RETURN
const PROBE = `0x73${RECIPIENT.slice(2)}316000524360205260406000f3`;

/**
 * Read the head's number and the state at the head in one call, then the head block, its
 * receipts and the state at its hash, and check they all agree: one transfer per block
 * (automine), so at block n the recipient holds n wei and the block's sender has the block's
 * nonce + 1. False if the head was still the genesis block.
 */
async function observeHead(batch: Batch): Promise<boolean> {
  const [probe] = (await batch([['eth_call', [{ data: PROBE }, 'latest']]])) as [string];
  const n = Number(BigInt(`0x${probe.slice(66, 130)}`));
  expect(BigInt(probe.slice(0, 66)), `recipient balance in the state of head ${n}`).to.equal(BigInt(n));
  if (n === 0) return false;
  const [block] = (await batch([['eth_getBlockByNumber', [`0x${n.toString(16)}`, true]]])) as [RpcBlock];
  const tx = block.transactions[0]!;
  const at = { blockHash: block.hash };
  const [receipts, nonce, balance, receipt, head] = (await batch([
    ['eth_getBlockReceipts', [at]],
    ['eth_getTransactionCount', [tx.from, at]],
    ['eth_getBalance', [RECIPIENT, at]],
    ['eth_getTransactionReceipt', [tx.hash]],
    ['eth_blockNumber', []],
  ])) as [RpcReceipt[], string, string, RpcReceipt | null, string];
  expect(block.transactions, `block ${n}`).to.have.length(1);
  expect(receipts.map((r) => r.transactionHash)).to.deep.equal([tx.hash]);
  expect(Number(receipts[0]!.blockNumber)).to.equal(n);
  expect(Number(nonce), `nonce of ${tx.from} at block ${n}`).to.equal(Number(tx.nonce) + 1);
  expect(BigInt(balance), `recipient at block ${n}`).to.equal(BigInt(n));
  expect(receipt?.blockHash).to.equal(block.hash);
  expect(Number(head)).to.be.at.least(n);
  return true;
}

/** Observe the head again and again until `done()`; returns how many blocks were checked. */
async function readWhileMining(batch: Batch, done: () => boolean): Promise<number> {
  let checked = 0;
  while (!done()) {
    if (await observeHead(batch)) checked++;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return checked;
}

describe('concurrency: 1,000 concurrent sends from 10 senders', function () {
  this.timeout(60_000);

  let wallets: Wallet[];
  /** Signed once: every test starts a fresh chain with the same accounts and chain id. */
  let signedBySender: string[][];

  before(async () => {
    wallets = defaultWallets(SENDERS);
    signedBySender = await Promise.all(wallets.map((w) => Promise.all(Array.from({ length: PER_SENDER }, (_, nonce) => signTransfer(w, nonce)))));
  });

  /** Every sender's transactions in shuffled nonce order, senders interleaved at random. */
  function shuffledRaw(): string[] {
    return shuffle(signedBySender.flatMap((raws) => shuffle([...raws])));
  }

  async function verify(batch: Batch, hashes: string[]): Promise<void> {
    expect(new Set(hashes).size).to.equal(SENDERS * PER_SENDER);
    const { head, mined } = await checkChain(batch);
    expect(head).to.equal(SENDERS * PER_SENDER); // one block per transaction under automine, none empty
    expect(new Set(mined.map((tx) => tx.hash))).to.deep.equal(new Set(hashes));
    for (const wallet of wallets) {
      const nonces = mined.filter((tx) => tx.from === wallet.address.toLowerCase()).map((tx) => tx.nonce);
      expect(nonces).to.deep.equal(Array.from({ length: PER_SENDER }, (_, i) => i));
    }
    await checkLookups(batch, hashes, mined);
    const [balance] = (await batch([['eth_getBalance', [RECIPIENT, 'latest']]])) as [string];
    expect(BigInt(balance)).to.equal(BigInt(SENDERS * PER_SENDER));
  }

  describe('over HTTP', () => {
    let server: ChainSimServer;
    let url: string;

    before(async () => {
      server = await createServer({ quiet: true, hardfork: 'prague' });
      ({ url } = await server.listen(0, '127.0.0.1'));
    });
    after(() => server?.close());

    it('mines every transaction exactly once, in nonce order, while readers see whole blocks', async () => {
      let sending = true;
      const batch = httpBatch(url);
      const readers = Promise.all([readWhileMining(batch, () => !sending), readWhileMining(batch, () => !sending)]);
      const replies = await Promise.all(shuffledRaw().map((raw, id) => postJson(url, { jsonrpc: '2.0', id, method: 'eth_sendRawTransaction', params: [raw] })));
      sending = false;
      const hashes = replies.map((res, id) => {
        const reply = JSON.parse(res.body) as { id: number; result?: string; error?: { message: string } };
        expect(reply.id).to.equal(id);
        expect(reply.error, reply.error?.message).to.equal(undefined);
        return reply.result!;
      });
      const checked = await readers;
      expect(checked[0]! + checked[1]!, 'blocks checked by the readers').to.be.greaterThan(10);
      expect(server.node.chain.pool.size).to.equal(0);
      await verify(batch, hashes);
    });
  });

  describe('in process', () => {
    let provider: ChainSimProvider;

    before(async () => {
      provider = createProvider({ quiet: true, hardfork: 'prague' });
      await provider.ready();
    });
    after(() => provider?.disconnect());

    it('mines every transaction exactly once with Promise.all, while readers see whole blocks', async () => {
      const batch = providerBatch(provider);
      // In process every request enters the chain's queue at once, so observers go into the same burst.
      const sends: Array<Promise<unknown>> = [];
      const observers: Array<Promise<boolean>> = [];
      shuffledRaw().forEach((raw, i) => {
        sends.push(provider.request({ method: 'eth_sendRawTransaction', params: [raw] }));
        if (i % 20 === 19) observers.push(observeHead(batch));
      });
      const hashes = (await Promise.all(sends)) as string[];
      expect((await Promise.all(observers)).filter(Boolean).length).to.be.greaterThan(10);
      expect((await provider.ready()).chain.pool.size).to.equal(0);
      await verify(batch, hashes);
    });
  });
});
