/**
 * testing_buildBlockV1 as go-ethereum serves it: a payload on the head from the given attributes
 * and transactions (or the pool's), its errors, and the chain left as it was, in process and over HTTP.
 * (The corpus checks exact payloads against go-ethereum's recordings.)
 */
import { expect } from 'chai';
import { getAddress } from 'ethers';
import { calcGasLimit } from '../../src/engine/execution/testingBlock.js';
import { ADDRESSES, type Rpc, newNode, signed } from '../helpers/chain.js';
import { postJson, rpcError, httpServerPerSuite } from '../helpers/rpc.js';

const ZERO32 = `0x${'00'.repeat(32)}`;
const RANDAO = `0x${'ab'.repeat(32)}`;
const BEACON = `0x${'cd'.repeat(32)}`;
const RECIPIENT = '0x00000000000000000000000000000000000000fe';
const TO = '0x00000000000000000000000000000000000000aa';

interface Payload {
  executionPayload: Record<string, unknown> & { transactions: string[]; withdrawals: unknown[] | null };
  blockValue: string;
  blobsBundle: unknown;
  executionRequests: string[] | null;
  shouldOverrideBuilder: boolean;
}

interface Head {
  hash: string;
  number: string;
  timestamp: string;
  gasLimit: string;
}

describe('testing_buildBlockV1', function () {
  this.timeout(30_000);
  let rpc: Rpc;
  beforeEach(() => {
    ({ rpc } = newNode());
  });

  const head = () => rpc<Head>('eth_getBlockByNumber', ['latest', false]);
  const attributes = (h: Head, extra: Record<string, unknown> = {}) => ({
    timestamp: `0x${(BigInt(h.timestamp) + 12n).toString(16)}`,
    prevRandao: RANDAO,
    suggestedFeeRecipient: RECIPIENT,
    withdrawals: [],
    parentBeaconBlockRoot: BEACON,
    ...extra,
  });
  const build = (h: Head, transactions: unknown, extraData?: string, extra?: Record<string, unknown>) =>
    rpc<Payload>('testing_buildBlockV1', [h.hash, attributes(h, extra), transactions, ...(extraData === undefined ? [] : [extraData])]);

  it('an empty block on the head from the attributes; the chain does not change', async () => {
    const h = await head();
    const payload = await build(h, [], '0x746573745f6e616d65');
    const p = payload.executionPayload;
    expect(p.parentHash).to.equal(h.hash);
    expect(p.blockNumber).to.equal(`0x${(BigInt(h.number) + 1n).toString(16)}`);
    expect(p.feeRecipient).to.equal(RECIPIENT);
    expect(p.prevRandao).to.equal(RANDAO);
    expect(p.extraData).to.equal('0x746573745f6e616d65');
    expect(p.gasUsed).to.equal('0x0');
    expect(p.transactions).to.deep.equal([]);
    expect(p.withdrawals).to.deep.equal([]);
    expect(p.blobGasUsed).to.equal('0x0');
    expect(p.gasLimit).to.equal(`0x${calcGasLimit(BigInt(h.gasLimit), 60_000_000n).toString(16)}`);
    expect(payload.blockValue).to.equal('0x0');
    expect(payload.blobsBundle).to.deep.equal({ commitments: [], proofs: [], blobs: [] });
    expect(payload.executionRequests).to.deep.equal([]);
    expect(payload.shouldOverrideBuilder).to.equal(false);
    expect((await head()).hash).to.equal(h.hash);
  });

  it('the given transactions, in order, with the tips as block value; no state change on the chain', async () => {
    const h = await head();
    const tip = 2_000_000_000n;
    const first = await signed(0, { to: TO, value: 1, nonce: 0, gasLimit: 21_000, maxPriorityFeePerGas: tip });
    const second = await signed(0, { to: TO, value: 2, nonce: 1, gasLimit: 21_000, maxPriorityFeePerGas: tip });
    const payload = await build(h, [first, second]);
    expect(payload.executionPayload.transactions).to.deep.equal([first, second]);
    expect(payload.executionPayload.gasUsed).to.equal(`0x${(42_000).toString(16)}`);
    expect(BigInt(payload.blockValue)).to.equal(42_000n * tip);
    expect(await rpc('eth_getTransactionCount', [ADDRESSES[0], 'latest'])).to.equal('0x0');
    expect(await rpc('eth_getBalance', [TO, 'latest'])).to.equal('0x0');
  });

  it('null transactions: the pool is built from and stays as it was', async () => {
    await rpc('evm_setAutomine', [false]);
    const raw = await signed(1, { to: TO, value: 5, nonce: 0, gasLimit: 21_000 });
    await rpc('eth_sendRawTransaction', [raw]);
    const payload = await build(await head(), null);
    expect(payload.executionPayload.transactions).to.deep.equal([raw]);
    expect(((await rpc<{ pending: Record<string, unknown> }>('txpool_content')).pending[getAddress(ADDRESSES[1]!)] ?? {}) as object).to.have.keys('0');
    // [] is an empty block even with a pending transaction.
    expect((await build(await head(), [])).executionPayload.transactions).to.deep.equal([]);
  });

  it('withdrawals enter the payload', async () => {
    const withdrawal = { index: '0x1', validatorIndex: '0x2', address: TO, amount: '0x3' };
    const payload = await build(await head(), [], undefined, { withdrawals: [withdrawal] });
    expect(payload.executionPayload.withdrawals).to.deep.equal([withdrawal]);
  });

  it("a transaction that cannot apply fails the call with go-ethereum's error; nothing changes", async () => {
    const h = await head();
    const raw = await signed(0, { to: TO, nonce: 5, gasLimit: 21_000 });
    const error = await rpcError(() => build(h, [raw]));
    expect(error.code).to.equal(-32000);
    expect(error.message).to.equal(`nonce too high: address ${getAddress(ADDRESSES[0]!)}, tx: 5 state: 0`);
    expect((await head()).hash).to.equal(h.hash);
  });

  it('refuses a parent that is not the head and a timestamp not after it', async () => {
    const h = await head();
    await rpc('evm_mine');
    expect((await rpcError(() => build(h, []))).message).to.equal('parentHash is not current head');
    const now = await head();
    const error = await rpcError(() => rpc('testing_buildBlockV1', [now.hash, attributes(now, { timestamp: now.timestamp }), []]));
    expect(error.message).to.equal(`invalid timestamp, parent ${BigInt(now.timestamp)} given ${BigInt(now.timestamp)}`);
  });

  it('names the attribute that is missing or unknown', async () => {
    const h = await head();
    const missing = await rpcError(() => rpc('testing_buildBlockV1', [h.hash, { timestamp: '0x1', suggestedFeeRecipient: RECIPIENT }, []]));
    expect(missing.code).to.equal(-32602);
    expect(missing.message).to.match(/prevRandao/);
    const unknown = await rpcError(() => rpc('testing_buildBlockV1', [h.hash, { ...attributes(h), slotNumber: '0x1' }, []]));
    expect(unknown.message).to.match(/slotNumber/);
  });

  it('before Prague no requests; before Cancun no blob fields', async () => {
    const cancun = newNode({ hardfork: 'cancun' }).rpc;
    const h = await cancun<Head>('eth_getBlockByNumber', ['latest', false]);
    const payload = await cancun<Payload>('testing_buildBlockV1', [h.hash, attributes(h), []]);
    expect(payload.executionRequests).to.equal(null);
    const shanghai = newNode({ hardfork: 'shanghai' }).rpc;
    const s = await shanghai<Head>('eth_getBlockByNumber', ['latest', false]);
    const older = await shanghai<Payload>('testing_buildBlockV1', [s.hash, { ...attributes(s), parentBeaconBlockRoot: ZERO32 }, []]);
    expect(older.executionPayload.blobGasUsed).to.equal(null);
    expect(older.executionPayload.excessBlobGas).to.equal(null);
  });

  it("the gas limit moves toward go-ethereum's miner ceiling by at most parent/1024 - 1", () => {
    expect(calcGasLimit(30_000_000n, 60_000_000n)).to.equal(30_029_295n);
    expect(calcGasLimit(200_000_000n, 60_000_000n)).to.equal(199_804_689n);
    expect(calcGasLimit(59_990_000n, 60_000_000n)).to.equal(60_000_000n);
    expect(calcGasLimit(60_000_000n, 60_000_000n)).to.equal(60_000_000n);
  });

  describe('over HTTP', () => {
    const url = httpServerPerSuite({ hardfork: 'prague' });

    it('answers a payload', async () => {
      const latest = JSON.parse((await postJson(url(), { jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['latest', false] })).body)
        .result as Head;
      const answer = await postJson(url(), { jsonrpc: '2.0', id: 2, method: 'testing_buildBlockV1', params: [latest.hash, attributes(latest), [], null] });
      const payload = JSON.parse(answer.body).result as Payload;
      expect(payload.executionPayload.parentHash).to.equal(latest.hash);
      expect(payload.executionPayload.extraData).to.equal('0x');
    });
  });
});
