/**
 * Connecting to an upstream: pin a block (the given one, a negative one counted back from
 * the head, or the head at start-up), read its header, the chain id and the rules in force,
 * and open the disk cache of what was fetched at that block before.
 */
import { Common, Hoodi, Holesky, Mainnet, Sepolia, type ChainConfig } from '@ethereumjs/common';
import type { HeaderData } from '@ethereumjs/block';
import { HARDFORK_NAMES, type ForkPoint, type ForkSchedule } from '../engine/index.js';
import { ForkDiskCache } from './diskCache.js';
import { hardforkOfFields } from './headerRules.js';
import { UpstreamAnswers } from './answers.js';
import { UpstreamHistory } from './history.js';
import { UpstreamState } from './remoteState.js';
import { Upstream, UpstreamError, type UpstreamLimits } from './upstream.js';

export interface ForkSettings extends Partial<UpstreamLimits> {
  readonly url: string;
  /** Pinned block; negative: counted back from the upstream's head; undefined: the head. */
  readonly blockNumber?: bigint;
  readonly headers?: Readonly<Record<string, string>>;
  /** Directory of the disk cache; null: no disk cache. */
  readonly cacheDir: string | null;
  /** Rules to follow instead of the upstream's (--hardfork). */
  readonly hardfork?: string;
}

export interface ForkSession {
  readonly settings: ForkSettings;
  readonly upstream: Upstream;
  readonly chainId: bigint;
  readonly number: bigint;
  readonly hashHex: string;
  readonly hardfork: string;
  /** How the hardfork was chosen, for the banner. */
  readonly hardforkSource: string;
  readonly point: ForkPoint;
  readonly state: UpstreamState;
  readonly cache: ForkDiskCache | undefined;
  /** The upstream's answers about what lies at or below the pinned block (history, older state, traces), each asked once. */
  readonly answers: UpstreamAnswers;
  /** The pinned block as the upstream answered eth_getBlockByNumber (a --state file keeps it). */
  readonly block: Readonly<Record<string, unknown>>;
  /** Whether --hardfork chose the rules (a --state file keeps that choice). */
  readonly hardforkGiven: boolean;
  /** Restored from a --state file without an upstream (savedFork.ts): every fetch is refused. */
  readonly offline?: boolean;
}

const KNOWN_CHAINS: ReadonlyMap<bigint, ChainConfig> = new Map(
  [
    [1n, Mainnet],
    [11155111n, Sepolia],
    [17000n, Holesky],
    [560048n, Hoodi],
  ].map(([id, config]) => [BigInt(id as bigint), config as ChainConfig]),
);

export async function connectFork(settings: ForkSettings): Promise<ForkSession> {
  const { url, headers, timeoutMs, retries, requestsPerSecond, maxResponseBytes, retryBackoffMs, computeUnitsPerSecond } = settings;
  const upstream = new Upstream({ url, headers, timeoutMs, retries, requestsPerSecond, maxResponseBytes, retryBackoffMs, computeUnitsPerSecond });
  const given = settings.blockNumber;
  const blockOf = (number: bigint) => upstream.request('eth_getBlockByNumber', [`0x${number.toString(16)}`, false], `block ${number}`);
  // One batch: the chain id, the head if needed, what the upstream says its rules are (Anvil answers
  // anvil_nodeInfo), and a pinned block's header when its number is known: a second round trip only
  // when the block is counted from the head (a remote upstream's round trip is most of a warm start).
  const pinned = given !== undefined && given >= 0n ? given : undefined;
  const [chainIdHex, headHex, nodeInfo, pinnedBlock] = await Promise.all([
    upstream.request('eth_chainId', [], 'the chain id'),
    pinned === undefined ? upstream.request('eth_blockNumber', [], 'the head block number') : Promise.resolve(undefined),
    upstream.request('anvil_nodeInfo', [], 'its hardfork').catch(() => undefined),
    pinned === undefined ? Promise.resolve(undefined) : blockOf(pinned),
  ]);
  const chainId = quantityOf(chainIdHex, upstream, 'eth_chainId');
  let number: bigint;
  if (pinned !== undefined) number = pinned;
  else if (given === undefined) number = quantityOf(headHex, upstream, 'eth_blockNumber');
  else {
    const head = quantityOf(headHex, upstream, 'eth_blockNumber');
    number = head + given;
    if (number < 0n) throw new UpstreamError(`fork block ${given} counts back past block 0 (the upstream ${upstream.masked} is at block ${head})`);
  }
  const raw = pinned === undefined ? await blockOf(number) : pinnedBlock;
  if (raw === null || typeof raw !== 'object') {
    throw new UpstreamError(`fork upstream ${upstream.masked} has no block ${number} (beyond its head, or pruned)`);
  }
  return openSession(settings, upstream, chainId, number, raw as Record<string, unknown>, nodeInfo);
}

