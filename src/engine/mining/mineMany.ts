/**
 * Blocks asked for (chain_mine / evm_mine / hardhat_mine / anvil_mine and interval mining's
 * block): through the VM (producer.ts) until nothing would change state, then the rest as
 * runs of empty blocks (emptyRanges.ts), hashed as they are added, a turn of the queue at a
 * time. Runs inside a queue task.
 */
import type { Block } from '@ethereumjs/block';
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import type { ChainCore } from '../chain/core.js';
import { assertTimestamp } from '../chain/types.js';
import { type EmptyRun, RangeBlock, ReservedBlocks, type RunSpec, emptySuccessor, reserveEmptyBlocks } from '../blocks/emptyRanges.js';
import { EngineError } from '../util/errors.js';
import { forkAt } from '../rules/forkSchedule.js';
import { isPostMerge } from '../rules/hardforks.js';
import { systemContractsAbsent } from '../rules/systemContracts.js';
import { mineWith } from './producer.js';
import { sliceUsedUp } from '../util/pace.js';

/**
 * Where a long run of blocks stands when its turn of the queue ends: blocks still to mine,
 * and their spacing. Blocks that go through the VM (about 1 ms each: a pre-merge chain's
 * rewards, a fork whose system contracts write every block) are mined a few ms at a time
 * (pace.ts), each turn a task of its own, so a send or a read queued meanwhile runs between
 * two of them instead of after the whole run (100,000 blocks took over 40 s). Runs of empty
 * blocks go the same way, a few ms of hashing a turn (addHashed).
 */
export interface MiningRun {
  readonly left: bigint;
  readonly step: bigint;
  /** The run of empty blocks the last turn added to, which the next grows while it is still the head. */
  readonly growing?: ReservedBlocks;
}

/**
 * Mine `count` blocks: the first takes pending transactions and `timestamp` if given; later
 * ones are `interval` seconds apart (if none, the block timestamp interval if one is set,
 * else 1). Once nothing would change state the rest are reserved as runs of empty blocks
 * (addHashed). Answers what is left when its turn ended (mineOnward goes on).
 */
export async function mineMany(core: ChainCore, count: bigint, interval?: bigint, timestamp?: bigint): Promise<MiningRun> {
  const head = core.blocks.headTimestamp;
  // Equal to the head's only where blocks may share a timestamp (Hardhat's allowBlocksWithSameTimestamp).
  if (timestamp !== undefined && (timestamp < head || (timestamp === head && !core.clock.allowSameTimestamp))) {
    throw new EngineError('invalidInput', `timestamp ${timestamp} is not after the latest block's timestamp ${head}`);
  }
  // An interval of 0 means none given (viem sends 0x0 when its caller gave none).
  const step = interval || core.clock.blockInterval || 1n;
  // Refuse a run whose last block would overflow before mining its first (a failed call changes nothing).
  if (count > 0n) assertTimestamp((timestamp ?? core.clock.peekNext(head)) + (count - 1n) * step);
  return mineTurn(core, count, step, timestamp, undefined);
}

/** The next turn of a run mineMany started: its blocks follow the head `step` seconds apart. */
export function mineOnward(core: ChainCore, run: MiningRun): Promise<MiningRun> {
  return mineTurn(core, run.left, run.step, undefined, run);
}

/** `before`: on a later turn of a run, where the turn before left it. */
async function mineTurn(core: ChainCore, count: bigint, step: bigint, timestamp: bigint | undefined, before: MiningRun | undefined): Promise<MiningRun> {
  const onward = before !== undefined;
  const growing = before?.growing;
  let left = count;
  for (let i = 0n; i < count; i++, left--) {
    const later = i > 0n || onward;
    // Past a few ms of blocks, the turn ends: tasks queued meanwhile go first (pace.ts).
    if (i > 0n && sliceUsedUp()) break;
    const parentTime = core.blocks.headTimestamp;
    const at = later ? parentTime + step : timestamp;
    const template = await emptyRunTemplate(core, count - i, at ?? core.clock.peekNext(parentTime), step);
    if (template) {
      const first = at ?? core.clock.takeNext(parentTime);
      if (core.emptyBlocks === 'lazy') {
        reserveEmpty(core, template, count - i, first, step);
        left = 0n;
      } else {
        // A run left unhashed before (a loaded state, 'lazy' mode) is hashed first, letting other requests in.
        await core.hashHead();
        const added = continues(core, growing, template)
          ? addHashed(core, growing.run, growing.count)
          : addHashed(core, reserveEmptyBlocks(runSpec(core, template, count - i, first, step)).run, 0);
        return finishTurn(core, { left: left - BigInt(added.count - added.start), step, growing: added });
      }
      break;
    }
    await mineWith(core, undefined, at);
  }
  return finishTurn(core, { left, step });
}

function finishTurn(core: ChainCore, run: MiningRun): MiningRun {
  // Time set by mining (evm_mine(timestamp), intervals) carries on for later blocks.
  const last = core.blocks.headTimestamp;
  if (last > core.clock.nowSeconds()) core.clock.setTime(last);
  return run;
}

/**
 * Anvil's anvil_mine with an interval: the clock jumps `interval` seconds before each of the
 * `count` blocks and stays that far ahead afterwards (mineMany's spacing, shifted by one step).
 */
export async function mineManyAhead(core: ChainCore, count: bigint, interval: bigint): Promise<MiningRun> {
  assertTimestamp(core.clock.nowSeconds() + count * interval);
  core.clock.increase(interval);
  try {
    return await mineMany(core, count, interval);
  } catch (error) {
    core.clock.increase(-interval);
    throw error;
  }
  // mineMany leaves the clock at the last block's time, which is where Anvil's stands too.
}

