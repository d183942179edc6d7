/** Start-up options that set the built chain's mutable settings (not its genesis): applied once, after restore. */
import type { Chain, EngineOptions } from './engine/chain.js';
import { OptionError, type ResolvedOptions } from './options.js';

export function applyStartupSettings(chain: Chain, options: ResolvedOptions, restored: boolean): void {
  for (const entry of options.unlock) {
    // The node's own accounts are unlocked already (an index must name one); any other address may send unsigned, as Ganache's unlocked accounts.
    if (typeof entry === 'number') {
      if (entry >= chain.accounts.list().length) throw new OptionError('unlock', `there is no account ${entry}`);
    } else if (!chain.accounts.holds(entry)) chain.accounts.impersonate(entry);
  }
  if (options.autoImpersonate) chain.accounts.impersonateAll = true;
  if (options.gasPrice !== undefined) chain.gasPrice = options.gasPrice;
  if (options.transactionGasCap !== undefined) chain.callGasCap = options.transactionGasCap;
  if (options.disableMinPriorityFee) chain.suggestedTip = 0n;
  chain.finalityLag = BigInt(options.slotsInAnEpoch);
  chain.clock.allowSameTimestamp = options.allowSameTimestamp;
  // Later blocks continue from the genesis time given, as Hardhat's initialDate and Ganache's chain.time do.
  if (options.timestamp !== undefined && !restored) chain.clock.setTime(options.timestamp);
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
