/**
 * Hashing of the head's reserved run in the background. chain_mine hashes its runs as it adds
 * them (mining/mineMany.ts), but a run can still reach the head unhashed: a state file loads
 * its runs in O(1), and 'lazy' mode (tests of what a read computes) hashes nothing ahead. The
 * first block mined on such a run needs the hash of its last block, which needs every hash
 * before it: 100,000 blocks take 0.5-0.8 s, 1,000,000 take 5-13 s, and that send waited for
 * all of it. So once a task leaves the head inside an unhashed run,
 * the run is hashed a slice at a time (SLICE_BLOCKS, about 1 ms, then the event loop turns,
 * so requests are read and queued tasks run in between), and a later send or read finds the
 * hashes ready, or hashes only what is left (EmptyRun.materializePaced).
 *
 * It follows the head, not a run: each slice hashes towards the head as it is then, so a
 * revert, a reset or a rollback that drops the run ends the work (or shortens it to the
 * part still in the chain), and nothing runs once the head is hashed (an idle node does
 * nothing). The immediate is not unref'd: an unref'd one does not stop the event loop from
 * blocking in its poll phase, so on a quiet node the work advanced one slice per timer or
 * I/O event (768 of 100,000 blocks in 2 s). A process therefore stays up until the run is
 * hashed (seconds at most) unless the chain is closed (Chain.close, provider.disconnect).
 */
import type { MinedBlock } from './blocks.js';
import { RangeBlock } from './emptyRanges.js';

/**
 * How chain_mine makes empty blocks: 'reserve' adds runs a turn at a time, hashed as they are
 * added (and hashes unhashed runs at the head in the background), 'lazy' reserves a whole run
 * in O(1) and hashes only what is read, 'vm' mines each through the VM.
 */
export type EmptyBlocksMode = 'reserve' | 'lazy' | 'vm';

/**
 * Blocks hashed per turn of the event loop (about 1 ms at 4.5 µs a block): shorter than
 * pace.ts's 4 ms slices, as this work has no client waiting for it; a request arriving
 * meanwhile waits for at most one slice. Over HTTP (the CLI) during the hashing of 1,000,000
 * blocks, eth_blockNumber took a median of 1.5-1.9 ms and a p99 of 8-9 ms (an idle node:
 * 1.6-1.7 and 13 ms, on the loaded shared machine).
 */
const SLICE_BLOCKS = 256;

// The timer as it was when the engine loaded (pace.ts): faked timers must not stop the work.
const nextTurn = setImmediate;

export class RunHashing {
  private scheduled = false;
  private closed = false;

  /** `head`: the chain's head now; `enabled`: whether runs are hashed ahead of reads (emptyBlocks 'reserve'). */
  constructor(
    private readonly head: () => MinedBlock,
    private readonly enabled: () => boolean,
  ) {}

  /** True while the head is a reserved block whose hash is not computed yet. */
  get pending(): boolean {
    const head = this.head();
    return head instanceof RangeBlock && head.run.materialized <= head.index;
  }

  /** Whether a slice is scheduled (tests: the work stops by itself). */
  get running(): boolean {
    return this.scheduled;
  }

  /** After each task: start the work if the head is left unhashed; nothing when it is hashed. */
  wake(): void {
    if (this.scheduled || this.closed || !this.enabled() || !this.pending) return;
    this.scheduled = true;
    nextTurn(this.step);
  }

  /** Stop for good (the chain is closing). */
  close(): void {
    this.closed = true;
  }

  private readonly step = (): void => {
    this.scheduled = false;
    if (this.closed || !this.enabled()) return;
    const head = this.head();
    if (!(head instanceof RangeBlock)) return;
    if (!head.run.materializeSome(head.index, SLICE_BLOCKS)) this.wake();
  };
}
