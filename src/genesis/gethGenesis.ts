/**
 * `--genesis FILE`: a go-ethereum genesis.json read into the engine's terms (fork
 * schedule, genesis header fields, alloc). Field rules follow go-ethereum's decoder:
 * quantities are hex or decimal, keys match case-insensitively, gasLimit, difficulty
 * and alloc are required, and the forks must come in go-ethereum's order.
 */
import { readFile } from 'node:fs/promises';
import { type Address, bigIntToBytes, createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { type ForkActivation, type ForkSchedule, type BlobParams, type GenesisHeader, type AccountState, type Alloc, toHex, clip } from '../engine/index.js';

export interface GethGenesis {
  readonly chainId: bigint;
  readonly schedule: ForkSchedule;
  readonly header: GenesisHeader;
  readonly alloc: Alloc;
}

export class GenesisFileError extends Error {
  constructor(path: string, problem: string) {
    super(`genesis file ${path}: ${problem.replace(/\s*\n\s*/g, ' ')}`);
    this.name = 'GenesisFileError';
  }
}

/** A problem inside the JSON; the reader adds the file name. */
class Invalid extends Error {}

/** go-ethereum's genesis gas limit when the file says 0 (params.GenesisGasLimit). */
const GENESIS_GAS_LIMIT = 4_712_388n;
const UINT64_MAX = 2n ** 64n - 1n;
const UINT256_MAX = 2n ** 256n - 1n;

/**
 * go-ethereum's config fields in its fork order (params.CheckConfigForkOrder) with the
 * ethereumjs hardfork each activates. Optional forks may be absent while later ones are set.
 */
const FORK_FIELDS: ReadonlyArray<{ readonly field: string; readonly fork: string; readonly optional?: boolean; readonly time?: boolean }> = [
  { field: 'homesteadBlock', fork: 'homestead' },
  { field: 'daoForkBlock', fork: 'dao', optional: true },
  { field: 'eip150Block', fork: 'tangerineWhistle' },
  { field: 'eip155Block', fork: 'spuriousDragon' },
  { field: 'eip158Block', fork: 'spuriousDragon' },
  { field: 'byzantiumBlock', fork: 'byzantium' },
  { field: 'constantinopleBlock', fork: 'constantinople' },
  { field: 'petersburgBlock', fork: 'petersburg' },
  { field: 'istanbulBlock', fork: 'istanbul' },
  { field: 'muirGlacierBlock', fork: 'muirGlacier', optional: true },
  { field: 'berlinBlock', fork: 'berlin' },
  { field: 'londonBlock', fork: 'london' },
  { field: 'arrowGlacierBlock', fork: 'arrowGlacier', optional: true },
  { field: 'grayGlacierBlock', fork: 'grayGlacier', optional: true },
  { field: 'mergeNetsplitBlock', fork: 'mergeNetsplitBlock', optional: true },
  { field: 'shanghaiTime', fork: 'shanghai', time: true },
  { field: 'cancunTime', fork: 'cancun', time: true, optional: true },
  { field: 'pragueTime', fork: 'prague', time: true, optional: true },
  { field: 'osakaTime', fork: 'osaka', time: true, optional: true },
  { field: 'bpo1Time', fork: 'bpo1', time: true, optional: true },
  { field: 'bpo2Time', fork: 'bpo2', time: true, optional: true },
  { field: 'bpo3Time', fork: 'bpo3', time: true, optional: true },
  { field: 'bpo4Time', fork: 'bpo4', time: true, optional: true },
  { field: 'bpo5Time', fork: 'bpo5', time: true, optional: true },
];

/** Forks go-ethereum knows that chain-sim (ethereumjs 10.1) cannot run. */
const UNSUPPORTED_FORK_FIELDS = new Set(['ubtTime', 'verkleTime', 'amsterdamTime', 'bogotaTime', 'pragueBlock', 'cancunBlock', 'shanghaiBlock']);

/** Forks that need a blobSchedule entry; go-ethereum's defaults stand in for the first two when absent. */
const BLOB_FORKS = ['cancun', 'prague', 'osaka', 'bpo1', 'bpo2', 'bpo3', 'bpo4', 'bpo5'] as const;
const DEFAULTED_BLOB_FORKS = new Set(['cancun', 'prague', 'osaka']);

export async function readGethGenesis(path: string): Promise<GethGenesis> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new GenesisFileError(path, code === 'ENOENT' ? 'no such file' : (error as Error).message);
  }
  let json: unknown;
  try {
    json = JSON.parse(quoteLargeIntegers(text));
  } catch (error) {
    throw new GenesisFileError(path, `not valid JSON: ${(error as Error).message}`);
  }
  try {
    return parseGethGenesis(json);
  } catch (error) {
    if (error instanceof Invalid) throw new GenesisFileError(path, error.message);
    throw error;
  }
}

