/**
 * Raw consensus data, as go-ethereum serves it: debug_getRawBlock, debug_getRawHeader,
 * debug_getRawReceipts (a block by number, tag or hash), debug_getRawTransaction and the
 * eth_getRawTransactionBy* getters (a transaction's EIP-2718 encoding). Those sit here, not in
 * eth/, with the helpers they share: eth_getRawTransactionByHash's handler is debug_getRawTransaction's.
 * Blocks and transactions are read as history: on a fork, the upstream's at or below the pinned block.
 */
import type { BlockRecord } from '../../../engine/blocks/blocks.js';
import type { BlockRef } from '../../../engine/chain.js';
import { encodeReceiptRecord } from '../../../engine/blocks/rawData.js';
import { blockNumberOrTag, blockRef, hash, index } from '../../codec.js';
import { encodeData } from '../../encode.js';
import { serverError } from '../../errors.js';
import type { Json } from '../../json.js';
import { type RpcContext, defineMethod, param } from '../../method.js';

/**
 * The block named. go-ethereum: an unknown hash is an error; an unknown number reads as no
 * block, so its raw block and header are empty bytes ("0x") and its receipts none.
 */
async function rawBlock({ chain }: RpcContext, ref: BlockRef): Promise<BlockRecord | undefined> {
  if ('tag' in ref && ref.tag === 'pending') return chain.pendingBlock();
  const found = await chain.findHistory(ref);
  if (!found && 'hash' in ref) throw serverError(`block ${ref.hash} not found`);
  return found;
}

function rawTransaction(mined: BlockRecord | undefined, i: number): Json {
  const tx = mined?.block.transactions[i];
  return tx ? encodeData(tx.serialize()) : '0x';
}

async function byHash({ chain }: RpcContext, txHash: string): Promise<Json> {
  const pending = chain.pool.get(txHash);
  if (pending) return encodeData(pending.tx.serialize());
  const location = await chain.historyTransaction(txHash);
  return encodeData(location ? location.mined.block.transactions[location.index]!.serialize() : new Uint8Array());
}

export const rawDataMethods = [
  defineMethod('debug_getRawBlock', [param('block', blockRef)], async (ctx, ref) => {
    const mined = await rawBlock(ctx, ref);
    return encodeData(mined ? mined.block.serialize() : new Uint8Array());
  }),
  defineMethod('debug_getRawHeader', [param('block', blockRef)], async (ctx, ref) => {
    const mined = await rawBlock(ctx, ref);
    return encodeData(mined ? mined.block.header.serialize() : new Uint8Array());
  }),
  defineMethod('debug_getRawReceipts', [param('block', blockRef)], async (ctx, ref) => {
    const found = await rawBlock(ctx, ref);
    const mined = found && (await ctx.chain.withReceipts(found));
    return (mined?.receipts ?? []).map((receipt) => encodeData(encodeReceiptRecord(receipt)));
  }),
  // go-ethereum answers empty bytes ("0x") for an unknown transaction or index, as for an unknown block.
  defineMethod('debug_getRawTransaction', [param('transactionHash', hash)], byHash),
  defineMethod({ name: 'chain_getRawTransactionByHash', aliases: ['eth_getRawTransactionByHash'] }, [param('transactionHash', hash)], byHash),
  defineMethod(
    { name: 'chain_getRawTransactionByBlockHashAndIndex', aliases: ['eth_getRawTransactionByBlockHashAndIndex'] },
    [param('blockHash', hash), param('index', index)],
    async ({ chain }, blockHash, i) => rawTransaction(await chain.findHistory({ hash: blockHash }), i),
  ),
  defineMethod(
    { name: 'chain_getRawTransactionByBlockNumberAndIndex', aliases: ['eth_getRawTransactionByBlockNumberAndIndex'] },
    [param('block', blockNumberOrTag), param('index', index)],
    async (ctx, ref, i) => rawTransaction('tag' in ref && ref.tag === 'pending' ? await ctx.chain.pendingBlock() : await ctx.chain.findHistory(ref), i),
  ),
];
