/**
 * `--state` on a fork. The state file records the fork (the upstream's URL with credentials
 * masked, its chain id, the pinned block's number, hash and header, the rules) beside the
 * local blocks after it and the local overlay (forkOverlay.ts). A restart needs the
 * upstream's state under that overlay, which comes from:
 * - the upstream given again with --fork (its pinned block's hash must be the saved one), or
 * - without --fork, the disk cache of that chain id and block (diskCache.ts) alone: the node
 *   starts without any network, and a read that needs something the cache lacks fails with an
 *   error naming the upstream, the block and the missing key, and saying to restart with --fork.
 */
import { existsSync } from 'node:fs';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import type { ForkOverlay } from '../engine/index.js';
import { ForkDiskCache } from './diskCache.js';
import { type ForkSession, type ForkSettings, connectFork, openSession } from './session.js';
import { Upstream, UpstreamError } from './upstream.js';

/** JSON as a state file holds it (the fork layer speaks its upstream's JSON, not the RPC layer's). */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json | undefined };
type JsonObject = { [key: string]: Json | undefined };

const hex = (value: bigint): string => `0x${value.toString(16)}`;

/** The fork a state file was saved on, and the overlay facts an account dump cannot hold. */
export interface SavedFork {
  /** The upstream's URL as printed (credentials masked): for messages only, never contacted. */
  readonly upstream: string;
  readonly chainId: bigint;
  readonly number: bigint;
  readonly hashHex: string;
  readonly hardfork: string;
  readonly hardforkGiven: boolean;
  /** The pinned block as the upstream answered it. */
  readonly block: Readonly<Record<string, unknown>>;
  readonly overlay: Omit<ForkOverlay, 'alloc'>;
}

/** A state file's `fork` field: what a save on `session` with `overlay` writes. */
export function encodeSavedFork(session: ForkSession, overlay: Omit<ForkOverlay, 'alloc'>): JsonObject {
  const { transactions: _, ...block } = session.block; // hashes only; not needed to rebuild the header
  return {
    upstream: session.upstream.masked,
    chainId: hex(session.chainId),
    blockNumber: hex(session.number),
    blockHash: session.hashHex,
    hardfork: session.hardfork,
    hardforkGiven: session.hardforkGiven,
    block: block as JsonObject,
    stateRoot: bytesToHex(overlay.stateRoot),
    deleted: overlay.deleted,
    upstreamStorage: overlay.upstreamStorage,
    zeroSlots: Object.fromEntries(overlay.zeroSlots),
  };
}

/** The `fork` field read back; a malformed one is an error naming the field (the caller adds the file). */
export function decodeSavedFork(json: Json): SavedFork {
  const fail = (field: string, problem: string): never => {
    throw new Error(`fork.${field}: ${problem}`);
  };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return fail('', 'expected an object');
  const record = json as Record<string, Json>;
  const text = (field: string): string => (typeof record[field] === 'string' ? (record[field] as string) : fail(field, 'expected a string'));
  const quantity = (field: string): bigint => (/^0x[0-9a-f]{1,64}$/i.test(text(field)) ? BigInt(text(field)) : fail(field, 'expected a hex quantity'));
  const addresses = (field: string): string[] => {
    const list = record[field];
    if (!Array.isArray(list) || !list.every((a) => typeof a === 'string' && /^0x[0-9a-f]{40}$/.test(a))) return fail(field, 'expected an array of addresses');
    return list as string[];
  };
  const hashHex = text('blockHash');
  if (!/^0x[0-9a-f]{64}$/.test(hashHex)) fail('blockHash', 'expected a 32-byte hash');
  const block = record.block;
  if (typeof block !== 'object' || block === null || Array.isArray(block)) return fail('block', 'expected an object');
  const zeroSlots = new Map<string, string[]>();
  const zeros = record.zeroSlots ?? {};
  if (typeof zeros !== 'object' || zeros === null || Array.isArray(zeros)) return fail('zeroSlots', 'expected an object');
  for (const [address, slots] of Object.entries(zeros)) {
    if (!Array.isArray(slots) || !slots.every((s) => typeof s === 'string' && /^0x[0-9a-f]{64}$/.test(s)))
      fail(`zeroSlots.${address}`, 'expected 32-byte slots');
    zeroSlots.set(address, slots as string[]);
  }
  const stateRoot = text('stateRoot');
  if (!/^0x[0-9a-f]{64}$/.test(stateRoot)) fail('stateRoot', 'expected a 32-byte hash');
  return {
    upstream: text('upstream'),
    chainId: quantity('chainId'),
    number: quantity('blockNumber'),
    hashHex,
    hardfork: text('hardfork'),
    hardforkGiven: record.hardforkGiven === true,
    block: block as Record<string, unknown>,
    overlay: { deleted: addresses('deleted'), upstreamStorage: addresses('upstreamStorage'), zeroSlots, stateRoot: hexToBytes(stateRoot as `0x${string}`) },
  };
}

