/**
 * The JSON state file: what chain_dumpState writes and what fixtures, `chain_loadState`
 * and `--state` read. A superset of a go-ethereum genesis `alloc`:
 *
 *   { "chainId": "0x539", "hardfork": "prague", "gasLimit": "0x1c9c380", "timestamp": "0x...",
 *     "clockOffset": "0x..", "privateKeys": ["0x..."],
 *     "alloc": { "0xaddress": { "balance": "0x..", "nonce": "0x..", "code": "0x..", "storage": { "0xslot": "0xvalue" } } } }
 *
 * Every field but `alloc` is optional; balances and nonces may be hex or decimal.
 * `clockOffset` (seconds the node's clock runs ahead of the wall clock, `-0x..` if behind)
 * is what `--state` saves so time travel survives a restart.
 */
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { clip, type AccountState, type Alloc, type StatePiece } from '../engine/index.js';
import { encodeQuantity as hex } from '../rpc/encode.js';
import type { Json, JsonObject, PlainJson } from '../rpc/json.js';

export interface StateFile {
  readonly chainId?: bigint;
  readonly hardfork?: string;
  readonly gasLimit?: bigint;
  readonly timestamp?: bigint;
  readonly clockOffset?: bigint;
  readonly privateKeys?: readonly Uint8Array[];
  readonly alloc: Alloc;
  /**
   * `--state` only: the chain's blocks with senders and receipts, and runs of empty blocks
   * (see savedBlocks.ts), checked there; read one at a time from a streamed file (stateStream.ts).
   */
  readonly blocks?: readonly Json[] | AsyncIterable<Json>;
  /** `--state` on a fork: the fork and its overlay (fork/savedFork.ts checks it); `alloc` is then the overlay's accounts. */
  readonly fork?: PlainJson;
  /**
   * A streamed file's accounts, read again from the file one line at a time (stateStream.ts),
   * each account's fields then its slots in batches; `alloc` is then empty.
   */
  readonly accounts?: () => AsyncIterable<StatePiece>;
}

export class StateFileError extends Error {
  constructor(where: string, problem: string) {
    super(`${where}: ${problem}`);
    this.name = 'StateFileError';
  }
}

/**
 * Accounts as a go-ethereum genesis `alloc` (which this format extends). A genesis.json
 * leaves out zero nonces as go-ethereum writes it; state files always carry the nonce.
 */
export function encodeAlloc(alloc: Alloc, { omitZeroNonce = false } = {}): JsonObject {
  const out: JsonObject = {};
  for (const [address, account] of alloc) {
    const entry = encodeAccountFields(address, account, { omitZeroNonce });
    if (account.storage.size > 0) {
      const storage: JsonObject = {};
      for (const [slot, value] of account.storage) storage[slot] = hexOf(value);
      entry.storage = storage;
    }
    out[address] = entry;
  }
  return out;
}

/** An account's fields but its storage, as `alloc` holds them. */
export function encodeAccountFields(address: string, account: Pick<AccountState, 'balance' | 'nonce' | 'code'>, { omitZeroNonce = false } = {}): JsonObject {
  const at = `alloc.${address}`;
  const entry: JsonObject = { balance: hex(writable(account.balance, `${at}.balance`, ACCOUNT_FIELD_MAX.balance)) };
  if (!omitZeroNonce || account.nonce !== 0n) entry.nonce = hex(writable(account.nonce, `${at}.nonce`, ACCOUNT_FIELD_MAX.nonce));
  if (account.code.length > 0) entry.code = hexOf(account.code);
  return entry;
}

/** 0x hex of bytes; through Buffer, which is native and fast on megabytes of code. */
export function hexOf(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
}

