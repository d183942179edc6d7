/**
 * Rewriting history: snapshots and reverts (with Ganache's, Hardhat's and Anvil's names), the
 * list of live snapshots (chain_snapshots), and Anvil's anvil_rollback and anvil_reorg (foundry crates/anvil: api.rs, core/src/types.rs ReorgOptions).
 */
import type { ReorgItem } from '../../../engine/index.js';
import { arrayOf, callRequest, count, data, fail, index } from '../../codec.js';
import { encodeQuantity } from '../../encode.js';
import { invalidParams } from '../../errors.js';
import { defineMethod, optionalParam, param } from '../../method.js';

/** Snapshot ids: Ganache sends numbers or hex strings; accept both. */
const snapshotId = (value: unknown, path: string): number => {
  if (typeof value !== 'number') return index(value, path);
  if (!Number.isSafeInteger(value) || value < 0)
    throw invalidParams(`invalid argument ${path}: expected a non-negative integer or a hex quantity, got ${value}`);
  return value;
};

/** anvil_reorg's pairs: [transaction, block index], the transaction a signed raw one (hex) or a request object. */
const reorgItems = (value: unknown, path: string): ReorgItem[] =>
  arrayOf((pair: unknown, at: string): ReorgItem => {
    if (!Array.isArray(pair) || pair.length !== 2) fail(at, 'expected a pair [transaction, block index]');
    const [tx, block] = pair as [unknown, unknown];
    const transaction = typeof tx === 'string' ? { raw: data(tx, `${at}[0]`) } : { request: callRequest(tx, `${at}[0]`) };
    return { transaction, block: count(block, `${at}[1]`) };
  })(value, path);

export const historyMethods = [
  defineMethod('chain_snapshot', [], async ({ chain }) => encodeQuantity(await chain.snapshot())),
  defineMethod({ name: 'evm_snapshot', aliases: ['anvil_snapshot'] }, [], async ({ chain }) => encodeQuantity(await chain.snapshot())),
  // chain_revert keeps the snapshot for further reverts; evm_revert uses it up, as in Ganache/Hardhat.
  defineMethod('chain_revert', [param('snapshotId', snapshotId)], ({ chain }, id) => chain.revert(id, false)),
  defineMethod({ name: 'evm_revert', aliases: ['anvil_revert'] }, [param('snapshotId', snapshotId)], ({ chain }, id) => chain.revert(id, true)),

  // No tool lists its snapshots; the explorer page does (the ids as chain_snapshot answers them).
  defineMethod('chain_snapshots', [], async ({ chain }) =>
    (await chain.snapshots()).map((s) => ({ id: encodeQuantity(s.id), blockNumber: encodeQuantity(s.blockNumber), timestamp: encodeQuantity(s.timestamp) })),
  ),

  // Anvil answers null for all three.
  defineMethod('anvil_rollback', [optionalParam('depth', count)], async ({ chain }, depth) => {
    await chain.rollback(depth ?? 1n);
    return null;
  }),
  defineMethod('anvil_reorg', [param('depth', count), param('txBlockPairs', reorgItems)], async ({ chain }, depth, items) => {
    await chain.reorg(depth, items);
    return null;
  }),
];
