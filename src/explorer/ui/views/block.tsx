/** One block: its header fields and its transactions. */
import { gwei, toBig, toHex, toNumber, when } from '../format.js';
import { AddressLink, BlockLink, Show, useLoad } from '../hooks.js';
import { rpc } from '../rpc.js';
import { type BlockSummary, TxTable } from './blocks.js';

export function BlockView({ id }: { id: string }) {
  const block = useLoad(async () => {
    const found =
      id.startsWith('0x') && id.length === 66
        ? await rpc<BlockSummary | null>('eth_getBlockByHash', [id, true])
        : await rpc<BlockSummary | null>('eth_getBlockByNumber', [toHex(BigInt(id)), true]);
    if (!found) throw new Error(`block ${id} not found`);
    return found;
  }, [id]);
  return (
    <Show loaded={block}>
      {(b) => {
        const number = toNumber(b.number);
        return (
          <section>
            <h2>Block {number}</h2>
            <nav class="pager">
              {number > 0 ? <BlockLink number={number - 1} /> : <span />} <span class="muted">←→</span> <BlockLink number={number + 1} />
            </nav>
            <dl class="fields">
              <dt>hash</dt>
              <dd class="mono">{b.hash}</dd>
              <dt>time</dt>
              <dd>{when(b.timestamp)}</dd>
              <dt>miner</dt>
              <dd>
                <AddressLink address={b.miner} label={b.miner} />
              </dd>
              <dt>gas used</dt>
              <dd>
                {toNumber(b.gasUsed).toLocaleString('en-US')} of {toNumber(b.gasLimit).toLocaleString('en-US')}
              </dd>
              {b.baseFeePerGas && (
                <>
                  <dt>base fee</dt>
                  <dd>{gwei(toBig(b.baseFeePerGas))}</dd>
                </>
              )}
              <dt>transactions</dt>
              <dd>{b.transactions.length}</dd>
            </dl>
            {b.transactions.length > 0 && <TxTable transactions={b.transactions} />}
          </section>
        );
      }}
    </Show>
  );
}
