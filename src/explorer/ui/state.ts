/**
 * What the page shares between its views: the head block number (moved by the WebSocket's
 * newHeads), the pending transactions seen, the node's metadata (a fork's pinned block), the
 * node's snapshots and impersonated addresses (asked each time: other clients change them), and
 * the contracts identified.
 */
import { rpc } from './rpc.js';

export interface Metadata {
  readonly chainId: number;
  readonly clientVersion: string;
  readonly latestBlockNumber: number;
  readonly forkedNetwork?: { readonly chainId: number; readonly forkBlockNumber: number; readonly forkBlockHash: string };
}

/** A live snapshot, as chain_snapshots lists it (quantities in hex). */
export interface Snapshot {
  readonly id: string;
  readonly blockNumber: string;
  /** The chain's clock when it was taken. */
  readonly timestamp: string;
}

/** The node's live snapshots, oldest first, whoever took them (a test, another tab, this one). */
export const listSnapshots = (): Promise<Snapshot[]> => rpc<Snapshot[]>('chain_snapshots');

/** The addresses impersonated on the node, by any client. */
export const listImpersonated = (): Promise<string[]> => rpc<string[]>('chain_impersonatedAccounts');

export interface ContractInfo {
  readonly address: string;
  readonly contract: { readonly name: string; readonly sourceName: string; readonly abi: readonly AbiEntry[] } | null;
  readonly proxy?: {
    readonly standard: string;
    readonly implementation: string;
    readonly contract: ContractInfo['contract'];
    /** A beacon proxy's beacon (EIP-1967), whose implementation() names the implementation. */
    readonly beacon?: { readonly address: string; readonly contract: ContractInfo['contract'] };
  };
}

export interface AbiParam {
  readonly name: string;
  readonly type: string;
  readonly indexed?: boolean;
  readonly components?: readonly AbiParam[];
}

export interface AbiEntry {
  readonly type: string;
  readonly name?: string;
  readonly inputs?: readonly AbiParam[];
  readonly outputs?: readonly AbiParam[];
  readonly stateMutability?: string;
  readonly anonymous?: boolean;
}

const identified = new Map<string, Promise<ContractInfo | null>>();

/**
 * The project's contract at an address (chain_identifyContract), asked once per address while the
 * page is open; null for an account without code. A node without the method answers null.
 */
export function identify(address: string): Promise<ContractInfo | null> {
  const key = address.toLowerCase();
  let found = identified.get(key);
  if (!found) {
    found = rpc<ContractInfo | null>('chain_identifyContract', [key]).catch(() => null);
    identified.set(key, found);
  }
  return found;
}

/** The ABI to read an address with: its own, or behind a proxy its implementation's with the proxy's. */
export function abiOf(info: ContractInfo | null): readonly AbiEntry[] {
  if (!info) return [];
  return [...(info.contract?.abi ?? []), ...(info.proxy?.contract?.abi ?? [])];
}

/** Forget identifications (after a revert or a reset, code at an address may have changed). */
export function forgetIdentifications(): void {
  identified.clear();
}