/** Which fork a saved one is, for messages: the upstream, chain id, block and hash. */
export function describeSavedFork(saved: SavedFork): string {
  return `a fork of ${saved.upstream} (chain id ${saved.chainId}) at block ${saved.number} (hash ${saved.hashHex})`;
}

/**
 * Open the saved fork again: through `given` (--fork: the same chain, checked by the pinned
 * block's hash) or, without it, from the disk cache alone. Problems are thrown as plain
 * messages; the caller names the state file.
 */
export async function resumeFork(
  saved: SavedFork,
  given: ForkSettings | undefined,
  defaults: Omit<ForkSettings, 'url' | 'blockNumber'>,
  hardfork: string | undefined,
): Promise<ForkSession> {
  const rules = hardfork ?? (saved.hardforkGiven ? saved.hardfork : undefined);
  if (given) {
    if (given.blockNumber !== undefined && given.blockNumber !== saved.number)
      throw new Error(
        `holds ${describeSavedFork(saved)}: --fork-block-number ${given.blockNumber} would be another chain (leave it out, or use another state file)`,
      );
    const session = await connectFork({ ...given, blockNumber: saved.number, hardfork: rules });
    if (session.hashHex !== saved.hashHex || session.chainId !== saved.chainId) {
      session.cache?.save();
      throw new Error(
        `holds ${describeSavedFork(saved)}, but ${session.upstream.masked} has chain id ${session.chainId} and block ${saved.number} with hash ${session.hashHex}: not the same chain`,
      );
    }
    return session;
  }
  if (defaults.cacheDir === null)
    throw new Error(
      `holds ${describeSavedFork(saved)}; with --no-fork-cache the upstream's state can only come from the upstream: give --fork URL (that chain's)`,
    );
  const cache = new ForkDiskCache(defaults.cacheDir, saved.chainId, saved.number, saved.hashHex);
  if (!existsSync(cache.path))
    throw new Error(
      `holds ${describeSavedFork(saved)}; its upstream state is not in the disk cache (no ${cache.path}): give --fork URL (that chain's) to fetch it`,
    );
  const upstream = new OfflineUpstream(saved, cache.path);
  const settings: ForkSettings = { ...defaults, url: saved.upstream, blockNumber: saved.number, hardfork: rules };
  const session = openSession(settings, upstream, saved.chainId, saved.number, saved.block, { hardFork: saved.hardfork });
  return { ...session, hardforkSource: rules ? session.hardforkSource : 'as saved in the state file', offline: true };
}

/** The upstream of a fork restored without --fork: every request is refused, naming what was missing. */
class OfflineUpstream extends Upstream {
  constructor(
    private readonly saved: SavedFork,
    private readonly cachePath: string,
  ) {
    super({ url: 'http://offline.invalid/', retries: 0 });
    (this as { masked: string }).masked = saved.upstream;
  }

  override request(method: string, _params: readonly unknown[], key = ''): Promise<unknown> {
    return Promise.reject(
      new UpstreamError(
        `fork upstream ${this.saved.upstream} is not connected (this node was restored from its state file without --fork): ${method}${key ? ` for ${key}` : ''} is not in the disk cache ${this.cachePath}; restart with --fork URL of chain id ${this.saved.chainId} (block ${this.saved.number} hash ${this.saved.hashHex}) to fetch it`,
      ),
    );
  }
}
