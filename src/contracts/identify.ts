/**
 * What contract an address holds: its code matched against the project's (registry.ts), and
 * for the two proxy standards the contract behind it: EIP-1167's minimal proxy (the
 * implementation's address is in its 45 bytes of code) and EIP-1967's (in a fixed storage
 * slot, or, for a beacon proxy, asked of the beacon whose address is in another slot: its
 * `implementation()`). Code deployed by a contract and code of a forked chain are identified the same way:
 * by their bytes, whoever put them there.
 */
import { bytesToHex } from '@ethereumjs/util';
import type { CompiledContract } from './compiled.js';
import type { ContractRegistry } from './registry.js';

/** Reads of the chain an identification needs (at the block in question). */
export interface ChainReader {
  code(address: string): Promise<Uint8Array>;
  storage(address: string, slot: Uint8Array): Promise<Uint8Array>;
  /** A read-only call's return data (undefined if it failed); without it, beacon proxies are not followed. */
  call?(to: string, data: Uint8Array): Promise<Uint8Array | undefined>;
}

export type ProxyStandard = 'EIP-1167' | 'EIP-1967' | 'EIP-1967 beacon';

export interface Identified {
  readonly address: string;
  /** The contract whose code this is, if the project has it. */
  readonly contract: CompiledContract | undefined;
  /** The proxy standard the code follows, and the contract it delegates to. */
  readonly proxy?: {
    readonly standard: ProxyStandard;
    readonly implementation: string;
    readonly target: CompiledContract | undefined;
    /** A beacon proxy's beacon: its address and contract. */
    readonly beacon?: { readonly address: string; readonly contract: CompiledContract | undefined };
  };
}

/** keccak256("eip1967.proxy.implementation") - 1. */
export const EIP1967_IMPLEMENTATION_SLOT = Uint8Array.from(Buffer.from('360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc', 'hex'));

/** keccak256("eip1967.proxy.beacon") - 1: a beacon proxy's beacon, whose implementation() the proxy delegates to. */
export const EIP1967_BEACON_SLOT = Uint8Array.from(Buffer.from('a3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50', 'hex'));

/** implementation()'s selector (IBeacon). */
const IMPLEMENTATION_SELECTOR = Uint8Array.from([0x5c, 0x60, 0xda, 0x1b]);

const CLONE_PREFIX = Buffer.from('363d3d373d3d3d363d73', 'hex');
const CLONE_SUFFIX = Buffer.from('5af43d82803e903d91602b57fd5bf3', 'hex');

/** The implementation an EIP-1167 minimal proxy's code delegates to (lowercase 0x address), if `code` is one. */
export function minimalProxyTarget(code: Uint8Array): string | undefined {
  if (code.length !== CLONE_PREFIX.length + 20 + CLONE_SUFFIX.length) return undefined;
  if (Buffer.compare(code.subarray(0, CLONE_PREFIX.length), CLONE_PREFIX) !== 0) return undefined;
  if (Buffer.compare(code.subarray(CLONE_PREFIX.length + 20), CLONE_SUFFIX) !== 0) return undefined;
  return bytesToHex(code.subarray(CLONE_PREFIX.length, CLONE_PREFIX.length + 20));
}

/** The contract at `address`, and what a proxy there delegates to; undefined when the account has no code. */
export async function identifyAddress(registry: ContractRegistry, reader: ChainReader, address: string): Promise<Identified | undefined> {
  const code = await reader.code(address);
  if (code.length === 0) return undefined;
  const contract = registry.identify(code)?.contract;
  const clone = minimalProxyTarget(code);
  if (clone !== undefined) return { address, contract, proxy: { standard: 'EIP-1167', implementation: clone, target: await codeOf(registry, reader, clone) } };
  const implementation = addressIn(await reader.storage(address, EIP1967_IMPLEMENTATION_SLOT));
  if (implementation !== undefined)
    return { address, contract, proxy: { standard: 'EIP-1967', implementation, target: await codeOf(registry, reader, implementation) } };
  const beacon = addressIn(await reader.storage(address, EIP1967_BEACON_SLOT));
  if (beacon !== undefined && reader.call) {
    const answer = await reader.call(beacon, IMPLEMENTATION_SELECTOR);
    const behind = answer?.length === 32 ? addressIn(answer) : undefined;
    if (behind !== undefined) {
      const target = await codeOf(registry, reader, behind);
      const beaconContract = await codeOf(registry, reader, beacon);
      return {
        address,
        contract,
        proxy: { standard: 'EIP-1967 beacon', implementation: behind, target, beacon: { address: beacon, contract: beaconContract } },
      };
    }
  }
  return { address, contract };
}

/** The address a 32-byte word holds (lowercase 0x), if it is one: 12 zero bytes, then not all zeros. */
function addressIn(word: Uint8Array): string | undefined {
  if (word.length !== 32 || word.subarray(0, 12).some((byte) => byte !== 0)) return undefined;
  const address = word.subarray(12);
  return address.some((byte) => byte !== 0) ? bytesToHex(address) : undefined;
}

async function codeOf(registry: ContractRegistry, reader: ChainReader, address: string): Promise<CompiledContract | undefined> {
  return registry.identify(await reader.code(address))?.contract;
}

/**
 * How a contract is named to users: `Token`, `Proxy (EIP-1967 proxy to Token)`,
 * `BeaconProxy (EIP-1967 beacon proxy to Token)`; undefined when nothing is known.
 */
export function labelOf(identified: Identified): string | undefined {
  const own = identified.contract?.name;
  const proxy = identified.proxy;
  if (!proxy) return own;
  const target = proxy.target?.name ?? proxy.implementation;
  const base = own ?? (proxy.standard === 'EIP-1167' ? 'clone' : 'proxy');
  return `${base} (${proxy.standard} proxy to ${target})`;
}
