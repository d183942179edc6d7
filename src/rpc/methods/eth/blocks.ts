/**
 * Reading the chain's blocks and what they hold: headers, transactions (by hash, by block and
 * index, by sender and nonce; pending ones from the pool), receipts, uncles. Blocks,
 * transactions and receipts are read as history (Chain.findHistory): on a fork, at or below the
 * pinned block, the upstream's.
 */
import type { BlockRef } from '../../../engine/chain.js';
import type { BlockRecord } from '../../../engine/blocks/blocks.js';
import { address, blockNumberOrTag, blockRef, boolean, hash, index, uint64 } from '../../codec.js';
import { encodeQuantity } from '../../encode.js';
import { asInPendingBlock, formatBlock, formatHeader, formatPendingBlock, formatReceipt, formatTransaction, formatUncle } from '../../format.js';
import type { Json, JsonObject } from '../../json.js';
import { type RpcContext, defineMethod, param } from '../../method.js';

/** The block a by-hash getter (or a by-number getter other than for `pending`) names. */
function blockOrNull(ctx: RpcContext, ref: BlockRef): Promise<BlockRecord | undefined> {
  return ctx.chain.findHistory(ref);
}

const isPending = (ref: BlockRef): boolean => 'tag' in ref && ref.tag === 'pending';

/** A by-number getter's block: `pending` is the next block as the pool would make it now. */
async function blockByNumber(ctx: RpcContext, ref: BlockRef): Promise<BlockRecord | undefined> {
  return isPending(ref) ? ctx.chain.pendingBlock() : blockOrNull(ctx, ref);
}

function transactionAt(mined: BlockRecord | undefined, i: number): Json {
  const tx = mined?.block.transactions[i];
  return mined && tx ? formatTransaction(tx, mined.senders[i]!, { mined, index: i }) : null;
}

