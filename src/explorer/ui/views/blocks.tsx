/**
 * Blocks and transactions, newest first and live. A page asks for its own blocks only (one
 * JSON-RPC batch of PAGE_SIZE eth_getBlockByNumber), so a chain of a million blocks opens as
 * fast as a chain of ten.
 */
import { ether, short, toBig, toHex, toNumber, when } from '../format.js';
import { AddressLink, BlockLink, Show, TxLink, useLive, useLoad } from '../hooks.js';
import { rpcBatch } from '../rpc.js';

export const PAGE_SIZE = 20;

export interface BlockSummary {
  readonly number: string;
  readonly hash: string;
  readonly timestamp: string;
  readonly gasUsed: string;
  readonly gasLimit: string;
  readonly baseFeePerGas?: string;
  readonly miner: string;
  readonly transactions: ReadonlyArray<TxSummary>;
}

export interface TxSummary {
  readonly hash: string;
  readonly from: string;
  readonly to: string | null;
  readonly value: string;
  readonly input: string;
  readonly blockNumber: string | null;
}

/** Blocks `top`, `top - 1`, ... (PAGE_SIZE of them, fewer at genesis), with their transactions. */
export async function loadBlocks(top: number): Promise<BlockSummary[]> {
  const numbers = Array.from({ length: Math.min(PAGE_SIZE, top + 1) }, (_, i) => top - i);
  const blocks = await rpcBatch<BlockSummary | null>(numbers.map((n) => ['eth_getBlockByNumber', [toHex(n), true]] as const));
  return blocks.filter((b): b is BlockSummary => b !== null);
}

function Pager({ page, pages }: { page: number; pages: number }) {
  return (
    <nav class="pager">
      {page > 0 ? <a href={`#/blocks/${page - 1}`}>← newer</a> : <span class="muted">← newer</span>}
      <span>
        page {page + 1} of {pages.toLocaleString('en-US')}
      </span>
      {page + 1 < pages ? <a href={`#/blocks/${page + 1}`}>older →</a> : <span class="muted">older →</span>}
    </nav>
  );
}

export function BlocksView({ page, forkBlock }: { page: number; forkBlock: number | undefined }) {
  const live = useLive();
  const top = Math.max(-1, live.head - page * PAGE_SIZE);
  // While on the first page, new heads move it; older pages stay put under the reader.
  const blocks = useLoad(() => (top < 0 ? Promise.resolve([]) : loadBlocks(top)), [top, page === 0 ? live.tick : 0]);
  const pages = Math.ceil((live.head + 1) / PAGE_SIZE);
  const transactions = blocks.state === 'done' ? blocks.value.flatMap((b) => b.transactions) : [];
  return (
    <section>
      {live.pending.length > 0 && (
        <>
          <h2>Pending transactions</h2>
          <div class="pending">
            <TxTable transactions={live.pending} />
          </div>
        </>
      )}
      <h2>Blocks</h2>
      <Pager page={page} pages={pages} />
      <Show loaded={blocks}>
        {(list) => (
          <table class="blocks">
            <thead>
              <tr>
                <th>block</th>
                <th>hash</th>
                <th>time</th>
                <th class="num">txs</th>
                <th class="num">gas used</th>
              </tr>
            </thead>
            <tbody>
              {list.map((b) => (
                <tr key={b.hash} data-block={toNumber(b.number)}>
                  <td>
                    <BlockLink number={toNumber(b.number)} />
                    {forkBlock !== undefined && toNumber(b.number) <= forkBlock && <span class="tag">remote</span>}
                  </td>
                  <td class="mono">{short(b.hash, 8)}</td>
                  <td>{when(b.timestamp)}</td>
                  <td class="num">{b.transactions.length}</td>
                  <td class="num">{toNumber(b.gasUsed).toLocaleString('en-US')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Show>
      <h2>Transactions in these blocks</h2>
      {transactions.length === 0 ? <p class="muted">No transactions in these blocks.</p> : <TxTable transactions={transactions} />}
    </section>
  );
}

export function TxTable({ transactions }: { transactions: readonly TxSummary[] }) {
  return (
    <table class="transactions">
      <thead>
        <tr>
          <th>hash</th>
          <th>block</th>
          <th>from</th>
          <th>to</th>
          <th class="num">value</th>
        </tr>
      </thead>
      <tbody>
        {transactions.map((tx) => (
          <tr key={tx.hash} data-tx={tx.hash}>
            <td>
              <TxLink hash={tx.hash} />
            </td>
            <td>{tx.blockNumber ? <BlockLink number={toNumber(tx.blockNumber)} /> : <span class="muted">pending</span>}</td>
            <td>
              <AddressLink address={tx.from} />
            </td>
            <td>{tx.to ? <AddressLink address={tx.to} /> : <span class="tag">create</span>}</td>
            <td class="num">{ether(toBig(tx.value))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
