/**
 * The deterministic CREATE2 deployer (Arachnid's "deterministic-deployment-proxy") at
 * 0x4e59b44847b379578588920cA78FbF26c0B4956C. Foundry's `forge script` and Solidity's
 * `new C{salt: s}()` in scripts deploy through it: the transaction's data is the 32-byte salt
 * followed by the init code, and the answer is the 20-byte address CREATE2 gave.
 * Anvil writes its runtime code into every local (non-fork) genesis state, with nonce 0 and no
 * balance (foundry crates/anvil config.rs / backend set_create2_deployer); chain-sim does the same.
 */
import { hexToBytes } from '@ethereumjs/util';

import type { AccountState } from '../state/stateDump.js';

/** Its address, lower-case as an Alloc key. */
export const CREATE2_DEPLOYER_ADDRESS = '0x4e59b44847b379578588920ca78fbf26c0b4956c';

/** Its runtime code (foundry's DEFAULT_CREATE2_DEPLOYER_RUNTIME_CODE; keccak 0x2fa86add…4989). */
export const CREATE2_DEPLOYER_RUNTIME_CODE: Uint8Array = hexToBytes(
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3',
);

/** The deployer as a genesis account: code only, as Anvil sets it. */
export function create2DeployerAccount(): AccountState {
  return { balance: 0n, nonce: 0n, code: CREATE2_DEPLOYER_RUNTIME_CODE, storage: new Map() };
}