/** A genesis object (already parsed JSON) in the engine's terms; throws on anything go-ethereum would refuse. */
export function parseGethGenesis(json: unknown): GethGenesis {
  const genesis = object(json, 'the file');
  const config = object(required(genesis, 'config'), 'config');
  const chainId = quantity(required(config, 'chainId'), 'config.chainId', UINT64_MAX);
  if (chainId === 0n) throw new Invalid('config.chainId: must not be 0');
  const number = optionalQuantity(genesis, 'number', UINT64_MAX) ?? 0n;
  if (number !== 0n) throw new Invalid(`number: a genesis block numbered ${number} is not supported (only 0)`);
  const difficulty = quantity(required(genesis, 'difficulty'), 'difficulty', UINT256_MAX);
  const timestamp = optionalQuantity(genesis, 'timestamp', UINT64_MAX) ?? 0n;
  const schedule = forkSchedule(config, difficulty);
  const gasLimit = quantity(required(genesis, 'gasLimit'), 'gasLimit', UINT64_MAX);
  const header: GenesisHeader = {
    timestamp,
    gasLimit: gasLimit === 0n ? GENESIS_GAS_LIMIT : gasLimit,
    difficulty,
    nonce: setLengthLeft(bigIntToBytes(optionalQuantity(genesis, 'nonce', UINT64_MAX) ?? 0n), 8),
    mixHash: optionalBytes(genesis, 'mixHash', 32) ?? new Uint8Array(32),
    parentHash: optionalBytes(genesis, 'parentHash', 32) ?? new Uint8Array(32),
    coinbase: optionalAddress(genesis, 'coinbase'),
    extraData: optionalBytes(genesis, 'extraData') ?? new Uint8Array(),
    gasUsed: optionalQuantity(genesis, 'gasUsed', UINT64_MAX) ?? 0n,
    baseFeePerGas: optionalQuantity(genesis, 'baseFeePerGas', UINT256_MAX),
    excessBlobGas: optionalQuantity(genesis, 'excessBlobGas', UINT64_MAX),
    blobGasUsed: optionalQuantity(genesis, 'blobGasUsed', UINT64_MAX),
  };
  return { chainId, schedule, header, alloc: allocOf(required(genesis, 'alloc')) };
}

// ---- fork schedule ---------------------------------------------------------------------

function forkSchedule(config: Record<string, unknown>, genesisDifficulty: bigint): ForkSchedule {
  for (const key of Object.keys(config)) {
    if (!/(Block|Time)$/.test(key) || FORK_FIELDS.some((f) => f.field.toLowerCase() === key.toLowerCase())) continue;
    if (UNSUPPORTED_FORK_FIELDS.has(key)) throw new Invalid(`config.${key}: this fork is not supported by chain-sim`);
    throw new Invalid(`config.${key}: unknown fork`);
  }
  const set = FORK_FIELDS.map((f) => ({ ...f, at: optionalQuantity(config, f.field, UINT64_MAX) }));
  checkOrder(set);
  const eip155 = set.find((f) => f.field === 'eip155Block')!.at;
  const eip158 = set.find((f) => f.field === 'eip158Block')!.at;
  if (eip155 !== eip158) {
    throw new Invalid(
      `config: eip155Block (${eip155 ?? 'absent'}) and eip158Block (${eip158 ?? 'absent'}) must be equal: both are Spurious Dragon, which ethereumjs activates as one fork`,
    );
  }
  const forks: ForkActivation[] = [{ name: 'chainstart', block: 0n }];
  for (const f of set) {
    if (f.at === undefined || f.field === 'eip158Block') continue;
    if (f.fork === 'mergeNetsplitBlock') continue; // placed with Paris below
    forks.push(f.time ? { name: f.fork, timestamp: f.at } : { name: f.fork, block: f.at });
  }
  // The merge cannot precede the last block-numbered fork (Paris stacks on London and the glaciers).
  const lastBlockFork = forks.reduce((max, f) => (f.block !== undefined && f.block > max ? f.block : max), 0n);
  const timed = forks.some((f) => f.timestamp !== undefined);
  // Timestamp forks without any merge setting: merged with the last block fork, as ethereumjs assumes.
  const merge = mergeBlock(config, set, genesisDifficulty) ?? (timed ? lastBlockFork : undefined);
  if (merge !== undefined) {
    // Paris and the netsplit fork follow the last block-numbered fork, before the timestamp forks.
    const firstTimed = forks.findIndex((f) => f.timestamp !== undefined);
    const at = firstTimed === -1 ? forks.length : firstTimed;
    const block = merge > lastBlockFork ? merge : lastBlockFork;
    const netsplitNamed = set.find((f) => f.field === 'mergeNetsplitBlock')!.at !== undefined;
    forks.splice(at, 0, { name: 'paris', block, implied: true }, { name: 'mergeNetsplitBlock', block, implied: !netsplitNamed });
  }
  return { forks, blobSchedule: blobScheduleOf(config, forks), depositContract: optionalAddress(config, 'depositContractAddress').bytes };
}

