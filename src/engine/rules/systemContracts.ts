/**
 * The system contracts of the forks: contracts the protocol calls at the start or end of every
 * block once their EIP is active (the beacon root, EIP-4788; historical block hashes, EIP-2935;
 * withdrawal and consolidation requests, EIP-7002 and EIP-7251). A block that would call one that
 * exists changes state, so it is not a plain empty block (mining/mineMany.ts); a block on a chain
 * without any skips the calls (execution/blockBuilder.ts).
 */
import { type Address, createAddressFromString } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';

/** Each system contract's EIP and address. */
export const SYSTEM_CONTRACTS: ReadonlyArray<readonly [number, Address]> = [
  [4788, createAddressFromString('0x000f3df6d732807ef1319fb7b8bb8522d0beac02')],
  [2935, createAddressFromString('0x0000f90827f1c53a10cb7a02335b175320002935')],
  [7002, createAddressFromString('0x00000961ef480eb55e80d19ad83579a64c007002')],
  [7251, createAddressFromString('0x0000bbddc7ce488642fb579f8b00f3a590007251')],
];

/**
 * Whether none of the system contracts that the VM's rules activate has an account (among
 * `eips` only, if given): the protocol's calls to them would do nothing.
 */
export async function systemContractsAbsent(vm: VM, eips?: readonly number[]): Promise<boolean> {
  for (const [eip, address] of SYSTEM_CONTRACTS) {
    if ((eips === undefined || eips.includes(eip)) && vm.common.isActivatedEIP(eip) && (await vm.stateManager.getAccount(address)) !== undefined) return false;
  }
  return true;
}