/**
 * The template of a run of `count` empty blocks after the head, the first at `first`, or
 * undefined when they must go through the VM: something is pending, a block reward
 * (pre-merge), a next-block override (base fee, prevRandao), a system contract that would
 * write state at the start of a block, blob gas still to drain, or a fork boundary ahead.
 * The template is the head run's own while nothing that enters a header changed since
 * (state, coinbase, gas limit); otherwise the empty block the VM would build now
 * (emptySuccessor).
 */
async function emptyRunTemplate(core: ChainCore, count: bigint, first: bigint, step: bigint): Promise<Block | undefined> {
  if (core.emptyBlocks === 'vm') return undefined;
  const head = core.head;
  if (core.schedule) {
    // The reservation copies the head's header layout: only while no fork boundary lies ahead.
    const headTime = core.blocks.headTimestamp;
    const headFork = forkAt(core.schedule, head.number, headTime);
    if (forkAt(core.schedule, head.number + count, first + (count - 1n) * step) !== headFork) return undefined;
    core.alignVm(core.vm, head.number, headTime);
  }
  const { baseFeePerGas, prevRandao } = core.nextBlock;
  if (!isPostMerge(core.common) || baseFeePerGas !== undefined || prevRandao !== undefined || core.extraData) return undefined;
  if ((await core.executable()).length > 0) return undefined;
  if (!(await systemContractsAbsent(core.vm))) return undefined;
  const stateRoot = await core.vm.stateManager.getStateRoot();
  if (head instanceof RangeBlock) {
    const template = head.run.spec.template;
    const { coinbase, gasLimit } = template.header;
    if (coinbase.equals(core.coinbase) && gasLimit === core.blockGasLimit && equalsBytes(stateRoot, template.header.stateRoot)) return template;
  } else if (core.common.isActivatedEIP(4844) && head.block.header.calcNextExcessBlobGas(core.common) > 0n) {
    return undefined;
  }
  // A run only takes a template's constant fields, so the last one serves while they are
  // the same (a test that mines, reverts and mines again): building a header costs more
  // than the reservation itself.
  const key = `${bytesToHex(stateRoot)}:${core.coinbase.toString()}:${core.blockGasLimit}:${core.common.hardfork()}`;
  if (core.lastTemplate?.key !== key) {
    const block = emptySuccessor(head, {
      stateRoot,
      coinbase: core.coinbase,
      gasLimit: core.blockGasLimit,
      timestamp: first,
      baseFee: core.nextBaseFee(),
      common: core.common,
    });
    core.lastTemplate = { key, block };
  }
  return core.lastTemplate.block;
}

/** A run of `count` empty blocks after the head, the first at `first`, then `step` seconds apart. */
function runSpec(core: ChainCore, template: Block, count: bigint, first: bigint, step: bigint): RunSpec {
  return { parent: core.head, template, count: Number(count), firstTimestamp: first, step, firstBaseFee: core.nextBaseFee() };
}

/** Reserve `count` empty blocks after the head in O(1), hashed when read ('lazy' mode). */
function reserveEmpty(core: ChainCore, template: Block, count: bigint, first: bigint, step: bigint): void {
  const range = reserveEmptyBlocks(runSpec(core, template, count, first, step));
  core.blocks.reserve(range);
  core.hooks.emit('reserved', range);
}

/**
 * Whether the next blocks go on the run the turn before added to: the chain still ends where
 * that turn left it, and the next empty block would be the run's next (the same template:
 * the same state, coinbase and gas limit).
 */
function continues(core: ChainCore, growing: ReservedBlocks | undefined, template: Block): growing is ReservedBlocks {
  return growing !== undefined && core.head === growing.head && growing.run.spec.template === template && growing.count < growing.run.spec.count;
}

/** Blocks hashed between two checks of the slice's clock (about 1 ms at 4.5 µs a block). */
const HASH_PIECE = 256;

/**
 * Add `run`'s blocks from `from` on to the chain (from 0: the run is new), hashed before they
 * join it, for as long as the turn's slice lasts (at least HASH_PIECE); answers the
 * blocks added (the event's range), and the run goes on in the next turn (mineOnward).
 *
 * Why not add the whole run at once (it is reserved in O(1)): the next block's parent hash
 * needs every hash of it (100,000 blocks: 0.45 s), so the send that came right after a large
 * chain_mine waited for all of it, whoever sent it. Added a slice at a time, the run is
 * hashed as it grows (the mine answers once its last block is in), and a send or a read
 * queued meanwhile runs between two turns on the head as it then is, as it would between
 * two blocks mined through the VM. One run grows across turns (so a save writes it as one
 * line, and a block filter holds it as one entry) until another block comes between.
 */
function addHashed(core: ChainCore, run: EmptyRun, from: number): ReservedBlocks {
  const capacity = run.spec.count;
  let hashed = from;
  do {
    hashed = Math.min(capacity, hashed + HASH_PIECE);
    run.materializeThrough(hashed - 1);
  } while (hashed < capacity && !sliceUsedUp());
  const inChain = new ReservedBlocks(run, hashed);
  if (from === 0) core.blocks.reserve(inChain);
  else core.blocks.extendReservation(inChain);
  const added = new ReservedBlocks(run, hashed, from);
  core.hooks.emit('reserved', added);
  return added;
}
