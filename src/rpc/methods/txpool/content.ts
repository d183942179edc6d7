/** The transaction pool as go-ethereum's txpool_* methods show it: pending (runnable now) and queued (behind a nonce gap). */
import { toChecksumAddress } from '@ethereumjs/util';
import type { PooledTransaction } from '../../../engine/transactions/txpool.js';
import { maxFeePerGas } from '../../../engine/transactions/validation.js';
import { address } from '../../codec.js';
import { encodeQuantity } from '../../encode.js';
import { formatTransaction } from '../../format.js';
import type { Json, JsonObject } from '../../json.js';
import { defineMethod, param } from '../../method.js';

/** go-ethereum's layout: checksummed sender → decimal nonce → value. */
function bySenderAndNonce(entries: readonly PooledTransaction[], value: (entry: PooledTransaction) => Json): JsonObject {
  const out: Record<string, JsonObject> = {};
  for (const entry of entries) {
    const sender = toChecksumAddress(entry.sender.toString());
    (out[sender] ??= {})[entry.tx.nonce.toString()] = value(entry);
  }
  return out;
}

/** txpool_inspect's one-line summary, worded as go-ethereum words it. */
function summary({ tx }: PooledTransaction): string {
  const target = tx.to ? toChecksumAddress(tx.to.toString()) : 'contract creation';
  return `${target}: ${tx.value} wei + ${tx.gasLimit} gas × ${maxFeePerGas(tx)} wei`;
}

const details = (entry: PooledTransaction): Json => formatTransaction(entry.tx, entry.sender, undefined);

export const txpoolMethods = [
  defineMethod({ name: 'chain_txpoolStatus', aliases: ['txpool_status'] }, [], async ({ chain }) => {
    const { pending, queued } = await chain.poolContent();
    return { pending: encodeQuantity(pending.length), queued: encodeQuantity(queued.length) };
  }),
  defineMethod({ name: 'chain_txpoolContent', aliases: ['txpool_content'] }, [], async ({ chain }) => {
    const { pending, queued } = await chain.poolContent();
    return { pending: bySenderAndNonce(pending, details), queued: bySenderAndNonce(queued, details) };
  }),
  defineMethod({ name: 'chain_txpoolInspect', aliases: ['txpool_inspect'] }, [], async ({ chain }) => {
    const { pending, queued } = await chain.poolContent();
    return { pending: bySenderAndNonce(pending, summary), queued: bySenderAndNonce(queued, summary) };
  }),
  defineMethod('txpool_contentFrom', [param('address', address)], async ({ chain }, who) => {
    const { pending, queued } = await chain.poolContent();
    const byNonce = (entries: typeof pending): JsonObject => {
      const out: JsonObject = {};
      for (const e of entries) if (e.sender.equals(who)) out[e.tx.nonce.toString()] = formatTransaction(e.tx, e.sender, undefined);
      return out;
    };
    return { pending: byNonce(pending), queued: byNonce(queued) };
  }),
];
