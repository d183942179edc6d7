/**
 * EIP-7910 (eth_config): the rules of the current, next and last timestamp-scheduled forks,
 * computed as go-ethereum's BlockChainAPI.Config does (internal/ethapi/api.go): forks are
 * go-ethereum's ordered list from Shanghai on, and "next" is only the fork right after the
 * current one in that list (null when that one is not scheduled, and then "last" is null too).
 */
import type { BlobParams, ForkActivation, ForkSchedule } from './forkSchedule.js';
import { forkIdHash } from './forkId.js';
import { HARDFORK_NAMES } from './hardforks.js';

/**
 * go-ethereum's timestamp forks in order (forks.Fork from Shanghai; Paris precedes them).
 * Amsterdam is left out: its system contracts and precompiles are not settled in ethereumjs
 * 10.1, so a chain that schedules it is refused by the caller rather than described wrongly.
 */
export const TIME_FORKS = ['shanghai', 'cancun', 'prague', 'osaka', 'bpo1', 'bpo2', 'bpo3', 'bpo4', 'bpo5'] as const;

export interface ForkRules {
  readonly activationTime: bigint;
  readonly blobSchedule: BlobParams | undefined;
  readonly chainId: bigint;
  readonly forkId: Uint8Array;
  /** Name → 20-byte address, sorted by name (go-ethereum marshals its map sorted). */
  readonly precompiles: ReadonlyArray<readonly [string, Uint8Array]>;
  readonly systemContracts: ReadonlyArray<readonly [string, Uint8Array]>;
}

export interface ForkConfigAnswer {
  readonly current: ForkRules | undefined;
  readonly next: ForkRules | undefined;
  readonly last: ForkRules | undefined;
}

export interface ForkConfigInputs {
  readonly chainId: bigint;
  /** The chain's schedule; undefined for a chain on one hardfork from genesis. */
  readonly schedule: ForkSchedule | undefined;
  /** The single hardfork of a chain without a schedule. */
  readonly hardfork: string;
  readonly genesisHash: Uint8Array;
  readonly genesisTimestamp: bigint;
  readonly headTimestamp: bigint;
  /** A chain without a schedule: the blob parameters its one hardfork runs with (undefined before Cancun). */
  readonly singleForkBlobs?: BlobParams;
}

export function forkConfig(inputs: ForkConfigInputs): ForkConfigAnswer {
  const forks = inputs.schedule?.forks ?? fromGenesis(inputs.hardfork);
  const timeOf = (fork: string): bigint | undefined => forks.find((f) => f.name === fork)?.timestamp;
  // go-ethereum's LatestFork: the newest timestamp fork active at `time` (Paris before any).
  const latestIndex = (time: bigint | undefined): number => {
    let latest = -1;
    TIME_FORKS.forEach((fork, i) => {
      const at = timeOf(fork);
      if (at !== undefined && (time === undefined || at <= time)) latest = i;
    });
    return latest;
  };
  const forkIdInputs = {
    genesisHash: inputs.genesisHash,
    genesisTimestamp: inputs.genesisTimestamp,
    // Paris is reached by total difficulty in go-ethereum: no config field, no fork id entry.
    blocks: forks.filter((f) => f.block !== undefined && f.name !== 'paris' && f.name !== 'chainstart' && !f.implied).map((f) => f.block!),
    timestamps: forks.filter((f) => f.timestamp !== undefined).map((f) => f.timestamp!),
  };
  const assemble = (index: number): ForkRules | undefined => {
    const fork = TIME_FORKS[index];
    const at = fork === undefined ? undefined : timeOf(fork);
    if (fork === undefined || at === undefined) return undefined;
    return {
      activationTime: inputs.genesisTimestamp >= at ? 0n : at,
      blobSchedule: inputs.schedule ? blobParams(inputs.schedule, index) : inputs.singleForkBlobs,
      chainId: inputs.chainId,
      forkId: forkIdHash(forkIdInputs, at),
      precompiles: precompilesOf(index),
      systemContracts: systemContractsOf(index, inputs.schedule?.depositContract ?? new Uint8Array(20)),
    };
  };
  const current = latestIndex(inputs.headTimestamp);
  const next = assemble(current + 1);
  return { current: assemble(current), next, last: next ? assemble(latestIndex(undefined)) : undefined };
}

