import { Common, Hardfork, Mainnet, createCustomCommon } from '@ethereumjs/common';
import { paramsBlock } from '@ethereumjs/block';
import { paramsTx } from '@ethereumjs/tx';
import { wasmEcrecover } from './ecrecover.js';
import { keccak256 } from './keccak256.js';
import { sidecarlessKzg } from './kzg.js';

export const HARDFORK_NAMES: readonly string[] = Object.values(Hardfork);

/**
 * The newest hardfork that @ethereumjs/common schedules on mainnet at or before `now`.
 * Forks without a block or timestamp (not yet scheduled) never count.
 */
export function newestLiveHardfork(nowMs: number = Date.now()): string {
  const nowSeconds = BigInt(Math.floor(nowMs / 1000));
  let newest: string = Hardfork.Chainstart;
  for (const fork of Mainnet.hardforks) {
    const live =
      (fork.block !== null && fork.block !== undefined) ||
      (fork.timestamp !== undefined && BigInt(fork.timestamp) <= nowSeconds);
    if (live) newest = fork.name;
  }
  return newest;
}

/**
 * A Common fixed at one hardfork for every block: a dev chain has no fork schedule.
 * Transaction parameters (e.g. EIP-7825's gas cap) are loaded so the engine can read them too.
 */
export function createChainCommon(chainId: bigint, hardfork: string): Common {
  if (!HARDFORK_NAMES.includes(hardfork)) {
    throw new Error(`unknown hardfork "${hardfork}"; known: ${HARDFORK_NAMES.join(', ')}`);
  }
  return fastEipLookup(skipEmptyParamUpdates(createCustomCommon({ chainId: Number(chainId), name: 'chain-sim' }, Mainnet, {
    hardfork,
    params: mergeParams(paramsTx, paramsBlock),
    customCrypto: { kzg: sidecarlessKzg, ecrecover: wasmEcrecover, keccak256 },
  })));
}

/** True once the chain has left proof-of-work (Paris and later). */
export function isPostMerge(common: Common): boolean {
  return common.gteHardfork(Hardfork.Paris);
}

type ParamsDict = typeof paramsTx;

/**
 * Every transaction and block ethereumjs constructs copies its Common and calls
 * updateParams, which rebuilds the whole parameter cache even for an empty update
 * (PRELOADED_PARAMS): about a tenth of a transfer's cost. On the chain's Common an
 * empty update is a no-op; copies inherit the override (Common.copy is Object.assign).
 */
function skipEmptyParamUpdates(common: Common): Common {
  const update = Common.prototype.updateParams;
  Object.defineProperty(common, 'updateParams', {
    value(this: Common, params: ParamsDict) {
      return Object.keys(params).length === 0 ? this : update.call(this, params);
    },
    enumerable: true,
    writable: true,
  });
  return common;
}

/** Sets of activated EIPs, one per array Common builds (it builds a new one per hardfork change). */
const eipSets = new WeakMap<readonly number[], ReadonlySet<number>>();

/**
 * Common.isActivatedEIP scans an array of ~80 EIPs, and the EVM asks it for almost every
 * opcode and gas charge: about 7% of an eth_call. A set answers the same question at once.
 */
function fastEipLookup(common: Common): Common {
  Object.defineProperty(common, 'isActivatedEIP', {
    value(this: Common, eip: number): boolean {
      const active = (this as unknown as { _activatedEIPsCache: readonly number[] })._activatedEIPsCache;
      let set = eipSets.get(active);
      if (!set) eipSets.set(active, (set = new Set(active)));
      return set.has(eip);
    },
    enumerable: true,
    writable: true,
  });
  return common;
}

function mergeParams(...dicts: ParamsDict[]): ParamsDict {
  const merged: ParamsDict = {};
  for (const dict of dicts) {
    for (const [eip, values] of Object.entries(dict)) merged[eip] = { ...merged[eip], ...values };
  }
  return merged;
}

/**
 * Pass as `params` when building transactions and blocks on the chain's Common: its
 * parameters are already loaded, and ethereumjs otherwise deep-copies its whole
 * default parameter table into every object it constructs (a large share of a call's cost).
 */
export const PRELOADED_PARAMS: ParamsDict = Object.freeze({}) as ParamsDict;
