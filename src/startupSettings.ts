/** Start-up options that set the built chain's mutable settings (not its genesis): applied once, after restore. */
import type { Chain } from './engine/chain.js';
import type { ResolvedOptions } from './options.js';

export function applyStartupSettings(chain: Chain, options: ResolvedOptions, restored: boolean): void {
  for (const address of options.unlock) {
    // An address the node holds is unlocked already; any other may send unsigned, as Ganache's unlocked accounts.
    if (!chain.accounts.holds(address)) chain.accounts.impersonate(address);
  }
  if (options.autoImpersonate) chain.accounts.impersonateAll = true;
  if (options.gasPrice !== undefined) chain.gasPrice = options.gasPrice;
  // Later blocks continue from the genesis time given, as Hardhat's initialDate and Ganache's chain.time do.
  if (options.timestamp !== undefined && !restored) chain.clock.setTime(options.timestamp);
}
