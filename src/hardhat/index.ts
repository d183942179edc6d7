/**
 * chain-sim/hardhat: Hardhat's simulated networks run on chain-sim, in process.
 *
 * Hardhat 2: one line at the top of hardhat.config.*, `require('chain-sim/hardhat')` (or
 * `import 'chain-sim/hardhat'`); the `hardhat` network is then chain-sim's, configured from
 * `networks.hardhat`. Removing the line gives Hardhat's own network back.
 *
 * Hardhat 3: `import chainSim from 'chain-sim/hardhat'` and `plugins: [chainSim, ...]` (first) in
 * defineConfig; every connection to an `edr-simulated` network is then a chain-sim chain of its own.
 */
import { registerWithHardhat2 } from './hardhat2/register.js';
import chainSim from './hardhat3/plugin.js';

/** The Hardhat 3 plugin (Hardhat 2 ignores it: requiring this module is what counts there). */
export default chainSim;

// Only light modules here: a Hardhat config loads this for every task; chain-sim's engine waits for the network's first request.
export { HardhatConfigError, HARDHAT_DEFAULT_COINBASE } from './hardhat2/fields.js';
export { HardhatRevertError } from './hardhat2/revertError.js';
export { LateRegistrationError } from './hardhat2/register.js';

/** True when this module registered with (or found itself registered in) a Hardhat 2 that is loading its config. */
export const registeredWithHardhat2: boolean = registerWithHardhat2();
