import { expect } from 'chai';
import {
  ACCOUNTS,
  APPROVAL,
  GAS,
  type JsonLog,
  type Node,
  TRANSFER,
  addressTopic,
  approveData,
  deployToken,
  node,
  transact,
  transferData,
} from './filters.fixture.js';

const [OWNER, ALICE, BOB] = ACCOUNTS;
const hex = (n: number | bigint) => `0x${n.toString(16)}`;

describe('filters through the provider', () => {
  let now: number;
  let n: Node;
  let tokenAddress: string;
  const transfer = (to: string, value = 1n) => transact(n, OWNER, tokenAddress, transferData(to, value));
  const approve = (spender: string, value = 1n) => transact(n, OWNER, tokenAddress, approveData(spender, value));
  const head = async () => Number(await n.rpc<string>('eth_blockNumber'));
  const changes = <T = JsonLog>(id: string) => n.rpc<T[]>('eth_getFilterChanges', id);

  beforeEach(async () => {
    now = 1_700_000_000_000;
    n = node({ wallClock: () => now });
    tokenAddress = await deployToken(n);
  });

  describe('log filters', () => {
    it('report the logs of blocks mined since installation, each poll only what is new', async () => {
      const id = await n.rpc<string>('eth_newFilter', { address: tokenAddress });
      const first = [await transfer(ALICE), await approve(BOB), await transfer(BOB)];
      expect(new Set(first.map((t) => t.blockNumber)).size).to.equal(3);
      const polled = await changes(id);
      // Exactly what the receipts say, in block then log order: positions, hashes, removed: false.
      expect(polled).to.deep.equal(first.flatMap((t) => t.logs));
      expect(polled.map((l) => l.topics[0])).to.deep.equal([TRANSFER, APPROVAL, TRANSFER]);
      expect(polled.every((l) => l.removed === false && l.address === tokenAddress)).to.equal(true);
      expect(await changes(id)).to.deep.equal([]);
      const later = await transfer(ALICE);
      expect(await changes(id)).to.deep.equal(later.logs);
    });

    it('give block-wide logIndex and the transaction position when one block holds several transactions', async () => {
      const id = await n.rpc<string>('eth_newFilter', {});
      await n.rpc('evm_setAutomine', false);
      const hashes = [
        await n.rpc<string>('eth_sendTransaction', { from: OWNER, to: tokenAddress, data: transferData(ALICE, 5n), gas: GAS.call }),
        await n.rpc<string>('eth_sendTransaction', { from: OWNER, to: tokenAddress, data: approveData(BOB, 6n), gas: GAS.call }),
        await n.rpc<string>('eth_sendTransaction', { from: OWNER, to: tokenAddress, data: transferData(BOB, 7n), gas: GAS.call }),
      ];
      expect(await changes(id)).to.deep.equal([]);
      await n.rpc('evm_mine');
      const block = await n.rpc<{ hash: string; number: string }>('eth_getBlockByNumber', 'latest', false);
      const logs = await changes(id);
      expect(logs.map((l) => [l.logIndex, l.transactionIndex, l.transactionHash])).to.deep.equal([
        ['0x0', '0x0', hashes[0]],
        ['0x1', '0x1', hashes[1]],
        ['0x2', '0x2', hashes[2]],
      ]);
      expect(logs.every((l) => l.blockHash === block.hash && l.blockNumber === block.number)).to.equal(true);
      const receipt = await n.rpc<{ logs: JsonLog[] }>('eth_getTransactionReceipt', hashes[2]);
      expect(receipt.logs).to.deep.equal([logs[2]]);
    });

    it('select by topic position, OR lists and address lists', async () => {
      const toBob = await n.rpc<string>('eth_newFilter', { topics: [TRANSFER, null, addressTopic(BOB)] });
      const either = await n.rpc<string>('eth_newFilter', { topics: [[TRANSFER, APPROVAL]] });
      const approvals = await n.rpc<string>('eth_newFilter', { address: [`0x${'11'.repeat(20)}`, tokenAddress], topics: [APPROVAL] });
      const elsewhere = await n.rpc<string>('eth_newFilter', { address: `0x${'11'.repeat(20)}` });
      const tooDeep = await n.rpc<string>('eth_newFilter', { topics: [TRANSFER, null, null, null] });
      const a = await transfer(ALICE);
      const b = await approve(BOB);
      const c = await transfer(BOB);
      expect(await changes(toBob)).to.deep.equal(c.logs);
      expect(await changes(either)).to.deep.equal([...a.logs, ...b.logs, ...c.logs]);
      expect(await changes(approvals)).to.deep.equal(b.logs);
      expect(await changes(elsewhere)).to.deep.equal([]);
      // Transfer has 3 topics; a 4-position filter cannot match it.
      expect(await changes(tooDeep)).to.deep.equal([]);
    });

    it('accept hex input in any case', async () => {
      const upper = (s: string) => `0x${s.slice(2).toUpperCase()}`;
      const id = await n.rpc<string>('eth_newFilter', { address: upper(tokenAddress), topics: [upper(TRANSFER)] });
      const t = await transfer(ALICE);
      expect(await changes(id)).to.deep.equal(t.logs);
    });

    it('collect only within numeric bounds: nothing before fromBlock, nothing past toBlock', async () => {
      const start = await head();
      const id = await n.rpc<string>('eth_newFilter', { fromBlock: hex(start + 2), toBlock: hex(start + 3) });
      const sent = [await transfer(ALICE), await transfer(ALICE), await transfer(ALICE), await transfer(ALICE)];
      expect(await changes(id)).to.deep.equal([...sent[1]!.logs, ...sent[2]!.logs]);
      await transfer(ALICE);
      expect(await changes(id)).to.deep.equal([]);
      const empty = await n.rpcError('eth_newFilter', { fromBlock: '0x5', toBlock: '0x4' });
      expect(empty).to.include({ code: -32602, message: 'invalid block range params' });
    });
  });

  describe('block and pending-transaction filters', () => {
    it('a block filter reports new block hashes in order, once', async () => {
      const id = await n.rpc<string>('eth_newBlockFilter');
      const start = await head();
      await n.rpc('evm_mine');
      await transfer(ALICE);
      await n.rpc('evm_mine');
      const expected = [];
      for (let i = start + 1; i <= start + 3; i++) expected.push((await n.rpc<{ hash: string }>('eth_getBlockByNumber', hex(i), false)).hash);
      expect(await changes<string>(id)).to.deep.equal(expected);
      expect(await changes<string>(id)).to.deep.equal([]);
      await n.rpc('evm_mine');
      expect(await changes<string>(id)).to.deep.equal([(await n.rpc<{ hash: string }>('eth_getBlockByNumber', 'latest', false)).hash]);
    });

    it('a pending-transaction filter reports each transaction once, even when automine mines it at once', async () => {
      const id = await n.rpc<string>('eth_newPendingTransactionFilter');
      const a = await transfer(ALICE);
      const b = await approve(BOB);
      expect(await changes<string>(id)).to.deep.equal([a.hash, b.hash]);
      expect(await changes<string>(id)).to.deep.equal([]);
      await n.rpc('evm_setAutomine', false);
      const c = await n.rpc<string>('eth_sendTransaction', { from: OWNER, to: ALICE, value: '0x1', gas: '0x5208' });
      expect(await changes<string>(id)).to.deep.equal([c]);
      await n.rpc('evm_mine');
      expect(await changes<string>(id)).to.deep.equal([]);
    });
  });

  describe('lifecycle', () => {
    it('uninstall answers true once, then false; the id is then unknown', async () => {
      const id = await n.rpc<string>('eth_newBlockFilter');
      expect(await n.rpc('eth_uninstallFilter', id)).to.equal(true);
      expect(await n.rpc('eth_uninstallFilter', id)).to.equal(false);
      expect(await n.rpcError('eth_getFilterChanges', id)).to.include({ code: -32000, message: 'filter not found' });
    });

    it('unknown ids: -32000 filter not found; malformed ids: -32602', async () => {
      expect(await n.rpcError('eth_getFilterChanges', '0x1')).to.include({ code: -32000, message: 'filter not found' });
      expect(await n.rpcError('eth_getFilterLogs', '0x1')).to.include({ code: -32000, message: 'filter not found' });
      expect(await n.rpc('eth_uninstallFilter', '0x1')).to.equal(false);
      const malformed = await n.rpcError('eth_getFilterChanges', '0x01');
      expect(malformed.code).to.equal(-32602);
      expect(malformed.message).to.contain('0 (filterId)');
      expect((await n.rpcError('eth_getFilterChanges')).code).to.equal(-32602);
    });

    it('ids are 128-bit QUANTITYs with no visible sequence, served under chain_ and eth_ names', async () => {
      const ids = [
        await n.rpc<string>('chain_newFilter', {}),
        await n.rpc<string>('eth_newBlockFilter'),
        await n.rpc<string>('chain_newPendingTransactionFilter'),
        await n.rpc<string>('eth_newFilter', {}),
      ];
      expect(new Set(ids).size).to.equal(4);
      for (const id of ids) {
        expect(id).to.match(/^0x(0|[1-9a-f][0-9a-f]*)$/);
        expect(BigInt(id) < 1n << 128n).to.equal(true);
      }
      const values = ids.map(BigInt);
      expect(values[1]! - values[0]!).to.not.equal(values[2]! - values[1]!);
      expect(await n.rpc('chain_getFilterChanges', ids[1])).to.deep.equal([]);
    });

    it('a filter not polled for the timeout (300 s by default) is removed; each poll restarts the clock', async () => {
      const ids = [await n.rpc<string>('eth_newFilter', {}), await n.rpc<string>('eth_newBlockFilter'), await n.rpc<string>('eth_newPendingTransactionFilter')];
      now += 299_000;
      for (const id of ids) expect(await changes(id)).to.deep.equal([]);
      now += 299_000;
      await transfer(ALICE);
      expect(await changes(ids[0]!)).to.have.length(1);
      now += 300_000;
      for (const id of ids) expect(await n.rpcError('eth_getFilterChanges', id)).to.include({ code: -32000, message: 'filter not found' });
      expect(await n.rpc('eth_uninstallFilter', ids[0])).to.equal(false);
    });

    it('the timeout is configurable (filterTimeout, seconds)', async () => {
      const short = node({ filterTimeout: 10, wallClock: () => now });
      const id = await short.rpc<string>('eth_newBlockFilter');
      now += 9_999;
      expect(await short.rpc('eth_getFilterChanges', id)).to.deep.equal([]);
      now += 10_000;
      expect(await short.rpcError('eth_getFilterChanges', id)).to.include({ message: 'filter not found' });
    });
  });

  describe('eth_getFilterLogs', () => {
    it('returns every log matching the filter now, as eth_getLogs would, without consuming changes', async () => {
      const criteria = { fromBlock: 'earliest', address: tokenAddress, topics: [TRANSFER] };
      const id = await n.rpc<string>('eth_newFilter', criteria);
      const a = await transfer(ALICE);
      await approve(BOB);
      const c = await transfer(BOB);
      const all = await n.rpc<JsonLog[]>('eth_getFilterLogs', id);
      expect(all).to.deep.equal(await n.rpc('eth_getLogs', criteria));
      expect(all).to.have.length(3); // the constructor's mint, then the two transfers
      expect(all[0]!.topics[1]).to.equal(addressTopic(`0x${'00'.repeat(20)}`));
      expect(await changes(id)).to.deep.equal([...a.logs, ...c.logs]);
    });

    it('by default (latest to latest) covers the head block only', async () => {
      const id = await n.rpc<string>('eth_newFilter', {});
      await transfer(ALICE);
      const last = await transfer(BOB);
      expect(await n.rpc('eth_getFilterLogs', id)).to.deep.equal(last.logs);
    });

    it('is an error for a block or pending-transaction filter', async () => {
      const id = await n.rpc<string>('eth_newBlockFilter');
      expect(await n.rpcError('eth_getFilterLogs', id)).to.include({ code: -32000, message: 'filter not found' });
    });
  });

  describe('eth_getLogs', () => {
    it('answers ranges given by numbers and tags, oldest first', async () => {
      const deployLogs = await n.rpc<JsonLog[]>('eth_getLogs', { fromBlock: 'earliest' });
      expect(deployLogs).to.have.length(1);
      const sent = [await transfer(ALICE), await approve(BOB), await transfer(BOB)];
      const all = await n.rpc<JsonLog[]>('eth_getLogs', { fromBlock: '0x0', toBlock: 'latest', address: tokenAddress });
      expect(all).to.deep.equal([...deployLogs, ...sent.flatMap((t) => t.logs)]);
      const middle = await n.rpc('eth_getLogs', { fromBlock: sent[1]!.blockNumber, toBlock: sent[2]!.blockNumber });
      expect(middle).to.deep.equal([...sent[1]!.logs, ...sent[2]!.logs]);
      expect(await n.rpc('eth_getLogs', {})).to.deep.equal(sent[2]!.logs);
      expect(await n.rpc('eth_getLogs', { fromBlock: 'earliest', topics: [null, null, addressTopic(ALICE)] })).to.deep.equal(sent[0]!.logs);
      expect(await n.rpc('chain_getLogs', { fromBlock: 'earliest', topics: [APPROVAL] })).to.deep.equal(sent[1]!.logs);
    });

    it('answers one block by hash; an unknown hash is -32000 unknown block', async () => {
      const t = await transfer(ALICE);
      const blockHash = t.logs[0]!.blockHash;
      expect(await n.rpc('eth_getLogs', { blockHash })).to.deep.equal(t.logs);
      expect(await n.rpc('eth_getLogs', { blockHash, topics: [APPROVAL] })).to.deep.equal([]);
      expect(await n.rpcError('eth_getLogs', { blockHash: `0x${'12'.repeat(32)}` })).to.include({ code: -32000, message: 'unknown block' });
      expect((await n.rpcError('eth_getLogs', { blockHash, fromBlock: '0x0' })).code).to.equal(-32602);
    });

    it('rejects reversed ranges and ranges past the head, as go-ethereum', async () => {
      const h = await head();
      expect(await n.rpcError('eth_getLogs', { fromBlock: hex(h), toBlock: hex(h - 1) })).to.include({
        code: -32602,
        message: 'invalid block range params',
      });
      expect(await n.rpcError('eth_getLogs', { fromBlock: '0x0', toBlock: hex(h + 1) })).to.include({
        code: -32602,
        message: 'block range extends beyond current head block',
      });
    });

    it('rejects more than 4 topic positions, naming the parameter', async () => {
      const error = await n.rpcError('eth_getLogs', { topics: [null, null, null, null, null] });
      expect(error.code).to.equal(-32602);
      expect(error.message).to.contain('0 (filter).topics').and.contain('exceed max topics');
    });

    it('caps the result size (maxLogs): -32005 naming the cap', async () => {
      const capped = node({ maxLogs: 2, wallClock: () => now });
      const address = await deployToken(capped);
      for (let i = 0; i < 2; i++) await transact(capped, OWNER, address, transferData(ALICE, 1n));
      const error = await capped.rpcError('eth_getLogs', { fromBlock: 'earliest', address });
      expect(error).to.include({ code: -32005, message: 'query returned more than 2 results' });
      expect(await capped.rpc('eth_getLogs', { fromBlock: '0x2', address })).to.have.length(2);
      const id = await capped.rpc<string>('eth_newFilter', { fromBlock: 'earliest' });
      expect((await capped.rpcError('eth_getFilterLogs', id)).code).to.equal(-32005);
    });
  });

  describe('chain reorganisation (evm_revert)', () => {
    async function snapshotOrSkip(ctx: Mocha.Context): Promise<string> {
      try {
        return await n.rpc<string>('evm_snapshot');
      } catch (error) {
        if ((error as { code?: number }).code === -32601) ctx.skip();
        throw error;
      }
    }

    it('log filters report reverted logs again with removed: true, then the new ones; block filters the new hashes', async function () {
      const logFilter = await n.rpc<string>('eth_newFilter', { address: tokenAddress });
      const blockFilter = await n.rpc<string>('eth_newBlockFilter');
      const otherFilter = await n.rpc<string>('eth_newFilter', { topics: [APPROVAL] });
      const snapshot = await snapshotOrSkip(this);
      const gone = [await transfer(ALICE, 10n), await transfer(BOB, 20n)];
      expect(await changes(logFilter)).to.deep.equal(gone.flatMap((t) => t.logs));
      const goneHashes = await changes<string>(blockFilter);
      expect(goneHashes).to.have.length(2);
      expect(await n.rpc('evm_revert', snapshot)).to.equal(true);
      const kept = await transfer(BOB, 30n);
      const removed = gone.flatMap((t) => t.logs).map((l) => ({ ...l, removed: true }));
      expect(await changes(logFilter)).to.deep.equal([...removed, ...kept.logs]);
      expect(await changes<string>(blockFilter)).to.deep.equal([kept.logs[0]!.blockHash]);
      expect(kept.logs[0]!.blockHash).to.not.equal(goneHashes[0]);
      expect(await changes(otherFilter)).to.deep.equal([]);
      // The reverted logs are gone from queries too.
      expect(await n.rpc('eth_getLogs', { fromBlock: 'earliest', topics: [TRANSFER, null, addressTopic(ALICE)] })).to.deep.equal([]);
    });

    it('a filter polled neither before nor after the logs sees them added then removed (go-ethereum order)', async function () {
      const id = await n.rpc<string>('eth_newFilter', { topics: [TRANSFER] });
      const snapshot = await snapshotOrSkip(this);
      const gone = await transfer(ALICE);
      await n.rpc('evm_revert', snapshot);
      expect(await changes(id)).to.deep.equal([...gone.logs, ...gone.logs.map((l) => ({ ...l, removed: true }))]);
    });

    it('log filters outside the dropped range report nothing', async function () {
      const snapshot = await snapshotOrSkip(this);
      await transfer(ALICE);
      const id = await n.rpc<string>('eth_newFilter', { fromBlock: hex((await head()) + 1) });
      await n.rpc('evm_revert', snapshot);
      expect(await changes(id)).to.deep.equal([]);
    });
  });
});