export function encodeStateFile(file: StateFile): JsonObject {
  const alloc = encodeAlloc(file.alloc);
  const out: JsonObject = {};
  if (file.chainId !== undefined) out.chainId = hex(file.chainId);
  if (file.hardfork !== undefined) out.hardfork = file.hardfork;
  if (file.gasLimit !== undefined) out.gasLimit = hex(file.gasLimit);
  if (file.timestamp !== undefined) out.timestamp = hex(file.timestamp);
  if (file.clockOffset !== undefined) out.clockOffset = file.clockOffset < 0n ? `-${hex(-file.clockOffset)}` : hex(file.clockOffset);
  if (file.privateKeys && file.privateKeys.length > 0) out.privateKeys = file.privateKeys.map((k) => bytesToHex(k));
  if (file.fork !== undefined) out.fork = file.fork;
  out.alloc = alloc;
  if (Array.isArray(file.blocks)) out.blocks = [...(file.blocks as readonly Json[])];
  return out;
}

const MAX_UINT64 = 2n ** 64n - 1n;
const MAX_UINT256 = 2n ** 256n - 1n;
/**
 * The widths of an account's numbers (go-ethereum's: uint256 balances, uint64 nonces). The
 * writer and the reader both take them from here, so a file this module writes is one it reads.
 */
const ACCOUNT_FIELD_MAX = { balance: MAX_UINT256, nonce: MAX_UINT64 } as const;

/** A value about to be written, refused if the reader would refuse it: a bug upstream of the file, never a file that cannot be loaded. */
function writable(value: bigint, where: string, max: bigint): bigint {
  if (value < 0n || value > max)
    throw new StateFileError(where, `${value} cannot be written: out of range (0 to ${max === MAX_UINT64 ? '2^64-1' : '2^256-1'})`);
  return value;
}
/** secp256k1's group order: a private key is a scalar in 1..n-1. */
const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** A non-negative integer of at most `max` (a header or account field's width: a larger value could never be used). */
function integer(value: unknown, where: string, max = MAX_UINT256): bigint {
  let out: bigint | undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) out = BigInt(value);
  // 80 digits is past 2^256 in either base: longer text is out of range without parsing it.
  else if (typeof value === 'string' && value.length <= 80 && /^(0x[0-9a-fA-F]+|\d+)$/.test(value)) out = BigInt(value);
  else if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|\d+)$/.test(value)) out = max + 1n;
  if (out === undefined) throw new StateFileError(where, `expected a non-negative integer (hex or decimal), got ${preview(value)}`);
  if (out > max)
    throw new StateFileError(
      where,
      `${preview(value)} is out of range (at most ${max === MAX_UINT64 ? '2^64-1' : max === MAX_UINT256 ? '2^256-1' : String(max)})`,
    );
  return out;
}

/** A short rendering of a bad value; in-process callers may pass what JSON cannot show (bigint, cycles). */
export function preview(value: unknown): string {
  try {
    return String(JSON.stringify(value)).slice(0, 40);
  } catch {
    return typeof value;
  }
}

function signedInteger(value: unknown, where: string, max: bigint): bigint {
  if (typeof value === 'string' && value.startsWith('-')) return -integer(value.slice(1), where, max);
  if (typeof value === 'number' && Number.isSafeInteger(value) && value < 0) return -integer(-value, where, max);
  return integer(value, where, max);
}

function bytes(value: unknown, where: string, size?: number): Uint8Array {
  // Not /^0x([0-9a-fA-F]{2})*$/: its group recurses per byte and overflows the stack on megabytes of code.
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]*$/.test(value) || value.length % 2 !== 0) {
    throw new StateFileError(where, `expected 0x-prefixed hex with an even number of digits`);
  }
  const out = hexToBytes(value as `0x${string}`);
  if (size !== undefined && out.length > size) throw new StateFileError(where, `longer than ${size} bytes`);
  return out;
}

/** A storage key or value: up to 32 bytes of hex, left-padded (odd digit counts too: Anvil writes them as quantities). */
function word(value: unknown, where: string): Uint8Array {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) {
    throw new StateFileError(where, 'expected 0x-prefixed hex of at most 32 bytes');
  }
  return hexToBytes(`0x${value.slice(2).padStart(64, '0')}`);
}

