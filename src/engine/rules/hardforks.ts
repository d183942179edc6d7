import { Common, type ChainConfig, type HardforksDict, Hardfork, Mainnet, createCustomCommon } from '@ethereumjs/common';
import { paramsBlock } from '@ethereumjs/block';
import { paramsTx } from '@ethereumjs/tx';
import { secp256k1Ecrecover, secp256k1Ecsign } from '../accounts/secp256k1.js';
import { type ForkSchedule, forkAt } from './forkSchedule.js';
import { keccak256 } from '../util/keccak256.js';
import { lazyKzg } from '../transactions/kzg.js';
import { clip } from '../util/clip.js';

export const HARDFORK_NAMES: readonly string[] = Object.values(Hardfork);

/**
 * The newest hardfork that @ethereumjs/common schedules on mainnet at or before `now`.
 * Forks without a block or timestamp (not yet scheduled) never count.
 */
export function newestLiveHardfork(nowMs: number = Date.now()): string {
  const nowSeconds = BigInt(Math.floor(nowMs / 1000));
  let newest: string = Hardfork.Chainstart;
  for (const fork of Mainnet.hardforks) {
    const live = (fork.block !== null && fork.block !== undefined) || (fork.timestamp !== undefined && BigInt(fork.timestamp) <= nowSeconds);
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
    throw new Error(`unknown hardfork "${clip(hardfork)}"; known: ${HARDFORK_NAMES.join(', ')}`);
  }
  return fastEipLookup(
    skipEmptyParamUpdates(
      createCustomCommon({ chainId: Number(chainId), name: 'chain-sim' }, Mainnet, {
        hardfork,
        params: mergeParams(paramsTx, paramsBlock),
        customCrypto: CUSTOM_CRYPTO,
      }),
    ),
  );
}

const CUSTOM_CRYPTO = { kzg: lazyKzg, ecrecover: secp256k1Ecrecover, ecsign: secp256k1Ecsign, keccak256 };
/** EIP-4844: gas per blob; blob schedules count blobs. */
const GAS_PER_BLOB = 131072;

/**
 * A Common that knows a fork schedule (a go-ethereum genesis config), set to the fork
 * of the genesis block. The engine moves it between forks block by block (forkSchedule.ts).
 * Blob schedule entries override the fork's defaults; a fork without one keeps the
 * values ethereumjs has for mainnet.
 */
export function createScheduledCommon(chainId: bigint, schedule: ForkSchedule, genesisTimestamp: bigint): Common {
  const customHardforks: HardforksDict = {};
  const forkParams: ParamsDict = {};
  for (const [name, blob] of schedule.blobSchedule) {
    // Before the blob-parameter-only forks ethereumjs reads gas amounts; from bpo1 on, blob counts.
    const params = {
      targetBlobGasPerBlock: blob.target * GAS_PER_BLOB,
      maxBlobGasPerBlock: blob.max * GAS_PER_BLOB,
      target: blob.target,
      max: blob.max,
      blobGasPriceUpdateFraction: blob.baseFeeUpdateFraction,
    };
    // A bpo fork is nothing but its parameters, written inline (they would win over fork-scoped ones);
    // the named forks keep their EIPs and take the values as fork-scoped parameters.
    if (/^bpo\d$/.test(name)) customHardforks[name] = { eips: [], params };
    else forkParams[name] = params;
  }
  const chain: ChainConfig = {
    name: 'chain-sim',
    chainId: Number(chainId),
    genesis: Mainnet.genesis,
    hardforks: schedule.forks.map((fork) => ({
      name: fork.name,
      block: fork.block === undefined ? null : Number(fork.block),
      timestamp: fork.timestamp === undefined ? undefined : fork.timestamp.toString(),
    })),
    customHardforks,
    bootstrapNodes: [],
    // Proof of work until Paris, whose own config switches ethereumjs to proof of stake.
    consensus: Mainnet.consensus,
  };
  return fastEipLookup(
    skipEmptyParamUpdates(
      new Common({
        chain,
        hardfork: forkAt(schedule, 0n, genesisTimestamp),
        params: mergeParams(paramsTx, paramsBlock, forkParams),
        customCrypto: CUSTOM_CRYPTO,
      }),
    ),
  );
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