/**
 * A session on a pinned block already fetched (or kept in a --state file): its header,
 * rules, fork point and the disk cache of what was fetched at it before.
 */
export function openSession(
  settings: ForkSettings,
  upstream: Upstream,
  chainId: bigint,
  number: bigint,
  block: Readonly<Record<string, unknown>>,
  nodeInfo: unknown,
): ForkSession {
  const header = headerOf(block, upstream);
  const hashHex = String(block.hash).toLowerCase();
  if (!/^0x[0-9a-f]{64}$/.test(hashHex)) throw new UpstreamError(`fork upstream ${upstream.masked}: block ${number} has no valid hash`);
  const network = knownNetworkOf(chainId, header);
  const { hardfork, source, schedule } = hardforkOf(settings.hardfork, network, header, nodeInfo);
  const cache = settings.cacheDir === null ? undefined : new ForkDiskCache(settings.cacheDir, chainId, number, hashHex);
  const loaded = cache?.load();
  const state = new UpstreamState(upstream, `0x${number.toString(16)}`, loaded?.state);
  // The state's upstream is the one asked: anvil_setRpcUrl moves it.
  const answers = new UpstreamAnswers(
    () => state.upstream,
    loaded?.answers,
    () => cache?.scheduleSave(state.fetched, answers.kept),
  );
  if (cache) {
    state.onFetched = () => cache.scheduleSave(state.fetched, answers.kept);
  }
  // The upstream's blocks follow its own rules (a known network's schedule, else their headers'), whatever --hardfork says of local ones.
  const history = new UpstreamHistory(number, answers, { chainId, schedule: network?.schedule });
  const olderHashes = new Map<bigint, Promise<Uint8Array>>();
  const point: ForkPoint = {
    remote: state,
    history,
    header,
    number,
    hash: bytesOf(hashHex),
    totalDifficulty: typeof block.totalDifficulty === 'string' ? BigInt(block.totalDifficulty) : 0n,
    schedule,
    olderHash: (older) => {
      let hash = olderHashes.get(older);
      if (!hash) {
        // The state's upstream: anvil_setRpcUrl moves it.
        const current = state.upstream;
        hash = current.request('eth_getBlockByNumber', [`0x${older.toString(16)}`, false], `block ${older}`).then((answer) => {
          const found = (answer as { hash?: unknown } | null)?.hash;
          if (typeof found !== 'string') throw new UpstreamError(`fork upstream ${current.masked} has no block ${older}`);
          return bytesOf(found);
        });
        hash.catch(() => olderHashes.delete(older));
        olderHashes.set(older, hash);
      }
      return hash;
    },
  };
  return {
    settings,
    upstream,
    chainId,
    number,
    hashHex,
    hardfork,
    hardforkSource: source,
    point,
    state,
    cache,
    answers,
    block,
    hardforkGiven: settings.hardfork !== undefined,
  };
}

/** A known network the upstream is on (its chain id, and a pinned block its schedule places): its schedule and the pinned block's fork. */
interface KnownNetwork {
  readonly name: string;
  readonly hardfork: string;
  readonly schedule: ForkSchedule;
}

function knownNetworkOf(chainId: bigint, header: HeaderData): KnownNetwork | undefined {
  const known = KNOWN_CHAINS.get(chainId);
  if (!known) return undefined;
  try {
    const common = new Common({ chain: known });
    const hardfork = common.getHardforkBy({ blockNumber: header.number as bigint, timestamp: header.timestamp as bigint });
    // A local chain that merely uses a known chain id (block 300 "of mainnet" in 2026) is not on that schedule.
    if (headerAgrees(hardfork, header)) return { name: known.name, hardfork, schedule: scheduleOf(known) };
  } catch {
    // the same: a block the schedule cannot place
  }
  return undefined;
}

