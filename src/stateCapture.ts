/**
 * The chain's state as a state file (stateFile.ts) describes it: the one reading behind both
 * `chain_dumpState` (and anvil_dumpState) and `--state` saves, so the two write the same fields
 * read the same way.
 */
import type { ChainSegment } from './engine/blocks.js';
import type { Chain } from './engine/chain.js';
import type { TrackingStateManager } from './engine/stateDump.js';
import type { StateFile } from './stateFile.js';
import { dumpForkOverlay } from './engine/forkOverlay.js';
import { encodeSavedFork } from './fork/savedFork.js';
import type { ForkSession } from './fork/session.js';

/** What a save writes: the state file's fields, and the chain as segments (runs of empty blocks uncomputed). */
export interface CapturedState {
  readonly file: StateFile;
  readonly segments: readonly ChainSegment[];
}

/**
 * The chain's state now, every field read in one task of the chain's queue so they describe
 * the same moment. The blocks are a list of references (blocks are immutable, a run is a
 * few fields), so writing them can happen after the task, while the node serves requests.
 */
export function captureState(chain: Chain, fork?: ForkSession): Promise<CapturedState> {
  return chain.queue.run(async () => {
    if (!fork) return { file: await readState(chain), segments: chain.segments() };
    // On a fork: the overlay on the upstream's state, and the blocks after the pinned one (savedFork.ts).
    const overlay = await dumpForkOverlay(chain.vm.stateManager as TrackingStateManager);
    const file = await readState(chain, overlay.alloc);
    return { file: { ...file, fork: encodeSavedFork(fork, overlay) }, segments: chain.segments().slice(1) };
  });
}

/** chain_dumpState's answer: the chain settings and the accounts, without the node's keys, clock or blocks. */
export function dumpedState(chain: Chain): Promise<StateFile> {
  return chain.queue.run(async () => {
    const { chainId, hardfork, gasLimit, timestamp, alloc } = await readState(chain);
    return { chainId, hardfork, gasLimit, timestamp, alloc };
  });
}

/** Every state file field; call inside the chain's queue. */
async function readState(chain: Chain, alloc?: StateFile['alloc']): Promise<StateFile> {
  return {
    chainId: chain.chainId,
    // The rules the next block is mined under: what a chain started from this file continues with.
    // Not chain.common.hardfork(): with a fork schedule the VM's Common sits on whichever block it last ran.
    hardfork: chain.nextBlockCommon().hardfork(),
    gasLimit: chain.blockGasLimit,
    timestamp: chain.blocks.headTimestamp,
    clockOffset: chain.clock.offset,
    privateKeys: chain.accounts.list().map((address) => chain.accounts.privateKeyOf(address)!),
    // chain.dumpState() would queue a second task behind this one and never run.
    alloc: alloc ?? (await (chain.vm.stateManager as TrackingStateManager).dump()),
  };
}
