/** Reading chain data: state at a block, blocks, transactions, receipts, uncles. */
import { bytesToBigInt } from '@ethereumjs/util';
import type { BlockRef } from '../../../engine/chain.js';
import type { MinedBlock } from '../../../engine/blocks/blocks.js';
import { address, arrayOf, blockNumberOrTag, blockRef, boolean, hash, index, storageSlot } from '../../codec.js';
import { encodeData, encodeQuantity } from '../../encode.js';
import { asInPendingBlock, formatBlock, formatPendingBlock, formatReceipt, formatTransaction, formatUncle } from '../../format.js';
import type { Json, JsonObject } from '../../json.js';
import { type RpcContext, defineMethod, optionalParam, param } from '../../method.js';

const LATEST: BlockRef = { tag: 'latest' };
const at = (ref: BlockRef | undefined) => ref ?? LATEST;

/** The block a by-hash getter (or a by-number getter other than for `pending`) names. */
function blockOrNull(ctx: RpcContext, ref: BlockRef): MinedBlock | undefined {
  return ctx.chain.find(ref);
}

const isPending = (ref: BlockRef): boolean => 'tag' in ref && ref.tag === 'pending';

/** A by-number getter's block: `pending` is the next block as the pool would make it now. */
async function blockByNumber(ctx: RpcContext, ref: BlockRef): Promise<MinedBlock | undefined> {
  return isPending(ref) ? ctx.chain.pendingBlock() : blockOrNull(ctx, ref);
}

function transactionAt(mined: MinedBlock | undefined, i: number): Json {
  const tx = mined?.block.transactions[i];
  return mined && tx ? formatTransaction(tx, mined.senders[i]!, { mined, index: i }) : null;
}

/**
 * A storage key of eth_getProof, and how the answer names it: go-ethereum echoes a 32-byte
 * key as given and writes a shorter one as a QUANTITY.
 */
const proofKey = (value: unknown, path: string): { slot: Uint8Array; label: string } => {
  const slot = storageSlot(value, path);
  const digits = (value as string).slice(2);
  return { slot, label: digits.length === 64 ? encodeData(slot) : encodeQuantity(bytesToBigInt(slot)) };
};