export const blockMethods = [
  defineMethod({ name: 'chain_blockNumber', aliases: ['eth_blockNumber'] }, [], ({ chain }) => encodeQuantity(chain.head.number)),

  defineMethod(
    { name: 'chain_getBlockByHash', aliases: ['eth_getBlockByHash'] },
    [param('blockHash', hash), param('fullTransactions', boolean)],
    async (ctx, h, full) => {
      const mined = await blockOrNull(ctx, { hash: h });
      return mined ? formatBlock(mined, full) : null;
    },
  ),
  defineMethod(
    { name: 'chain_getBlockByNumber', aliases: ['eth_getBlockByNumber'] },
    [param('block', blockNumberOrTag), param('fullTransactions', boolean)],
    async (ctx, ref, full) => {
      const mined = await blockByNumber(ctx, ref);
      if (!mined) return null;
      return isPending(ref) ? formatPendingBlock(mined, full) : formatBlock(mined, full);
    },
  ),
  defineMethod(
    { name: 'chain_getBlockTransactionCountByHash', aliases: ['eth_getBlockTransactionCountByHash'] },
    [param('blockHash', hash)],
    async (ctx, h) => {
      const mined = await blockOrNull(ctx, { hash: h });
      return mined ? encodeQuantity(mined.block.transactions.length) : null;
    },
  ),
  defineMethod(
    { name: 'chain_getBlockTransactionCountByNumber', aliases: ['eth_getBlockTransactionCountByNumber'] },
    [param('block', blockNumberOrTag)],
    async (ctx, ref) => {
      const mined = await blockByNumber(ctx, ref);
      return mined ? encodeQuantity(mined.block.transactions.length) : null;
    },
  ),
  defineMethod({ name: 'chain_getHeaderByNumber', aliases: ['eth_getHeaderByNumber'] }, [param('block', blockNumberOrTag)], async ({ chain }, ref) => {
    const mined = 'tag' in ref && ref.tag === 'pending' ? await chain.pendingBlock() : await chain.findHistory(ref);
    return mined ? formatHeader(mined.block.header, 'tag' in ref && ref.tag === 'pending' ? undefined : mined.hashHex) : null;
  }),
  defineMethod({ name: 'chain_getHeaderByHash', aliases: ['eth_getHeaderByHash'] }, [param('blockHash', hash)], async ({ chain }, h) => {
    const mined = await chain.findHistory({ hash: h, requireCanonical: false });
    return mined ? formatHeader(mined.block.header, mined.hashHex) : null;
  }),

  defineMethod({ name: 'chain_getTransactionByHash', aliases: ['eth_getTransactionByHash'] }, [param('transactionHash', hash)], async ({ chain }, h) => {
    const location = chain.transaction(h);
    if (location) return transactionAt(location.mined, location.index);
    const pending = chain.pool.get(h);
    if (pending) return formatTransaction(pending.tx, pending.sender, undefined);
    // Not ours, mined or pending: on a fork, the upstream's history may hold it.
    const older = await chain.historyTransaction(h);
    return older ? transactionAt(older.mined, older.index) : null;
  }),
  defineMethod(
    { name: 'chain_getTransactionByBlockHashAndIndex', aliases: ['eth_getTransactionByBlockHashAndIndex'] },
    [param('blockHash', hash), param('index', index)],
    async (ctx, h, i) => transactionAt(await blockOrNull(ctx, { hash: h }), i),
  ),
  defineMethod(
    { name: 'chain_getTransactionByBlockNumberAndIndex', aliases: ['eth_getTransactionByBlockNumberAndIndex'] },
    [param('block', blockNumberOrTag), param('index', index)],
    async (ctx, ref, i) => {
      const tx = transactionAt(await blockByNumber(ctx, ref), i);
      return tx && isPending(ref) ? asInPendingBlock(tx as JsonObject) : tx;
    },
  ),
  defineMethod(
    { name: 'chain_getTransactionBySenderAndNonce', aliases: ['eth_getTransactionBySenderAndNonce'] },
    [param('address', address), param('nonce', uint64)],
    async ({ chain }, who, nonce) => {
      const { pending, queued } = await chain.poolContent();
      const pooled = [...pending, ...queued].find((e) => e.sender.equals(who) && e.tx.nonce === nonce);
      if (pooled) return formatTransaction(pooled.tx, pooled.sender, undefined);
      // Newest first: a simulator's chain is short, and the sender's latest nonces are the ones asked for.
      for (let n = chain.head.number; n > 0n; n--) {
        const mined = chain.find({ number: n })!;
        const index = mined.block.transactions.findIndex((tx, i) => tx.nonce === nonce && mined.senders[i]!.equals(who));
        if (index >= 0) return formatTransaction(mined.block.transactions[index]!, who, { mined, index });
      }
      return null;
    },
  ),
  defineMethod({ name: 'chain_getTransactionReceipt', aliases: ['eth_getTransactionReceipt'] }, [param('transactionHash', hash)], async ({ chain }, h) => {
    // A pending transaction has no receipt yet, and is nobody's history.
    if (chain.pool.get(h)) return null;
    const location = await chain.historyTransaction(h);
    return location ? formatReceipt(await chain.withReceipts(location.mined), location.index) : null;
  }),
  // No receipts for the pending block, as for a pending transaction: they come when it is mined.
  defineMethod({ name: 'chain_getBlockReceipts', aliases: ['eth_getBlockReceipts'] }, [param('block', blockRef)], async (ctx, ref) => {
    const found = isPending(ref) ? undefined : await blockOrNull(ctx, ref);
    if (!found) return null;
    const mined = await ctx.chain.withReceipts(found);
    return mined.receipts.map((_, i) => formatReceipt(mined, i));
  }),

  // Uncles exist only in proof-of-work blocks; instant-mined blocks have none.
  defineMethod(
    { name: 'chain_getUncleByBlockHashAndIndex', aliases: ['eth_getUncleByBlockHashAndIndex'] },
    [param('blockHash', hash), param('index', index)],
    async (ctx, h, i) => uncleAt(await blockOrNull(ctx, { hash: h }), i),
  ),
  defineMethod(
    { name: 'chain_getUncleByBlockNumberAndIndex', aliases: ['eth_getUncleByBlockNumberAndIndex'] },
    [param('block', blockNumberOrTag), param('index', index)],
    async (ctx, ref, i) => uncleAt(await blockByNumber(ctx, ref), i),
  ),
  defineMethod({ name: 'chain_getUncleCountByBlockHash', aliases: ['eth_getUncleCountByBlockHash'] }, [param('blockHash', hash)], async (ctx, h) => {
    const mined = await blockOrNull(ctx, { hash: h });
    return mined ? encodeQuantity(mined.block.uncleHeaders.length) : null;
  }),
  defineMethod(
    { name: 'chain_getUncleCountByBlockNumber', aliases: ['eth_getUncleCountByBlockNumber'] },
    [param('block', blockNumberOrTag)],
    async (ctx, ref) => {
      const mined = await blockByNumber(ctx, ref);
      return mined ? encodeQuantity(mined.block.uncleHeaders.length) : null;
    },
  ),
];

function uncleAt(mined: BlockRecord | undefined, i: number): Json {
  const uncle = mined?.block.uncleHeaders[i];
  return uncle ? formatUncle(uncle) : null;
}