/** go-ethereum's CheckConfigForkOrder: no gaps among required forks, non-decreasing activations, no block fork after a timestamp fork. */
function checkOrder(set: ReadonlyArray<{ field: string; at: bigint | undefined; optional?: boolean; time?: boolean }>): void {
  let last: (typeof set)[number] | undefined;
  for (const cur of set) {
    if (last) {
      if (last.at === undefined && cur.at !== undefined) {
        throw new Invalid(
          `config: unsupported fork ordering: ${last.field} not enabled, but ${cur.field} enabled at ${cur.time ? 'timestamp' : 'block'} ${cur.at}`,
        );
      }
      if (last.at !== undefined && cur.at !== undefined && last.time === cur.time && last.at > cur.at) {
        const unit = cur.time ? 'timestamp' : 'block';
        throw new Invalid(`config: unsupported fork ordering: ${last.field} enabled at ${unit} ${last.at}, but ${cur.field} enabled at ${unit} ${cur.at}`);
      }
    }
    if (!cur.optional || cur.at !== undefined) last = cur;
  }
}

/**
 * The first proof-of-stake block. mergeNetsplitBlock names it; otherwise the terminal total
 * difficulty does: 0 (or terminalTotalDifficultyPassed alone) means merged from genesis,
 * and a positive one is reached by chain-sim's difficulty-1 blocks after TTD - genesis
 * difficulty blocks (the block after that is the first without proof of work).
 */
function mergeBlock(
  config: Record<string, unknown>,
  set: ReadonlyArray<{ field: string; at: bigint | undefined }>,
  genesisDifficulty: bigint,
): bigint | undefined {
  const netsplit = set.find((f) => f.field === 'mergeNetsplitBlock')!.at;
  if (netsplit !== undefined) return netsplit;
  const ttd = optionalQuantity(config, 'terminalTotalDifficulty', UINT256_MAX);
  if (ttd !== undefined) return ttd === 0n ? 0n : (ttd > genesisDifficulty ? ttd - genesisDifficulty : 0n) + 1n;
  const passed = lookup(config, 'terminalTotalDifficultyPassed');
  if (passed !== undefined && typeof passed !== 'boolean') throw new Invalid('config.terminalTotalDifficultyPassed: expected true or false');
  return passed === true ? 0n : undefined;
}

function blobScheduleOf(config: Record<string, unknown>, forks: readonly ForkActivation[]): Map<string, BlobParams> {
  const raw = lookup(config, 'blobSchedule');
  const entries = raw === undefined || raw === null ? {} : object(raw, 'config.blobSchedule');
  const schedule = new Map<string, BlobParams>();
  for (const [name, value] of Object.entries(entries)) {
    const fork = BLOB_FORKS.find((f) => f.toLowerCase() === name.toLowerCase());
    if (!fork) throw new Invalid(`config.blobSchedule.${name}: unknown fork (expected one of ${BLOB_FORKS.join(', ')})`);
    const at = `config.blobSchedule.${name}`;
    const entry = object(value, at);
    const target = Number(quantity(required(entry, 'target', at), `${at}.target`, 2n ** 31n));
    const max = Number(quantity(required(entry, 'max', at), `${at}.max`, 2n ** 31n));
    const fraction = Number(quantity(required(entry, 'baseFeeUpdateFraction', at), `${at}.baseFeeUpdateFraction`, 2n ** 53n));
    if (fraction === 0) throw new Invalid(`${at}.baseFeeUpdateFraction: must not be 0`);
    if (target > max) throw new Invalid(`${at}: target ${target} is above max ${max}`);
    schedule.set(fork, { target, max, baseFeeUpdateFraction: fraction });
  }
  for (const fork of forks) {
    if ((BLOB_FORKS as readonly string[]).includes(fork.name) && !DEFAULTED_BLOB_FORKS.has(fork.name) && !schedule.has(fork.name)) {
      throw new Invalid(`config.blobSchedule: missing entry for fork "${fork.name}"`);
    }
  }
  return schedule;
}

// ---- alloc ------------------------------------------------------------------------------

