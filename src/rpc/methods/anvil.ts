/**
 * Anvil's chain controls that rewrite history or identity (anvil_rollback, anvil_reorg,
 * anvil_setChainId, anvil_impersonateSignature), Anvil's eth_getAccountInfo, and Tenderly's balance faucet
 * (tenderly_setBalance, tenderly_addBalance). Parameters and answers as those tools give them:
 * foundry crates/anvil (api.rs, core/src/eth/mod.rs, core/src/types.rs ReorgOptions) and
 * Tenderly's Admin RPC reference.
 */
import type { Address } from '@ethereumjs/util';
import type { BlockRef } from '../../engine/chain.js';
import type { ReorgItem } from '../../engine/mining/reorg.js';
import { address, arrayOf, blockRef, callRequest, count, data, fail, fixedData, uint256 } from '../codec.js';
import { encodeData, encodeQuantity } from '../encode.js';
import { defineMethod, optionalParam, param } from '../method.js';

/** anvil_reorg's pairs: [transaction, block index], the transaction a signed raw one (hex) or a request object. */
const reorgItems = (value: unknown, path: string): ReorgItem[] =>
  arrayOf((pair: unknown, at: string): ReorgItem => {
    if (!Array.isArray(pair) || pair.length !== 2) fail(at, 'expected a pair [transaction, block index]');
    const [tx, block] = pair as [unknown, unknown];
    const transaction = typeof tx === 'string' ? { raw: data(tx, `${at}[0]`) } : { request: callRequest(tx, `${at}[0]`) };
    return { transaction, block: count(block, `${at}[1]`) };
  })(value, path);

/** Tenderly takes one address or a list. */
const addresses = (value: unknown, path: string): Address[] => {
  const list = Array.isArray(value) ? arrayOf(address)(value, path) : [address(value, path)];
  if (list.length === 0) fail(path, 'expected at least one address');
  return list;
};

/** A 65-byte signature (r, s, v), or Anvil's [signature, address] pair. */
const signatureOrPair = (value: unknown, path: string): [Uint8Array, Address | undefined] => {
  if (!Array.isArray(value)) return [fixedData(65)(value, path), undefined];
  if (value.length !== 2) fail(path, 'expected a signature, or a pair [signature, address]');
  return [fixedData(65)(value[0], `${path}[0]`), address(value[1], `${path}[1]`)];
};

const LATEST: BlockRef = { tag: 'latest' };

export const anvilMethods = [
  // Anvil answers null for all three.
  defineMethod('anvil_rollback', [optionalParam('depth', count)], async ({ chain }, depth) => {
    await chain.rollback(depth ?? 1n);
    return null;
  }),
  defineMethod('anvil_reorg', [param('depth', count), param('txBlockPairs', reorgItems)], async ({ chain }, depth, items) => {
    await chain.reorg(depth, items);
    return null;
  }),
  // Anvil reads its params as one pair, [[signature, address]]; [signature, address] is taken too.
  defineMethod(
    'anvil_impersonateSignature',
    [param('signature', signatureOrPair), optionalParam('address', address)],
    async ({ chain }, [signature, paired], who) => {
      if ((paired === undefined) === (who === undefined)) fail('1 (address)', paired ? 'given twice: in the pair and as a second argument' : 'missing');
      await chain.impersonateSignature(signature, (paired ?? who)!);
      return null;
    },
  ),
  defineMethod('anvil_setChainId', [param('chainId', count)], async ({ chain }, chainId) => {
    if (chainId === 0n) fail('0 (chainId)', 'a chain id must be positive');
    await chain.setChainId(chainId);
    return null;
  }),
  // Anvil's eth_getAccountInfo (the eth_ twin): balance, nonce and code together, read at one block.
  defineMethod(
    { name: 'chain_getAccountInfo', aliases: ['eth_getAccountInfo'] },
    [param('address', address), optionalParam('block', blockRef)],
    async ({ chain }, who, ref) => {
      const given = ref ?? LATEST;
      // A tag is pinned to its block first, so the three reads see one state even if a block lands between them.
      const mined = 'tag' in given && given.tag === 'pending' ? undefined : chain.find(given);
      const at: BlockRef = mined ? { hash: mined.hashHex } : given;
      const balance = await chain.getBalance(who, at);
      const nonce = await chain.getTransactionCount(who, at);
      const code = await chain.getCode(who, at);
      return { balance: encodeQuantity(balance), nonce: encodeQuantity(nonce), code: encodeData(code) };
    },
  ),
  // Tenderly answers a 32-byte hash; chain-sim changes state without a transaction and answers the new state root.
  ...(['tenderly_setBalance', 'tenderly_addBalance'] as const).map((name) =>
    defineMethod(name, [param('addresses', addresses), param('amount', uint256)], async ({ chain }, who, amount) =>
      encodeData(await chain.changeBalances(who, amount, name === 'tenderly_addBalance')),
    ),
  ),
];
