/**
 * The system contracts of the forks: contracts the protocol calls at the start or end of every
 * block once their EIP is active (the beacon root, EIP-4788; historical block hashes, EIP-2935;
 * withdrawal and consolidation requests, EIP-7002 and EIP-7251). A block that would call one that
 * exists changes state, so it is not a plain empty block (mining/mineMany.ts).
 */
import { type Address, createAddressFromString } from '@ethereumjs/util';

/** Each system contract's EIP and address. */
export const SYSTEM_CONTRACTS: ReadonlyArray<readonly [number, Address]> = [
  [4788, createAddressFromString('0x000f3df6d732807ef1319fb7b8bb8522d0beac02')],
  [2935, createAddressFromString('0x0000f90827f1c53a10cb7a02335b175320002935')],
  [7002, createAddressFromString('0x00000961ef480eb55e80d19ad83579a64c007002')],
  [7251, createAddressFromString('0x0000bbddc7ce488642fb579f8b00f3a590007251')],
];
