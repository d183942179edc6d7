/**
 * Hardhat 2 loads `hardhat.config.*` inside its context (a global while Hardhat runs), and
 * `extendEnvironment` pushes into that context's list; the plugin pushes its extender there
 * directly, so it needs no `hardhat` import of its own and works with whichever Hardhat 2 loaded
 * the config. Outside Hardhat 2 (Hardhat 3, plain Node) there is no such context: nothing happens.
 */
import { installOn } from './install.js';
import type { HardhatContext } from './types.js';

const REGISTERED = Symbol.for('chain-sim.hardhat2.registered');

export class LateRegistrationError extends Error {
  constructor() {
    super(
      "chain-sim/hardhat was loaded after Hardhat had created its runtime, so Hardhat's network is not replaced: require it at the top of hardhat.config.* (not from a test or script)",
    );
    this.name = 'LateRegistrationError';
  }
}

/** Registers the plugin with the running Hardhat 2; false when no Hardhat 2 is loading a config. */
export function registerWithHardhat2(): boolean {
  const context = (globalThis as { __hardhatContext?: HardhatContext & { [REGISTERED]?: true } }).__hardhatContext;
  if (context === undefined || !Array.isArray(context.environmentExtenders)) return false;
  if (context[REGISTERED]) return true;
  if (context.environment !== undefined) throw new LateRegistrationError();
  context[REGISTERED] = true;
  context.environmentExtenders.push((hre) => installOn(hre, context));
  return true;
}
