/** VMs on other states than the live one, sharing the live VM's trie database. */
import type { VM } from '@ethereumjs/vm';
import type { MinedBlock } from '../blocks/blocks.js';
import { RangeBlock } from '../blocks/emptyRanges.js';

/** The state root after `mined`: a reserved empty block has its reservation's, without computing the block. */
export function stateRootOf(mined: MinedBlock): Uint8Array {
  return mined instanceof RangeBlock ? mined.run.spec.template.header.stateRoot : mined.block.header.stateRoot;
}

/** A new VM sharing `source`'s trie database, on `stateRoot` (by default the state `source` is at). */
export async function copyOf(source: VM, stateRoot?: Uint8Array): Promise<VM> {
  const vm = await source.shallowCopy(false);
  await vm.stateManager.setStateRoot(stateRoot ?? (await source.stateManager.getStateRoot()));
  return vm;
}
