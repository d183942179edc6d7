/**
 * Moving the chain back and forth: snapshots and reverts, state points and replays of recorded
 * segments (loadFixture), reset, saved and imported blocks, and proof of work's sealed blocks.
 * Runs inside a queue task.
 */
import { randomBytes } from 'node:crypto';
import { bytesToHex } from '@ethereumjs/util';
import type { MinedBlock } from '../blocks/blocks.js';
import { ReservedBlocks } from '../blocks/emptyRanges.js';
import { type EncodedBlock, type ImportSummary, importBlocks as importEncoded } from '../blocks/importer.js';
import type { ForkPoint } from '../blocks/forkStart.js';
import type { MiningOutcome } from '../execution/blockBuilder.js';
import type { ChainSnapshot } from '../state/snapshots.js';
import type { ChainCore } from './core.js';

export async function snapshot(core: ChainCore): Promise<number> {
  return core.snapshots.add({ ...(await core.capture()), caches: core.state.openJournal(), trieMark: core.trieNodes.mark() });
}

/** Go back to a snapshot (right after the answer); false when the id is unknown. `consume` gives evm_revert's one-shot semantics. */
export function revert(core: ChainCore, id: number, consume: boolean): boolean {
  const taken = core.snapshots.take(id, consume);
  if (!taken) return false;
  core.hooks.afterAnswer(async () => {
    const dropped = core.blocks.truncateAbove(taken.headNumber);
    await core.restore(taken, !consume, true);
    // After restore, whose flush writes anything still cached: the rewind frees that too.
    core.trieNodes.rewind(taken.trieMark!);
    if (core.snapshots.size === 0) core.trieNodes.closeLog();
    core.hooks.emit('rewound');
    if (dropped.length > 0) core.hooks.emit('reorg', dropped);
  });
  return true;
}

/** The blocks mined since a state point (oldest first), or undefined if the chain left it. */
export function blocksSince(core: ChainCore, point: ChainSnapshot): MinedBlock[] | undefined {
  if (core.blocks.byNumber(point.headNumber)?.hashHex !== point.head.hashHex) return undefined;
  const blocks: MinedBlock[] = [];
  for (let n = point.headNumber + 1n; n <= core.head.number; n++) blocks.push(core.blocks.byNumber(n)!);
  return blocks;
}

/**
 * Replay a recorded segment: when the chain is exactly at `from` (same head, same state),
 * re-attach `blocks` and move to `to` without re-executing anything. False otherwise.
 */
export async function replay(core: ChainCore, from: ChainSnapshot, to: ChainSnapshot, blocks: readonly MinedBlock[]): Promise<boolean> {
  const here = await core.capture();
  if (here.head.hashHex !== from.head.hashHex || bytesToHex(here.stateRoot) !== bytesToHex(from.stateRoot)) return false;
  for (const mined of blocks) {
    core.blocks.append(mined);
    core.hooks.emit('block', mined);
  }
  await core.restore(to);
  return true;
}

/**
 * Back to the genesis state, or an imported chain's head (hardhat_reset / anvil_reset): blocks,
 * state, pool, clock, snapshots, the configured mining mode. With `base`: start again from
 * another fork point, or (fork undefined) from a new local genesis block.
 */
export async function reset(core: ChainCore, base?: { readonly fork: ForkPoint | undefined }): Promise<void> {
  const dropped = core.blocks.truncateAbove(base ? -1n : core.genesisPoint!.headNumber);
  if (!base) await core.restore(core.genesisPoint!);
  core.snapshots.clear();
  core.blobs.clear();
  core.state.closeJournals();
  core.trieNodes.rewind(0);
  core.trieNodes.closeLog();
  if (base) {
    core.historical = undefined;
    await core.startBase(base.fork);
    core.blockGasLimit = base.fork ? core.head.block.header.gasLimit : core.options.gasLimit;
    core.genesisPoint = await core.capture();
    await core.restore(core.genesisPoint);
  }
  core.hooks.emit('rewound');
  core.mining.restoreConfigured();
  core.setChainId(core.options.chainId);
  core.coinbase = core.options.coinbase;
  core.accounts.stopAllImpersonation();
  core.instanceId = randomBytes(32);
  if (dropped.length > 0) core.hooks.emit('reorg', dropped);
}

/**
 * Append a block built and sealed elsewhere (proof-of-work mode: drafted by chain.powDraft,
 * sealed by chain_submitWork). Only if the head and the live state are still those it was
 * built on (`baseRoot`); false, and nothing changes, otherwise.
 */
export async function adoptBlock(core: ChainCore, outcome: MiningOutcome, baseRoot: Uint8Array): Promise<boolean> {
  const { header } = outcome.mined.block;
  const liveRoot = await core.vm.stateManager.getStateRoot();
  if (bytesToHex(header.parentHash) !== core.head.hashHex || bytesToHex(liveRoot) !== bytesToHex(baseRoot)) return false;
  await core.vm.stateManager.setStateRoot(header.stateRoot);
  // A timestamp set for the next block is used up once a block reaches it.
  const override = core.clock.save().nextOverride;
  if (override !== undefined && override <= header.timestamp) core.clock.takeNext(header.timestamp);
  core.appendMined(outcome);
  return true;
}

/**
 * Replace the whole chain with blocks saved by an earlier run (--state); the caller loads
 * the matching state. Nothing is re-executed and no events fire: this is the start of a run.
 */
export function adoptSavedBlocks(core: ChainCore, saved: readonly (MinedBlock | ReservedBlocks)[]): void {
  if (saved.length === 0) return;
  // On a fork the saved blocks follow the pinned block, which stays.
  core.blocks.truncateAbove(core.forkPoint ? core.forkPoint.number : -1n);
  // Saved runs of empty blocks come back as reservations: nothing is hashed until read.
  for (const entry of saved) entry instanceof ReservedBlocks ? core.blocks.reserve(entry) : core.blocks.append(entry);
}

/**
 * Execute and append blocks from a chain file (--import; see importer.ts). The clock, the
 * block gas limit and chain_reset's starting point then follow the imported head.
 */
export async function importBlocks(core: ChainCore, source: AsyncIterable<EncodedBlock>): Promise<ImportSummary> {
  const summary = await importEncoded(
    {
      vm: core.vm,
      store: core.blocks,
      appended: (mined) => core.hooks.emit('block', mined),
      alignFork: (number, timestamp) => core.alignVm(core.vm, number, timestamp),
    },
    source,
  );
  const head = core.head.block.header;
  if (head.timestamp > core.clock.nowSeconds()) core.clock.setTime(head.timestamp);
  core.blockGasLimit = head.gasLimit;
  core.genesisPoint = await core.pinnedPoint();
  return summary;
}
