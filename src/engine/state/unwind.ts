/**
 * Putting the state back after an execution that threw instead of failing. The EVM opens
 * checkpoints (runTx, each call frame) and closes them when execution ends, even in failure,
 * but an exception from the state itself (a forked chain's upstream that cannot answer,
 * fork/upstream.ts) leaves the frames' checkpoints open: without this, what the run did
 * before the exception (the sender's nonce, the gas it bought) would stay, uncommitted, under
 * every later change.
 */
import type { VM } from '@ethereumjs/vm';

interface Depths {
  _checkpointCount?: number;
}

/** The state manager's checkpoint depth now. */
export function checkpointDepth(vm: VM): number {
  return (vm.stateManager as unknown as Depths)._checkpointCount ?? 0;
}

/** Revert every checkpoint opened above `depth` (the EVM journal's with their state). */
export async function unwindTo(vm: VM, depth: number): Promise<void> {
  const journal = vm.evm.journal as unknown as { journalHeight: number; revert(): Promise<void> };
  while (checkpointDepth(vm) > depth) {
    if (journal.journalHeight > 0) await journal.revert();
    else await vm.stateManager.revert();
  }
}