/** The rules at the pinned block: --hardfork, a known network's schedule, the upstream's word, or the header's fields. */
function hardforkOf(
  given: string | undefined,
  network: KnownNetwork | undefined,
  header: HeaderData,
  nodeInfo: unknown,
): { hardfork: string; source: string; schedule?: ForkSchedule } {
  if (given !== undefined) return { hardfork: given, source: 'as given by --hardfork' };
  if (network) return { hardfork: network.hardfork, source: `${network.name}'s schedule; local blocks follow it`, schedule: network.schedule };
  const said = (nodeInfo as { hardFork?: unknown } | undefined)?.hardFork;
  if (typeof said === 'string') {
    const name = HARDFORK_NAMES.find((fork) => fork.toLowerCase() === said.toLowerCase());
    if (name) return { hardfork: name, source: 'as the upstream reports it (anvil_nodeInfo)' };
  }
  return { hardfork: hardforkOfFields(header, header.difficulty === 0n), source: 'inferred from the header fields; --hardfork overrides' };
}

/** A known network's forks as the engine's schedule (forks not scheduled yet are left out). */
function scheduleOf(config: ChainConfig): ForkSchedule {
  const forks = config.hardforks
    .filter((fork) => fork.block !== null || (fork.timestamp !== undefined && fork.timestamp !== null))
    .map((fork) => ({
      name: fork.name,
      block: fork.block === null ? undefined : BigInt(fork.block),
      timestamp: fork.timestamp === undefined || fork.timestamp === null ? undefined : BigInt(fork.timestamp),
    }));
  return { forks, blobSchedule: new Map() };
}

/** Whether a header has the fields the hardfork's blocks have (a chain on that schedule). */
function headerAgrees(hardfork: string, header: HeaderData): boolean {
  const order = HARDFORK_NAMES;
  const atLeast = (fork: string) => order.indexOf(hardfork) >= order.indexOf(fork);
  return (
    (header.baseFeePerGas !== undefined) === atLeast('london') &&
    (header.withdrawalsRoot !== undefined) === atLeast('shanghai') &&
    (header.parentBeaconBlockRoot !== undefined) === atLeast('cancun') &&
    (header.requestsHash !== undefined) === atLeast('prague')
  );
}

const QUANTITY_FIELDS = ['number', 'timestamp', 'gasLimit', 'gasUsed', 'difficulty', 'baseFeePerGas', 'blobGasUsed', 'excessBlobGas'] as const;
const DATA_FIELDS: ReadonlyArray<[string, keyof HeaderData]> = [
  ['parentHash', 'parentHash'],
  ['sha3Uncles', 'uncleHash'],
  ['miner', 'coinbase'],
  ['transactionsRoot', 'transactionsTrie'],
  ['receiptsRoot', 'receiptTrie'],
  ['logsBloom', 'logsBloom'],
  ['extraData', 'extraData'],
  ['mixHash', 'mixHash'],
  ['nonce', 'nonce'],
  ['withdrawalsRoot', 'withdrawalsRoot'],
  ['parentBeaconBlockRoot', 'parentBeaconBlockRoot'],
  ['requestsHash', 'requestsHash'],
];

/** The header fields of an upstream block (the state root is the overlay's, set later). */
function headerOf(block: Readonly<Record<string, unknown>>, upstream: Upstream): HeaderData {
  const header: Record<string, unknown> = {};
  for (const field of QUANTITY_FIELDS) {
    const value = block[field];
    if (value === undefined || value === null) continue;
    header[field] = quantityOf(value, upstream, `eth_getBlockByNumber (${field})`);
  }
  for (const [json, name] of DATA_FIELDS) {
    const value = block[json];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value)) {
      throw new UpstreamError(`fork upstream ${upstream.masked}: eth_getBlockByNumber failed: malformed answer (${json})`);
    }
    header[name] = bytesOf(value);
  }
  if (header.number === undefined || header.timestamp === undefined || header.gasLimit === undefined) {
    throw new UpstreamError(`fork upstream ${upstream.masked}: eth_getBlockByNumber failed: malformed answer (no number, timestamp or gas limit)`);
  }
  return header as HeaderData;
}

function quantityOf(value: unknown, upstream: Upstream, method: string): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) {
    throw new UpstreamError(
      `fork upstream ${upstream.masked}: ${method} failed: malformed answer (expected a quantity, got ${JSON.stringify(value)?.slice(0, 40)})`,
    );
  }
  return BigInt(value);
}

function bytesOf(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));
}
