/**
 * Read-only work on the past that runs outside the chain's queue (docs/architecture.md, "Work
 * outside the queue"): a trace of mined transactions, a call at an old block, eth_simulateV1
 * on a copy of the state. A task resolves what the work needs and pins it (a VM of its own on
 * the state, the block objects, which are never changed, and a lease that keeps every trie
 * node until the work ends: TrieNodeDB.lease), then hands out a `DetachedWork`, which the
 * facade runs after the task (base.ts `runDetachable`): the queue serves sends and blocks
 * meanwhile. The work never holds the core.
 *
 * Its answer is the one a task would have given when it was pinned, except where the work
 * reads the chain itself (BLOCKHASH reads the block store by number): if the block it runs at
 * left the chain meanwhile (a revert, a reset), the answer is refused with BlockGoneError
 * rather than given from a chain that no longer exists.
 */
import type { MinedBlock } from '../blocks/blocks.js';
import { EngineError } from '../util/errors.js';

/** Whether a block is still the chain's block at its number (BlockStore.holds). */
export interface ChainPosition {
  holds(mined: MinedBlock): boolean;
}

/** The block a request ran at was reverted away while it ran: ask again. */
export class BlockGoneError extends EngineError {
  constructor(number: bigint) {
    super('rejected', `block #${number} no longer exists: the chain was reverted while this request ran on it; ask again`);
    this.name = 'BlockGoneError';
  }
}

export class DetachedWork<T> {
  private started = false;

  /**
   * `work` runs on what the task pinned; `release` ends the pins (leases, lent VMs) once it
   * settles; `at` is the block whose place in the chain the answer depends on.
   */
  constructor(
    private readonly work: () => Promise<T>,
    private readonly release: () => void,
    private readonly at: MinedBlock,
    private readonly chain: ChainPosition,
  ) {}

  /** Run the work (once), then release what it pinned, whatever happens. */
  async run(): Promise<T> {
    if (this.started) throw new Error('internal error: detached work run twice');
    this.started = true;
    try {
      const answer = await this.work();
      if (!this.chain.holds(this.at)) throw new BlockGoneError(this.at.number);
      return answer;
    } catch (error) {
      if (!(error instanceof BlockGoneError) && !this.chain.holds(this.at)) throw new BlockGoneError(this.at.number);
      throw error;
    } finally {
      this.release();
    }
  }
}
