/**
 * What proof of work's sealer (pow/sealer.ts) sees of the chain inside one queue task: the
 * head, the live state root, the key of everything else the pending block depends on, and a
 * draft of that block built by the one block producer's template on the live state, rolled
 * back before the task ends.
 */
import type { BlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { EVM } from '@ethereumjs/evm';
import type { BlockStore, MinedBlock } from '../blocks/blocks.js';
import type { ChainCore } from '../chain/core.js';
import type { BlockTemplate, MiningOutcome } from '../execution/blockBuilder.js';
import { buildDraft } from '../pow/draft.js';
import { nextTemplate } from './producer.js';

export interface PowView {
  readonly head: MinedBlock;
  readonly blocks: Pick<BlockStore, 'byNumber' | 'byHashHex'>;
  readonly common: Common;
  /** The live state root: a draft's base, which a seal must still find. */
  stateRoot(): Promise<Uint8Array>;
  /** Everything the pending block depends on but the head, the state and uncles (pool, settings, clock). */
  settingsKey(): string;
  /** The next block's header fields at the clock's next timestamp (not yet checked as minable). */
  template(): BlockTemplate;
  /** The next block with `template` and `uncles`, executed on the live state, which is put back to `baseRoot` after. */
  draft(template: BlockTemplate, uncles: readonly BlockHeader[], baseRoot: Uint8Array): Promise<MiningOutcome>;
}

export function powViewOf(core: ChainCore): PowView {
  return {
    head: core.head,
    blocks: core.blocks,
    common: core.common,
    stateRoot: () => core.vm.stateManager.getStateRoot(),
    settingsKey: () => {
      const clock = core.clock.save();
      return [
        core.pool
          .all()
          .map((entry) => entry.hashHex)
          .join(','),
        core.coinbase.toString(),
        core.blockGasLimit,
        core.nextBaseFee() ?? '',
        core.extraData ? Buffer.from(core.extraData).toString('hex') : '',
        clock.offsetSeconds,
        clock.nextOverride ?? '',
        clock.interval ?? '',
      ].join('|');
    },
    template: () => ({ ...nextTemplate(core, core.clock.peekNext(core.head.block.header.timestamp)), baseFeePerGas: core.nextBaseFee() }),
    draft: async (template, uncles, baseRoot) => {
      const candidates = await core.executable();
      // Executed on the live VM and rolled back within this queue turn, so no request sees it
      // and the live state stays at its root until a seal arrives (the draft's root stays
      // loadable: only a revert deletes trie nodes, and it drops all work). Unlike a shallowCopy,
      // the live state manager also records what the block writes, which chain_dumpState relies on.
      try {
        // Drafts are rebuilt as the pool changes: their console.log lines would print each time.
        return await core.consoleLines.mutedDuring(core.vm.evm as EVM, () => buildDraft(core.vm, core.head, candidates, template, uncles));
      } finally {
        await core.vm.stateManager.setStateRoot(baseRoot);
      }
    },
  };
}
