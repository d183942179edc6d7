/**
 * What the page shares between its views: the head block number (moved by the WebSocket's
 * newHeads), the pending transactions seen, the node's metadata (a fork's pinned block), and what
 * the page itself remembers across reloads of the tab (sessionStorage): the snapshots it took and
 * the addresses it impersonated, which no JSON-RPC method lists.
 */
import { rpc } from './rpc.js';

export interface Metadata {
  readonly chainId: number;
  readonly clientVersion: string;
  readonly latestBlockNumber: number;
  readonly forkedNetwork?: { readonly chainId: number; readonly forkBlockNumber: number; readonly forkBlockHash: string };
}

export interface Snapshot {
  readonly id: string;
  readonly block: number;
  readonly takenAt: string;
}

const stored = <T>(key: string, fallback: T): T => {
  try {
    const text = sessionStorage.getItem(key);
    return text === null ? fallback : (JSON.parse(text) as T);
  } catch {
    return fallback;
  }
};
const store = (key: string, value: unknown): void => sessionStorage.setItem(key, JSON.stringify(value));

/** The snapshots taken from this tab, oldest first. */
export const snapshots = {
  list: (): Snapshot[] => stored<Snapshot[]>('chain-sim.snapshots', []),
  add(snapshot: Snapshot): void {
    store('chain-sim.snapshots', [...snapshots.list(), snapshot]);
  },
  /** A revert consumes its snapshot and invalidates every later one (evm_revert's rule). */
  revertTo(id: string): void {
    const list = snapshots.list();
    const at = list.findIndex((s) => s.id === id);
    store('chain-sim.snapshots', at < 0 ? list : list.slice(0, at));
  },
  clear(): void {
    store('chain-sim.snapshots', []);
  },
};

/** Addresses impersonated from this tab. */
export const impersonated = {
  list: (): string[] => stored<string[]>('chain-sim.impersonated', []),
  add(address: string): void {
    const list = impersonated.list();
    if (!list.includes(address)) store('chain-sim.impersonated', [...list, address]);
  },
  remove(address: string): void {
    store(
      'chain-sim.impersonated',
      impersonated.list().filter((a) => a !== address),
    );
  },
};

export interface ContractInfo {
  readonly address: string;
  readonly contract: { readonly name: string; readonly sourceName: string; readonly abi: readonly AbiEntry[] } | null;
  readonly proxy?: { readonly standard: string; readonly implementation: string; readonly contract: ContractInfo['contract'] };
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
