/**
 * The one place that makes "the next block": its header fields (`nextTemplate`), the pending
 * block of reads and eth_getBlockByNumber('pending') (`pendingBuild`, cached by the state's
 * version), the header a `pending` call runs under, and the blocks automine, interval mining
 * and chain_mine append (`mineWith`). Proof of work drafts its blocks from the same template
 * (pow/sealer.ts). All of it runs inside a task of the chain's queue.
 */
import { type Block, createBlock } from '@ethereumjs/block';
import type { EVM } from '@ethereumjs/evm';
import type { VM } from '@ethereumjs/vm';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { MinedBlock } from '../blocks/blocks.js';
import type { ChainCore } from '../chain/core.js';
import { copyOf } from '../chain/copies.js';
import { assertMinable } from './clock.js';
import { forkAt } from '../rules/forkSchedule.js';
import { PRELOADED_PARAMS, isPostMerge } from '../rules/hardforks.js';
import { type BlockTemplate, type ExecutionFailure, type MiningOutcome, type NextBlockOverrides, mineBlock } from '../execution/blockBuilder.js';
import type { PooledTransaction } from '../transactions/txpool.js';
import { RemoteReadPending } from '../state/remoteMiss.js';

/** The header fields of the next block at `timestamp`, as every builder takes them. */
export function nextTemplate(core: ChainCore, timestamp: bigint): BlockTemplate {
  return { timestamp, coinbase: core.coinbase, gasLimit: core.blockGasLimit, extraData: core.extraData, ...core.nextBlock };
}

/** The cached pending block: valid while its key (head, state version, pool, clock, settings) is the same. */
export class PendingBlock {
  cached: { key: string; template: NextBlockOverrides; vm: VM; block: MinedBlock } | undefined;
  /** The header `pending` calls run under (pendingHeaderBlock), while its key (head, fork, clock, settings) is the same. */
  header: { key: string; template: NextBlockOverrides; block: Block } | undefined;
}

/**
 * The next block from `executable`, built on a scratch copy of the VM (sharing the trie
 * database, so the live state is untouched) and reused until the head, the live state (its
 * version), the pool, the clock's next timestamp or the next-block settings change.
 */
export async function pendingBuild(core: ChainCore, executable: PooledTransaction[]): Promise<{ vm: VM; block: MinedBlock }> {
  const head = core.head;
  const timestamp = core.clock.peekNext(core.blocks.headTimestamp);
  const fork = core.schedule ? forkAt(core.schedule, head.number + 1n, timestamp) : '';
  const key = `${core.state.version}:${head.hashHex}:${fork}:${timestamp}:${core.coinbase}:${core.blockGasLimit}:${executable.map((e) => e.hashHex).join(',')}`;
  const cached = core.pending.cached;
  if (cached?.key === key && cached.template === core.nextBlock) return cached;
  await core.hashHead();
  const vm = await copyOf(core.vm);
  core.consoleLines.watch(vm.evm as EVM);
  core.alignVm(vm, head.number + 1n, timestamp);
  // The pool's transactions print their console.log lines when they are mined, not here.
  const outcome = await core.consoleLines.mutedDuring(vm.evm as EVM, () => mineBlock(vm, head, executable, nextTemplate(core, timestamp)));
  const built = { key, template: core.nextBlock, vm, block: outcome.mined };
  core.pending.cached = built;
  return built;
}

/** The state after the executable pool transactions (pendingBuild); with an empty pool, the live state itself. */
export async function pendingState(core: ChainCore): Promise<VM> {
  const executable = await core.executable();
  if (executable.length === 0) return core.vm;
  return (await pendingBuild(core, executable)).vm;
}

/**
 * The header a `pending` call runs under: the next block's fields, with no transactions. Made
 * once per head, fork, timestamp and settings: estimates run at `pending` by default, and a new
 * block per call (and its fee-less copy, execution.ts) cost more than an ERC-20 transfer's runs.
 */
export function pendingHeaderBlock(core: ChainCore): Block {
  const parent = core.head.block;
  const common = core.nextBlockCommon();
  const postMerge = isPostMerge(common);
  const template = nextTemplate(core, core.clock.peekNext(parent.header.timestamp));
  const baseFeePerGas = core.nextBaseFee();
  const key = `${core.head.hashHex}:${common.hardfork()}:${template.timestamp}:${template.coinbase}:${template.gasLimit}:${baseFeePerGas}`;
  const cached = core.pending.header;
  if (cached?.key === key && cached.template === core.nextBlock) return cached.block;
  const block = createBlock(
    {
      header: {
        parentHash: core.head.hash,
        number: parent.header.number + 1n,
        timestamp: template.timestamp,
        gasLimit: template.gasLimit,
        coinbase: template.coinbase,
        difficulty: postMerge ? 0n : 1n,
        mixHash: postMerge ? (template.prevRandao ?? keccak_256(parent.header.mixHash)) : undefined,
        baseFeePerGas,
        excessBlobGas: common.isActivatedEIP(4844) ? parent.header.calcNextExcessBlobGas(common) : undefined,
      },
    },
    { common, skipConsensusFormatValidation: true, params: PRELOADED_PARAMS },
  );
  core.pending.header = { key, template: core.nextBlock, block };
  return block;
}

/** Mine one block on the live state from the given pool entries (or as many executable ones as fit, if omitted). */
export async function mineWith(core: ChainCore, entries: PooledTransaction[] | undefined, timestamp?: bigint): Promise<MiningOutcome> {
  const candidates = entries ?? (await core.executable());
  const parent = core.head;
  await core.hashHead();
  const clock = core.clock.save();
  const gasLimit = core.blockGasLimit;
  const blockTimestamp = timestamp ?? core.clock.takeNext(parent.block.header.timestamp);
  assertMinable(blockTimestamp);
  if (core.schedule) core.enterFork(parent.number + 1n, blockTimestamp);
  let outcome: MiningOutcome;
  try {
    outcome = await mineBlock(core.vm, parent, candidates, nextTemplate(core, blockTimestamp));
  } catch (error) {
    if (error instanceof RemoteReadPending) {
      // No block (mineBlock rolled the state back): the clock, the rules and the gas limit as they were.
      core.clock.restore(clock);
      core.blockGasLimit = gasLimit;
      core.alignVm(core.vm, parent.number, parent.block.header.timestamp);
    }
    throw error;
  }
  core.appendMined(outcome);
  return outcome;
}

/**
 * Automine: one block per executable transaction, until none is left. Returns what the blocks
 * could not take (it left the pool). While the upstream's misses are deferred (forkState.ts), a
 * miss ends it with RemoteReadPending, that block rolled back (the blocks before it stay).
 */
export async function mineExecutable(core: ChainCore): Promise<Pick<MiningOutcome, 'dropped' | 'failures'>> {
  const dropped: Array<MiningOutcome['dropped'][number]> = [];
  const failures = new Map<string, ExecutionFailure>();
  for (;;) {
    const next = (await core.executable())[0];
    if (!next) return { dropped, failures };
    const outcome = await mineWith(core, [next]);
    dropped.push(...outcome.dropped);
    for (const [hash, failure] of outcome.failures) failures.set(hash, failure);
  }
}

/** What a block builder refused after admission let it in: a missing admission check, reported as an internal error. */
export function reportRefused(core: ChainCore, dropped: MiningOutcome['dropped']): void {
  for (const { entry, reason } of dropped) {
    core.hooks.emit('error', new Error(`transaction ${entry.hashHex} was answered but refused by the block builder: ${reason}`));
  }
}
