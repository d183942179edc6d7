/** Start-up options that set the built chain's mutable settings (not its genesis): applied once, after restore. */
import type { Chain, EngineOptions } from '../engine/index.js';
import { OptionError, type ResolvedOptions } from '../options.js';

export async function applyStartupSettings(chain: Chain, options: ResolvedOptions, restored: boolean): Promise<void> {
  for (const entry of options.unlock) {
    // The node's own accounts are unlocked already (an index must name one); any other address may send unsigned, as Ganache's unlocked accounts.
    if (typeof entry === 'number') {
      if (entry >= chain.accounts.list().length) throw new OptionError('unlock', `there is no account ${entry}`);
    } else if (!chain.accounts.holds(entry)) await chain.impersonate(entry);
  }
  await chain.configure({
    ...(options.autoImpersonate ? { impersonateAll: true } : {}),
    ...(options.gasPrice !== undefined ? { gasPrice: options.gasPrice } : {}),
    ...(options.transactionGasCap !== undefined ? { callGasCap: options.transactionGasCap } : {}),
    ...(options.disableMinPriorityFee ? { suggestedTip: 0n } : {}),
    finalityLag: BigInt(options.slotsInAnEpoch),
    allowSameTimestamp: options.allowSameTimestamp,
  });
  // Later blocks continue from the genesis time given, as Hardhat's initialDate and Ganache's chain.time do.
  if (options.timestamp !== undefined && !restored) await chain.setTime(options.timestamp);
}

/**
 * The mining mode at start (and after a reset): automine (default), none (--no-mining), an
 * interval (--block-time, --mining-interval) which replaces automine as Ganache's blockTime does,
 * or both (--mixed-mining).
 */
export function configuredMining(options: ResolvedOptions): NonNullable<EngineOptions['miningMode']> {
  const ms = options.blockTime > 0 ? Math.max(1, Math.round(options.blockTime * 1000)) : undefined;
  const interval = options.miningInterval ?? (ms === undefined ? undefined : ([ms, ms] as const));
  const automine = options.mining !== 'pow' && !options.noMining && (interval === undefined || options.mixedMining);
  return { automine, interval };
}