/** An account's address (0x lower-case) and fields but its storage; `at` names it in errors. */
export function decodeAccountFields(address: string, raw: unknown, at: string): { key: string } & Omit<AccountState, 'storage'> {
  const key = address.startsWith('0x') ? address : `0x${address}`; // geth allows addresses without 0x
  if (!/^0x[0-9a-fA-F]{40}$/.test(key)) throw new StateFileError(at, 'not a 20-byte address');
  const fields = object(raw, at);
  return {
    key: key.toLowerCase(),
    balance: fields.balance === undefined ? 0n : integer(fields.balance, `${at}.balance`, ACCOUNT_FIELD_MAX.balance),
    nonce: fields.nonce === undefined ? 0n : integer(fields.nonce, `${at}.nonce`, ACCOUNT_FIELD_MAX.nonce),
    code: fields.code === undefined ? new Uint8Array() : bytes(fields.code, `${at}.code`),
  };
}

/** One storage entry of the account at `at`: the 32-byte slot (0x hex) and value; undefined for a zero value (absent). */
export function decodeSlot(slot: string, value: unknown, at: string): [string, Uint8Array] | undefined {
  const slotBytes = word(slot, `${at}.storage key`);
  const valueBytes = word(value, `${at}.storage.${clip(slot)}`);
  return valueBytes.some((b) => b !== 0) ? [bytesToHex(slotBytes), valueBytes] : undefined;
}

function object(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new StateFileError(where, 'expected an object');
  return value as Record<string, unknown>;
}

export function decodeStateFile(json: unknown, where = 'state'): StateFile {
  const top = object(json, where);
  const alloc = new Map<string, AccountState>();
  // Anvil's anvil_dumpState names the accounts `accounts` (same fields; nonces as numbers, storage as quantities).
  const accountsField = top.alloc === undefined && top.accounts !== undefined ? 'accounts' : 'alloc';
  for (const [address, raw] of Object.entries(object(top[accountsField] ?? {}, `${where}.${accountsField}`))) {
    const at = `${where}.${accountsField}.${clip(address)}`;
    const { key, balance, nonce, code } = decodeAccountFields(address, raw, at);
    const storage = new Map<string, Uint8Array>();
    for (const [slot, value] of Object.entries(object(object(raw, at).storage ?? {}, `${at}.storage`))) {
      const decoded = decodeSlot(slot, value, at);
      if (decoded) storage.set(decoded[0], decoded[1]);
    }
    alloc.set(key, { balance, nonce, code, storage });
  }
  const privateKeys =
    top.privateKeys === undefined
      ? undefined
      : (() => {
          if (!Array.isArray(top.privateKeys)) throw new StateFileError(`${where}.privateKeys`, 'expected an array');
          return top.privateKeys.map((k, i) => {
            const key = bytes(k, `${where}.privateKeys[${i}]`, 32);
            if (key.length !== 32) throw new StateFileError(`${where}.privateKeys[${i}]`, 'expected 32 bytes');
            const scalar = BigInt(bytesToHex(key));
            if (scalar === 0n || scalar >= CURVE_ORDER)
              throw new StateFileError(`${where}.privateKeys[${i}]`, 'not a valid secp256k1 private key (zero, or not below the curve order)');
            return key;
          });
        })();
  if (top.hardfork !== undefined && typeof top.hardfork !== 'string') throw new StateFileError(`${where}.hardfork`, 'expected a string');
  return {
    chainId: top.chainId === undefined ? undefined : integer(top.chainId, `${where}.chainId`, MAX_UINT64),
    hardfork: top.hardfork as string | undefined,
    gasLimit: top.gasLimit === undefined ? undefined : integer(top.gasLimit, `${where}.gasLimit`, MAX_UINT64),
    // Header timestamps are uint64: a later one could never be mined on.
    timestamp: top.timestamp === undefined ? undefined : integer(top.timestamp, `${where}.timestamp`, MAX_UINT64),
    clockOffset: top.clockOffset === undefined ? undefined : signedInteger(top.clockOffset, `${where}.clockOffset`, MAX_UINT64),
    privateKeys,
    alloc,
    fork: top.fork as PlainJson | undefined,
    blocks:
      top.blocks === undefined
        ? undefined
        : (() => {
            if (!Array.isArray(top.blocks)) throw new StateFileError(`${where}.blocks`, 'expected an array');
            return top.blocks as Json[];
          })(),
  };
}