function allocOf(value: unknown): Alloc {
  const alloc = new Map<string, AccountState>();
  for (const [key, raw] of Object.entries(object(value, 'alloc'))) {
    const hex = key.startsWith('0x') || key.startsWith('0X') ? key.slice(2) : key;
    if (!/^[0-9a-fA-F]{40}$/.test(hex)) throw new Invalid(`alloc: "${clip(key)}" is not a 20-byte address`);
    const address = `0x${hex.toLowerCase()}`;
    const at = `alloc ${address}`;
    const account = object(raw, at);
    const storage = new Map<string, Uint8Array>();
    const rawStorage = lookup(account, 'storage');
    if (rawStorage !== undefined && rawStorage !== null) {
      for (const [slot, slotValue] of Object.entries(object(rawStorage, `${at}.storage`))) {
        const slotBytes = setLengthLeft(bytes(slot, `${at}.storage key`, 32, true), 32);
        const word = setLengthLeft(bytes(slotValue, `${at}.storage ${slot}`, 32, true), 32);
        if (word.some((b) => b !== 0)) storage.set(toHex(slotBytes), word);
      }
    }
    alloc.set(address, {
      balance: quantity(required(account, 'balance', at), `${at}.balance`, UINT256_MAX),
      nonce: optionalQuantity(account, 'nonce', UINT64_MAX, at) ?? 0n,
      code: optionalBytes(account, 'code', undefined, at) ?? new Uint8Array(),
      storage,
    });
  }
  return alloc;
}

// ---- field decoders ---------------------------------------------------------------------

function object(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Invalid(`${what}: expected a JSON object`);
  return value as Record<string, unknown>;
}

/** A field by name, matched case-insensitively as Go's encoding/json does (e.g. "mixhash"). */
function lookup(obj: Record<string, unknown>, name: string): unknown {
  if (name in obj) return obj[name];
  const lower = name.toLowerCase();
  const key = Object.keys(obj).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : obj[key];
}

function required(obj: Record<string, unknown>, name: string, where?: string): unknown {
  const value = lookup(obj, name);
  if (value === undefined || value === null) throw new Invalid(`${where ? `${where}: ` : ''}missing required field "${name}"`);
  return value;
}

/** A hex ("0x1f") or decimal ("31", 31) whole number, as go-ethereum's HexOrDecimal types read it. */
function quantity(value: unknown, what: string, max: bigint): bigint {
  let parsed: bigint | undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) parsed = BigInt(value);
  else if (typeof value === 'string') {
    const text = value.trim();
    if (/^0[xX][0-9a-fA-F]+$/.test(text)) parsed = BigInt(`0x${text.slice(2)}`);
    else if (/^\d+$/.test(text)) parsed = BigInt(text);
    else if (text === '' || text === '0x' || text === '0X') parsed = 0n;
  }
  if (parsed === undefined) throw new Invalid(`${what}: expected a hex or decimal whole number, got ${JSON.stringify(value)}`);
  if (parsed > max) throw new Invalid(`${what}: ${parsed} is too large (at most ${max})`);
  return parsed;
}

function optionalQuantity(obj: Record<string, unknown>, name: string, max: bigint, where?: string): bigint | undefined {
  const value = lookup(obj, name);
  return value === undefined || value === null ? undefined : quantity(value, where ? `${where}.${name}` : name, max);
}

/** Hex bytes, 0x prefix optional; `length` is exact unless `atMost`. */
function bytes(value: unknown, what: string, length?: number, atMost = false): Uint8Array {
  if (typeof value !== 'string') throw new Invalid(`${what}: expected a hex string`);
  const hex = value.startsWith('0x') || value.startsWith('0X') ? value.slice(2) : value;
  if (!/^[0-9a-fA-F]*$/.test(hex) || hex.length % 2 !== 0) throw new Invalid(`${what}: "${clip(String(value))}" is not hex bytes`);
  const n = hex.length / 2;
  if (length !== undefined && (atMost ? n > length : n !== length)) {
    throw new Invalid(`${what}: expected ${atMost ? 'at most ' : ''}${length} bytes, got ${n}`);
  }
  return hexToBytes(`0x${hex}`);
}

function optionalBytes(obj: Record<string, unknown>, name: string, length?: number, where?: string): Uint8Array | undefined {
  const value = lookup(obj, name);
  return value === undefined || value === null ? undefined : bytes(value, where ? `${where}.${name}` : name, length);
}

function optionalAddress(obj: Record<string, unknown>, name: string): Address {
  const raw = optionalBytes(obj, name, 20);
  return createAddressFromString(raw ? toHex(raw) : `0x${'00'.repeat(20)}`);
}

/**
 * JSON.parse turns integers above 2^53 into inexact floats (a terminal total difficulty
 * such as 58750000000000000000000 is one); quote bare integers of 16 or more digits
 * first, outside strings, so they reach the decoder exactly.
 */
export function quoteLargeIntegers(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c >= '0' && c <= '9') {
      let j = i;
      while (j < text.length && /[0-9.eE+-]/.test(text[j]!)) j++;
      const token = text.slice(i, j);
      out += /^\d{16,}$/.test(token) ? `"${token}"` : token;
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
