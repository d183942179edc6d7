/**
 * Anvil's controls of history and identity, as functions of the core (run inside a task):
 * anvil_rollback and anvil_reorg (the rules in ../mining/reorg.ts), tenderly's balance setters.
 * anvil_setChainId and anvil_impersonateSignature live on the core (core.ts), as they touch
 * what it alone holds (the Commons, the ECRECOVER registry).
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import type { MinedBlock } from '../blocks/blocks.js';
import { EngineError, rejected } from '../util/errors.js';
import type { CallRequest } from '../execution/execution.js';
import { impersonate } from '../transactions/impersonation.js';
import { mineWith } from '../mining/producer.js';
import { type ReorgItem, ReorgNonces, commonBlock, groupByBlock } from '../mining/reorg.js';
import type { PooledTransaction } from '../transactions/txpool.js';
import { decodeRawTransaction, hashHexOf, senderOf } from '../transactions/validation.js';
import { answerNow, estimate } from './calls.js';
import { stateRootOf } from './copies.js';
import type { ChainCore } from './core.js';
import { fillTransaction } from './sending.js';
import { modifyAccount } from './state.js';

/** tenderly_setBalance / tenderly_addBalance: each balance set to, or raised by, `amount`, all or none; the new state root. */
export async function changeBalances(core: ChainCore, addresses: readonly Address[], amount: bigint, add: boolean): Promise<Uint8Array> {
  const balances: bigint[] = [];
  for (const address of addresses) {
    const balance = add ? ((await core.vm.stateManager.getAccount(address))?.balance ?? 0n) + amount : amount;
    if (balance >= 2n ** 256n) throw new EngineError('invalidInput', `the balance of ${address} would exceed 2^256-1`);
    balances.push(balance);
  }
  for (const [i, address] of addresses.entries()) await modifyAccount(core, address, { balance: balances[i]! });
  return core.vm.stateManager.getStateRoot();
}

/** anvil_rollback: drop the `depth` newest blocks. */
export function rollback(core: ChainCore, depth: bigint): Promise<void> {
  return rollBackTo(core, commonBlock(core.blocks, depth, 'Rollback'));
}

/** anvil_reorg: replace the `depth` newest blocks with as many new ones holding `items`; every transaction is built before anything changes. */
export async function reorg(core: ChainCore, depth: bigint, items: readonly ReorgItem[]): Promise<void> {
  const common = commonBlock(core.blocks, depth, 'Reorg');
  const nonces = new ReorgNonces(async (sender) => (await (await core.vmAt(common)).stateManager.getAccount(sender))?.nonce ?? 0n);
  const blocks: PooledTransaction[][] = [];
  for (const group of groupByBlock(depth, items)) {
    const entries: PooledTransaction[] = [];
    for (const item of group) {
      const tx = 'raw' in item ? decodeRawTransaction(item.raw, core.nextBlockCommon()) : await reorgRequest(core, item.request, nonces, common);
      entries.push({ tx, sender: senderOf(tx), hashHex: hashHexOf(tx), arrival: 0 });
    }
    blocks.push(entries);
  }
  await rollBackTo(core, common);
  for (const entries of blocks) await mineWith(core, entries);
}

/**
 * A reorg's request, as Anvil builds it: from (default the first account), the nonce given or
 * Anvil's count, signed or impersonated. Gas is estimated on the common block's state (the new
 * chain's), and as Anvil a request whose estimate fails gets the block gas limit (its receipt tells).
 */
async function reorgRequest(core: ChainCore, request: CallRequest, nonces: ReorgNonces, common: MinedBlock): Promise<TypedTransaction> {
  const from = request.from ?? core.accounts.list()[0];
  if (!from) throw rejected('no signer available');
  const sender = core.accounts.senderKeyOf(from);
  const nonce = await nonces.take(from);
  const gas = request.gas ?? (await answerNow(estimate(core, { ...request, from }, { hash: common.hashHex })).catch(() => core.blockGasLimit));
  const filled = await fillTransaction(core, { ...request, from, gas, nonce: request.nonce ?? nonce }, from);
  return sender === 'unsigned' ? impersonate(filled, from) : filled.sign(sender);
}

/** Back to `common`'s state and time, the blocks above it dropped; snapshots taken on them are discarded. */
async function rollBackTo(core: ChainCore, common: MinedBlock): Promise<void> {
  const stateRoot = stateRootOf(common);
  if (!(await core.state.hasStateRoot(stateRoot))) throw rejected(`state of block ${common.number} is not available (not kept across a restart)`);
  const dropped = core.blocks.truncateAbove(common.number);
  core.historical = undefined;
  await core.vm.stateManager.setStateRoot(stateRoot);
  core.snapshots.dropWhere((snapshot) => core.blocks.byNumber(snapshot.headNumber)?.hashHex !== snapshot.head.hashHex);
  // As Anvil: the clock and the block gas limit are the common block's again.
  core.clock.setTime(common.block.header.timestamp);
  core.blockGasLimit = common.block.header.gasLimit;
  core.hooks.emit('rewound');
  if (dropped.length > 0) core.hooks.emit('reorg', dropped);
}