/** A chain on one hardfork: every fork up to it at genesis (blocks at 0, timestamps at 0). */
function fromGenesis(hardfork: string): ForkActivation[] {
  const upTo = HARDFORK_NAMES.slice(0, HARDFORK_NAMES.indexOf(hardfork) + 1);
  return upTo.map((name) => ((TIME_FORKS as readonly string[]).includes(name) ? { name, timestamp: 0n } : { name, block: 0n }));
}

/** go-ethereum's defaults where a genesis names no blob parameters for Cancun or Prague. */
const DEFAULT_BLOBS: Readonly<Record<string, BlobParams>> = {
  cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 },
  prague: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
};

/** go-ethereum's BlobConfig: the newest of bpo5..bpo1, prague, cancun at or before the fork (Osaka's own entry is not read). */
function blobParams(schedule: ForkSchedule, index: number): BlobParams | undefined {
  for (const fork of ['bpo5', 'bpo4', 'bpo3', 'bpo2', 'bpo1', 'prague', 'cancun']) {
    if (TIME_FORKS.indexOf(fork as (typeof TIME_FORKS)[number]) > index) continue;
    const params = schedule.blobSchedule.get(fork) ?? DEFAULT_BLOBS[fork];
    if (params) return params;
  }
  return undefined;
}

const address = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex.padStart(40, '0'), 'hex'));

/** go-ethereum's precompile names (PrecompiledContract.Name) and the fork (TIME_FORKS index) each arrives with. */
const PRECOMPILES: ReadonlyArray<readonly [string, string, number]> = [
  ['ECREC', '01', 0],
  ['SHA256', '02', 0],
  ['RIPEMD160', '03', 0],
  ['ID', '04', 0],
  ['MODEXP', '05', 0],
  ['BN254_ADD', '06', 0],
  ['BN254_MUL', '07', 0],
  ['BN254_PAIRING', '08', 0],
  ['BLAKE2F', '09', 0],
  ['KZG_POINT_EVALUATION', '0a', 1],
  ['BLS12_G1ADD', '0b', 2],
  ['BLS12_G1MSM', '0c', 2],
  ['BLS12_G2ADD', '0d', 2],
  ['BLS12_G2MSM', '0e', 2],
  ['BLS12_PAIRING_CHECK', '0f', 2],
  ['BLS12_MAP_FP_TO_G1', '10', 2],
  ['BLS12_MAP_FP2_TO_G2', '11', 2],
  ['P256VERIFY', '0100', 3],
];

function precompilesOf(index: number): Array<readonly [string, Uint8Array]> {
  return PRECOMPILES.filter(([, , from]) => from <= index)
    .map(([name, hex]) => [name, address(hex)] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1));
}

/** go-ethereum's ActiveSystemContracts (EIP-4788 from Cancun; EIP-2935, 6110, 7002, 7251 from Prague). */
function systemContractsOf(index: number, depositContract: Uint8Array): Array<readonly [string, Uint8Array]> {
  const out: Array<readonly [string, Uint8Array]> = [];
  if (index >= 1) out.push(['BEACON_ROOTS_ADDRESS', address('000f3df6d732807ef1319fb7b8bb8522d0beac02')]);
  if (index >= 2) {
    out.push(
      ['CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS', address('0000bbddc7ce488642fb579f8b00f3a590007251')],
      ['DEPOSIT_CONTRACT_ADDRESS', depositContract],
      ['HISTORY_STORAGE_ADDRESS', address('0000f90827f1c53a10cb7a02335b175320002935')],
      ['WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS', address('00000961ef480eb55e80d19ad83579a64c007002')],
    );
  }
  return out.sort(([a], [b]) => (a < b ? -1 : 1));
}
