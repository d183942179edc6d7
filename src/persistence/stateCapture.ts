/**
 * The chain's state as a state file (stateFile.ts) describes it: the one reading behind both
 * `chain_dumpState` (and anvil_dumpState) and `--state` saves, so the two write the same fields
 * read the same way (Chain.persistable, in one task of the chain's queue).
 */
import type { ChainSegment, Chain } from '../engine/index.js';
import { encodeSavedFork } from '../fork/savedFork.js';
import type { ForkSession } from '../fork/session.js';
import type { StateFile } from './stateFile.js';

/** What a save writes: the state file's fields, and the chain as segments (runs of empty blocks uncomputed). */
export interface CapturedState {
  readonly file: StateFile;
  readonly segments: readonly ChainSegment[];
}

/**
 * The chain's state now, every field read at the same moment. The blocks are a list of
 * references (blocks are immutable, a run is a few fields), so writing them can happen later,
 * while the node serves requests. On a fork: the overlay on the upstream's state, and the
 * blocks after the pinned one (savedFork.ts).
 */
export async function captureState(chain: Chain, fork?: ForkSession): Promise<CapturedState> {
  const { segments, overlay, ...fields } = await chain.persistable(fork !== undefined);
  const file: StateFile = { chainId: chain.chainId, ...fields };
  if (!fork || !overlay) return { file, segments };
  return { file: { ...file, fork: encodeSavedFork(fork, overlay) }, segments: segments.slice(1) };
}

/** chain_dumpState's answer: the chain settings and the accounts, without the node's keys, clock or blocks. */
export async function dumpedState(chain: Chain): Promise<StateFile> {
  const { chainId, hardfork, gasLimit, timestamp, alloc } = (await captureState(chain)).file;
  return { chainId, hardfork, gasLimit, timestamp, alloc };
}
