/**
 * chain-sim/hardhat: Hardhat's built-in network runs on chain-sim, in process.
 *
 * Hardhat 2: one line at the top of hardhat.config.*, `require('chain-sim/hardhat')` (or
 * `import 'chain-sim/hardhat'`); the `hardhat` network is then chain-sim's, configured from
 * `networks.hardhat`. Removing the line gives Hardhat's own network back.
 */
import { registerWithHardhat2 } from './hardhat2/register.js';

// Only light modules here: a Hardhat config loads this for every task; chain-sim's engine waits for the network's first request.
export { HardhatConfigError, HARDHAT_DEFAULT_COINBASE } from './hardhat2/fields.js';
export { HardhatRevertError } from './hardhat2/revertError.js';
export { LateRegistrationError } from './hardhat2/register.js';

/** True when this module registered with (or found itself registered in) a Hardhat 2 that is loading its config. */
export const registeredWithHardhat2: boolean = registerWithHardhat2();