export const readMethods = [
  defineMethod({ name: 'chain_blockNumber', aliases: ['eth_blockNumber'] }, [], ({ chain }) => encodeQuantity(chain.head.number)),

  defineMethod(
    { name: 'chain_getBalance', aliases: ['eth_getBalance'] },
    [param('address', address), optionalParam('block', blockRef)],
    async ({ chain }, who, ref) => encodeQuantity(await chain.getBalance(who, at(ref))),
  ),
  defineMethod(
    { name: 'chain_getTransactionCount', aliases: ['eth_getTransactionCount'] },
    [param('address', address), optionalParam('block', blockRef)],
    async ({ chain }, who, ref) => encodeQuantity(await chain.getTransactionCount(who, at(ref))),
  ),
  defineMethod(
    { name: 'chain_getCode', aliases: ['eth_getCode'] },
    [param('address', address), optionalParam('block', blockRef)],
    async ({ chain }, who, ref) => encodeData(await chain.getCode(who, at(ref))),
  ),
  defineMethod(
    { name: 'chain_getStorageAt', aliases: ['eth_getStorageAt'] },
    [param('address', address), param('position', storageSlot), optionalParam('block', blockRef)],
    async ({ chain }, who, slot, ref) => encodeData(await chain.getStorageAt(who, slot, at(ref))),
  ),

  defineMethod(
    { name: 'chain_getProof', aliases: ['eth_getProof'] },
    [param('address', address), param('storageKeys', arrayOf(proofKey, 1000)), optionalParam('block', blockRef)],
    async ({ chain }, who, keys, ref) => {
      const proof = await chain.getProof(
        who,
        keys.map((key) => key.slot),
        at(ref),
      );
      // ethereumjs lists no storage for an account that does not exist: go-ethereum gives each key an empty proof.
      return {
        ...proof,
        storageProof: keys.map((key, i) => {
          const item = proof.storageProof[i];
          return { key: key.label, value: encodeQuantity(BigInt(item?.value ?? 0)), proof: item?.proof ?? [] };
        }),
      };
    },
  ),

  defineMethod(
    { name: 'chain_getBlockByHash', aliases: ['eth_getBlockByHash'] },
    [param('blockHash', hash), param('fullTransactions', boolean)],
    (ctx, h, full) => {
      const mined = blockOrNull(ctx, { hash: h });
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
  defineMethod({ name: 'chain_getBlockTransactionCountByHash', aliases: ['eth_getBlockTransactionCountByHash'] }, [param('blockHash', hash)], (ctx, h) => {
    const mined = blockOrNull(ctx, { hash: h });
    return mined ? encodeQuantity(mined.block.transactions.length) : null;
  }),
  defineMethod(
    { name: 'chain_getBlockTransactionCountByNumber', aliases: ['eth_getBlockTransactionCountByNumber'] },
    [param('block', blockNumberOrTag)],
    async (ctx, ref) => {
      const mined = await blockByNumber(ctx, ref);
      return mined ? encodeQuantity(mined.block.transactions.length) : null;
    },
  ),

  defineMethod({ name: 'chain_getTransactionByHash', aliases: ['eth_getTransactionByHash'] }, [param('transactionHash', hash)], ({ chain }, h) => {
    const location = chain.transaction(h);
    if (location) return transactionAt(location.mined, location.index);
    const pending = chain.pool.get(h);
    return pending ? formatTransaction(pending.tx, pending.sender, undefined) : null;
  }),
  defineMethod(
    { name: 'chain_getTransactionByBlockHashAndIndex', aliases: ['eth_getTransactionByBlockHashAndIndex'] },
    [param('blockHash', hash), param('index', index)],
    (ctx, h, i) => transactionAt(blockOrNull(ctx, { hash: h }), i),
  ),
  defineMethod(
    { name: 'chain_getTransactionByBlockNumberAndIndex', aliases: ['eth_getTransactionByBlockNumberAndIndex'] },
    [param('block', blockNumberOrTag), param('index', index)],
    async (ctx, ref, i) => {
      const tx = transactionAt(await blockByNumber(ctx, ref), i);
      return tx && isPending(ref) ? asInPendingBlock(tx as JsonObject) : tx;
    },
  ),
  defineMethod({ name: 'chain_getTransactionReceipt', aliases: ['eth_getTransactionReceipt'] }, [param('transactionHash', hash)], ({ chain }, h) => {
    const location = chain.transaction(h);
    return location ? formatReceipt(location.mined, location.index) : null;
  }),
  // No receipts for the pending block, as for a pending transaction: they come when it is mined.
  defineMethod({ name: 'chain_getBlockReceipts', aliases: ['eth_getBlockReceipts'] }, [param('block', blockRef)], (ctx, ref) => {
    const mined = isPending(ref) ? undefined : blockOrNull(ctx, ref);
    return mined ? mined.receipts.map((_, i) => formatReceipt(mined, i)) : null;
  }),

  // Uncles exist only in proof-of-work blocks; instant-mined blocks have none.
  defineMethod(
    { name: 'chain_getUncleByBlockHashAndIndex', aliases: ['eth_getUncleByBlockHashAndIndex'] },
    [param('blockHash', hash), param('index', index)],
    (ctx, h, i) => uncleAt(blockOrNull(ctx, { hash: h }), i),
  ),
  defineMethod(
    { name: 'chain_getUncleByBlockNumberAndIndex', aliases: ['eth_getUncleByBlockNumberAndIndex'] },
    [param('block', blockNumberOrTag), param('index', index)],
    async (ctx, ref, i) => uncleAt(await blockByNumber(ctx, ref), i),
  ),
  defineMethod({ name: 'chain_getUncleCountByBlockHash', aliases: ['eth_getUncleCountByBlockHash'] }, [param('blockHash', hash)], (ctx, h) => {
    const mined = blockOrNull(ctx, { hash: h });
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

function uncleAt(mined: MinedBlock | undefined, i: number): Json {
  const uncle = mined?.block.uncleHeaders[i];
  return uncle ? formatUncle(uncle) : null;
}
