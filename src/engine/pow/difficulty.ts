// The difficulty of the next proof-of-work block: a fixed value (so tests and
// local miners find seals in milliseconds) or the hardfork's Ethash formula.
import { type BlockHeader, createBlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { PRELOADED_PARAMS } from '../rules/hardforks.js';

/** A fixed difficulty, or 'canonical' to follow the hardfork's formula from the parent. */
export type DifficultySetting = bigint | 'canonical';

export function nextDifficulty(setting: DifficultySetting, common: Common, parent: BlockHeader, timestamp: bigint): bigint {
  if (setting !== 'canonical') return setting;
  // The formula reads the child's number and timestamp only; a bare header carries them.
  const child = createBlockHeader(
    { number: parent.number + 1n, timestamp, parentHash: parent.hash() },
    { common, skipConsensusFormatValidation: true, params: PRELOADED_PARAMS },
  );
  return child.ethashCanonicalDifficulty(parent);
}
