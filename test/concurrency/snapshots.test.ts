/**
 * Snapshot and revert racing with sends: a revert that lands while sends are in flight leaves a
 * consistent chain. Each send is either in the reverted-away part (no receipt, no trace), still
 * pending in the pool, or mined once; sending the reverted-away ones again re-applies them and
 * every transaction ends up mined exactly once, in nonce order.
 */
import { expect } from 'chai';
import type { Wallet } from 'ethers';
import { type ChainSimProvider, type ChainSimServer, createProvider, createServer } from '../../src/index.js';
import { postJson } from '../helpers/rpc.js';
import { type Batch, checkChain, checkLookups, defaultWallets, signTransfer } from './chainCheck.js';

const PER_ROUND = 30;

type Send = (method: string, params: unknown[]) => Promise<unknown>;

/**
 * One round: snapshot, then PER_ROUND sends with the revert slipped in among them; then check,
 * resend what was reverted away, check again. Returns how many sends the revert took away.
 */
async function round(send: Send, batch: Batch, wallet: Wallet, revertMethod: 'evm_revert' | 'chain_revert', revertAt: number): Promise<number> {
  const snapshot = (await send('evm_snapshot', [])) as string;
  const first = Number(await send('eth_getTransactionCount', [wallet.address, 'latest']));
  const raws = await Promise.all(Array.from({ length: PER_ROUND }, (_, i) => signTransfer(wallet, first + i)));

  const inFlight: Array<Promise<unknown>> = [];
  raws.forEach((raw, i) => {
    if (i === revertAt) inFlight.push(send(revertMethod, [snapshot]));
    inFlight.push(send('eth_sendRawTransaction', [raw]));
  });
  const settled = await Promise.allSettled(inFlight);
  const failures = settled.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason));
  expect(failures, 'no send or revert failed').to.deep.equal([]);

  const hashes = settled.map((s) => (s as PromiseFulfilledResult<unknown>).value).filter((v): v is string => typeof v === 'string');
  expect(hashes).to.have.length(PER_ROUND);
  let { mined } = await checkChain(batch);
  await checkLookups(batch, hashes, mined);

  // Sent again, the reverted-away transactions are re-applied; the pooled ones follow once the gap closes.
  const lookups = (await batch(hashes.map((h) => ['eth_getTransactionByHash', [h]] as const))) as Array<unknown | null>;
  const lost = raws.filter((_, i) => lookups[i] === null);
  for (const raw of lost) await send('eth_sendRawTransaction', [raw]);
  ({ mined } = await checkChain(batch));
  await checkLookups(batch, hashes, mined);
  const ours = mined.filter((tx) => hashes.includes(tx.hash));
  expect(
    ours.map((tx) => tx.nonce),
    'every transaction mined once, in nonce order',
  ).to.deep.equal(Array.from({ length: PER_ROUND }, (_, i) => first + i));
  expect(Number(await send('eth_getTransactionCount', [wallet.address, 'latest']))).to.equal(first + PER_ROUND);
  return lost.length;
}

describe('concurrency: snapshot and revert racing with sends', function () {
  this.timeout(60_000);

  const [wallet] = defaultWallets(1) as [Wallet];

  describe('in process', () => {
    let provider: ChainSimProvider;
    let send: Send;
    let batch: Batch;

    before(async () => {
      provider = createProvider({ quiet: true, hardfork: 'prague' });
      await provider.ready();
      send = (method, params) => provider.request({ method, params });
      batch = (calls) => Promise.all(calls.map(([method, params]) => send(method, params)));
    });
    after(() => provider?.disconnect());

    for (const [revertMethod, revertAt] of [
      ['evm_revert', 0],
      ['evm_revert', 7],
      ['chain_revert', 15],
      ['chain_revert', 29],
      ['evm_revert', 22],
    ] as const) {
      it(`${revertMethod} issued among the sends at position ${revertAt}`, async () => {
        // In process the chain's queue takes requests in call order: the sends before the revert
        // were mined and are reverted away; the ones after wait in the pool for the gap to close.
        expect(await round(send, batch, wallet, revertMethod, revertAt)).to.equal(revertAt);
      });
    }

    it('a revert to a snapshot taken in the middle of a burst leaves a consistent chain', async () => {
      const first = Number(await send('eth_getTransactionCount', [wallet.address, 'latest']));
      const raws = await Promise.all(Array.from({ length: PER_ROUND }, (_, i) => signTransfer(wallet, first + i)));
      const inFlight = raws.map((raw, i) => {
        const sent = send('eth_sendRawTransaction', [raw]);
        // A snapshot mid-burst, and a revert to it issued as soon as its id is known.
        return i === 10
          ? send('evm_snapshot', [])
              .then((id) => send('evm_revert', [id]))
              .then(() => sent)
          : sent;
      });
      const hashes = (await Promise.all(inFlight)) as string[];
      const { mined } = await checkChain(batch);
      await checkLookups(batch, hashes, mined);
    });
  });

  describe('over HTTP', () => {
    let server: ChainSimServer;
    let send: Send;
    let batch: Batch;

    before(async () => {
      server = await createServer({ quiet: true, hardfork: 'prague' });
      const { url } = await server.listen(0, '127.0.0.1');
      send = async (method, params) => {
        const reply = JSON.parse((await postJson(url, { jsonrpc: '2.0', id: 1, method, params })).body) as { result?: unknown; error?: { message: string } };
        if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
        return reply.result;
      };
      batch = (calls) => Promise.all(calls.map(([method, params]) => send(method, params)));
    });
    after(() => server?.close());

    for (const [revertMethod, revertAt] of [
      ['evm_revert', 5],
      ['chain_revert', 20],
    ] as const) {
      it(`${revertMethod} arriving among concurrent HTTP sends at position ${revertAt}`, async () => {
        // Arrival order over sockets is not call order, so how many are reverted away varies.
        expect(await round(send, batch, wallet, revertMethod, revertAt)).to.be.within(0, PER_ROUND);
      });
    }
  });
});
