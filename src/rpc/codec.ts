/**
 * Strict decoders for JSON-RPC parameters, as go-ethereum reads them. Every error
 * names the parameter (position and name) and the rule it broke.
 */
import { Address, hexToBytes } from '@ethereumjs/util';
import { type BlockRef, type BlockTag, type AuthorizationRequest, type CallRequest, clip } from '../engine/index.js';
import { invalidParams } from './errors.js';

/** Where a value sits in the params, for messages: `argument 0 (address)` or `argument 0 (call).gas`. */
export type ParamPath = string;

export type Decoder<T> = (value: unknown, path: ParamPath) => T;

export function fail(path: ParamPath, rule: string): never {
  throw invalidParams(`invalid argument ${path}: ${rule}`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

const QUANTITY = /^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/;
const HEX_DIGITS = /^[0-9a-fA-F]*$/;

function hexString(value: unknown, path: ParamPath, what: string): string {
  if (typeof value !== 'string') fail(path, `expected ${what} as a 0x-prefixed hex string, got ${describe(value)}`);
  if (!value.startsWith('0x') && !value.startsWith('0X')) fail(path, 'hex string without 0x prefix');
  return value;
}

/** QUANTITY up to `bits` bits (256 by default, as go-ethereum's hexutil.Big). */
export function quantity(bits = 256): Decoder<bigint> {
  return (value, path) => {
    // go-ethereum accepts an upper-case 0X prefix too.
    const text = `0x${hexString(value, path, 'a quantity').slice(2)}`;
    if (text.length === 2) fail(path, 'hex string "0x" is empty');
    if (!HEX_DIGITS.test(text.slice(2))) fail(path, 'invalid hex string');
    if (!QUANTITY.test(text)) fail(path, 'hex number with leading zero digits');
    // Check the length before BigInt so a 10 MB string costs a regex, not a huge parse.
    if (text.length - 2 > Math.ceil(bits / 4)) fail(path, `hex number > ${bits} bits`);
    const result = BigInt(text);
    if (result >= 1n << BigInt(bits)) fail(path, `hex number > ${bits} bits`);
    return result;
  };
}

export const uint256 = quantity(256);
export const uint64 = quantity(64);

/** A small count (index, block count): a QUANTITY that fits a JavaScript number safely. */
export const index: Decoder<number> = (value, path) => {
  const result = quantity(53)(value, path);
  return Number(result);
};

/** A small count as a plain JSON number or a QUANTITY (Otterscan's and the explorer's page sizes and cursors). */
export const smallCount: Decoder<number> = (value, path) => {
  if (typeof value !== 'number') return index(value, path);
  if (!Number.isSafeInteger(value) || value < 0) fail(path, `expected a non-negative integer, got ${value}`);
  return value;
};

/** The most entries one page of a paged method holds (Otterscan's limit). */
export const MOST_PER_PAGE = 1000;

/** A page's size: 1 to MOST_PER_PAGE, a plain JSON number or a QUANTITY. */
export const pageSize: Decoder<number> = (value, path) => {
  const size = smallCount(value, path);
  if (size < 1 || size > MOST_PER_PAGE) fail(path, `expected a page size from 1 to ${MOST_PER_PAGE}, got ${size}`);
  return size;
};

/** Seconds or counts: a QUANTITY, or a plain JSON number as Ganache and Hardhat accept. */
export const count = (value: unknown, path: string): bigint => {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw invalidParams(`invalid argument ${path}: expected a non-negative integer`);
    return BigInt(value);
  }
  return uint64(value, path);
};

/** The digits of DATA (an even number of them), `what` naming it in messages. */
function dataDigits(value: unknown, path: ParamPath, what: string): string {
  const digits = hexString(value, path, what).slice(2);
  if (!HEX_DIGITS.test(digits)) fail(path, 'invalid hex string');
  if (digits.length % 2 !== 0) fail(path, 'hex string of odd length');
  return digits;
}

/** DATA of any length, even number of digits. */
export const data: Decoder<Uint8Array> = (value, path) => hexToBytes(`0x${dataDigits(value, path, 'data')}`);

/** DATA of exactly `size` bytes. */
export function fixedData(size: number): Decoder<Uint8Array> {
  return (value, path) => {
    const bytes = data(value, path);
    if (bytes.length !== size) fail(path, `hex string has length ${bytes.length * 2}, want ${size * 2} (${size} bytes)`);
    return bytes;
  };
}

export const address: Decoder<Address> = (value, path) => new Address(fixedData(20)(value, path));

/** A 32-byte hash as lower-case hex, the key format of the block and transaction indexes. */
export const hash: Decoder<string> = (value, path) => {
  fixedData(32)(value, path);
  return (value as string).toLowerCase();
};

/** A storage slot: go-ethereum accepts up to 32 bytes of hex, left-padded. */
export const storageSlot: Decoder<Uint8Array> = (value, path) => {
  const text = hexString(value, path, 'a storage position');
  const digits = text.slice(2);
  if (!HEX_DIGITS.test(digits)) fail(path, 'invalid hex string');
  if (digits.length > 64) fail(path, 'hex string too long, want at most 32 bytes');
  const padded = digits.padStart(64, '0');
  return hexToBytes(`0x${padded}`);
};

/**
 * A storage value for the setters: DATA of at most 32 bytes, left-padded. Hardhat and Anvil
 * want exactly 32; shorter DATA (Ganache's callers) is accepted, odd-length hex is not.
 */
export const storageValue: Decoder<Uint8Array> = (value, path) => {
  const digits = dataDigits(value, path, 'a storage value');
  if (digits.length > 64) fail(path, `hex string has length ${digits.length}, want at most 64 (32 bytes)`);
  return hexToBytes(`0x${digits.padStart(64, '0')}`);
};

export const boolean: Decoder<boolean> = (value, path) => {
  if (typeof value !== 'boolean') fail(path, `expected a boolean, got ${describe(value)}`);
  return value;
};

export const string: Decoder<string> = (value, path) => {
  if (typeof value !== 'string') fail(path, `expected a string, got ${describe(value)}`);
  return value;
};

const TAGS: readonly BlockTag[] = ['latest', 'earliest', 'pending', 'safe', 'finalized'];

/** A block number sent as a JSON number (Hardhat and Anvil take them, and suites send them): a whole number from 0 up. */
function jsonBlockNumber(value: number, path: string): BlockRef {
  if (!Number.isSafeInteger(value) || value < 0) fail(path, `expected a block number, got ${value}`);
  return { number: BigInt(value) };
}

/**
 * A block parameter: QUANTITY (also as a JSON number), tag, a 32-byte block hash (as go-ethereum
 * reads a 66-character string), or an EIP-1898 object ({ blockHash, requireCanonical } | { blockNumber }).
 */
export const blockRef: Decoder<BlockRef> = (value, path) => {
  if (typeof value === 'number') return jsonBlockNumber(value, path);
  if (typeof value === 'string' && value.length === 66 && /^0[xX]/.test(value)) return { hash: hash(value, path), requireCanonical: false };
  if (typeof value === 'string') {
    if ((TAGS as readonly string[]).includes(value)) return { tag: value as BlockTag };
    if (!/^0[xX]/.test(value)) fail(path, `expected a block number, tag (${TAGS.join(', ')}) or hash object, got "${clip(value)}"`);
    return { number: uint64(value, path) };
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const fields = value as Record<string, unknown>;
    const keys = Object.keys(fields);
    const unknown = keys.filter((k) => k !== 'blockHash' && k !== 'blockNumber' && k !== 'requireCanonical');
    if (unknown.length > 0) fail(path, `unknown field "${clip(unknown[0]!)}" in block object`);
    if (fields.blockHash !== undefined && fields.blockNumber !== undefined) {
      fail(path, 'cannot specify both blockHash and blockNumber, choose one or the other');
    }
    if (fields.blockHash !== undefined) {
      const requireCanonical = fields.requireCanonical === undefined ? false : boolean(fields.requireCanonical, `${path}.requireCanonical`);
      return { hash: hash(fields.blockHash, `${path}.blockHash`), requireCanonical };
    }
    // Only a number or tag here: never another object (and so no unbounded recursion).
    if (fields.blockNumber !== undefined) return blockNumberOrTag(fields.blockNumber, `${path}.blockNumber`);
    fail(path, 'block object needs blockHash or blockNumber');
  }
  fail(path, `expected a block number, tag or hash object, got ${describe(value)}`);
};

/** Block number or tag only (no hash object), as getBlockByNumber takes. */
export const blockNumberOrTag: Decoder<BlockRef> = (value, path) => {
  if (typeof value === 'number') return jsonBlockNumber(value, path);
  if (typeof value !== 'string') fail(path, `expected a block number or tag, got ${describe(value)}`);
  if (value.length === 66) fail(path, 'expected a block number or tag, got a 32-byte hash (use the by-hash method)');
  return blockRef(value, path);
};

export function optional<T>(decoder: Decoder<T>): Decoder<T | undefined> {
  return (value, path) => (value === undefined || value === null ? undefined : decoder(value, path));
}

export function arrayOf<T>(decoder: Decoder<T>, maxItems = 10_000): Decoder<T[]> {
  return (value, path) => {
    if (!Array.isArray(value)) fail(path, `expected an array, got ${describe(value)}`);
    if (value.length > maxItems) fail(path, `too many items (${value.length}), at most ${maxItems}`);
    return value.map((item, i) => decoder(item, `${path}[${i}]`));
  };
}

export function record(value: unknown, path: ParamPath): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, `expected an object, got ${describe(value)}`);
  return value as Record<string, unknown>;
}

const accessListItem: Decoder<{ address: string; storageKeys: string[] }> = (value, path) => {
  const item = record(value, path);
  const addr = address(item.address, `${path}.address`).toString();
  const keys = arrayOf(hash)(item.storageKeys ?? [], `${path}.storageKeys`);
  return { address: addr, storageKeys: keys };
};

const AUTHORIZATION_FIELDS = new Set(['chainId', 'address', 'nonce', 'yParity', 'v', 'r', 's', 'authority']);

/** An EIP-7702 authorization: signed (yParity or v, r, s), or unsigned with the `authority` (an owned account) to sign it. */
const authorization: Decoder<AuthorizationRequest> = (value, path) => {
  const item = record(value, path);
  for (const key of Object.keys(item)) {
    if (!AUTHORIZATION_FIELDS.has(key)) fail(path, `unknown field "${key}" in authorization`);
  }
  const at = (key: string) => `${path}.${key}`;
  const base = { chainId: uint256(item.chainId, at('chainId')), address: address(item.address, at('address')), nonce: uint64(item.nonce, at('nonce')) };
  const parity = item.yParity ?? item.v;
  const signed = parity !== undefined || item.r !== undefined || item.s !== undefined;
  if (!signed) {
    if (item.authority === undefined) fail(path, 'an authorization needs its signature (yParity, r, s) or the authority (an account of this node) to sign it');
    return { ...base, authority: address(item.authority, at('authority')) };
  }
  if (parity === undefined || item.r === undefined || item.s === undefined) fail(path, 'a signed authorization needs yParity (or v), r and s');
  const yParity = uint256(parity, at(item.yParity !== undefined ? 'yParity' : 'v'));
  if (yParity > 1n) fail(at(item.yParity !== undefined ? 'yParity' : 'v'), `expected 0 or 1, got ${yParity}`);
  return { ...base, signature: { yParity, r: uint256(item.r, at('r')), s: uint256(item.s, at('s')) } };
};

export const authorizationRequest = authorization;

/** The unsigned part of an authorization (chainId, address, nonce; `authority` optional), to be signed. */
export const unsignedAuthorization: Decoder<AuthorizationRequest> = (value, path) => {
  const item = record(value, path);
  for (const key of Object.keys(item)) {
    if (!['chainId', 'address', 'nonce', 'authority'].includes(key)) fail(path, `unknown field "${key}" in an authorization to sign`);
  }
  const at = (key: string) => `${path}.${key}`;
  return {
    chainId: uint256(item.chainId, at('chainId')),
    address: address(item.address, at('address')),
    nonce: uint64(item.nonce, at('nonce')),
    authority: optional(address)(item.authority, at('authority')),
  };
};

const CALL_FIELDS = new Set([
  'from',
  'to',
  'gas',
  'gasPrice',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'maxFeePerBlobGas',
  'value',
  'data',
  'input',
  'nonce',
  'type',
  'accessList',
  'chainId',
  'blobVersionedHashes',
  'authorizationList',
  'blobs',
  'commitments',
  'proofs',
]);

/** The transaction/call object of eth_call, eth_estimateGas and eth_sendTransaction. */
export const callRequest: Decoder<CallRequest> = (value, path) => {
  const fields = record(value ?? {}, path);
  for (const key of Object.keys(fields)) {
    if (!CALL_FIELDS.has(key)) fail(path, `unknown field "${clip(key)}" in transaction object`);
  }
  const at = (key: string) => `${path}.${key}`;
  const input = optional(data)(fields.input, at('input'));
  const legacyData = optional(data)(fields.data, at('data'));
  if (input && legacyData && Buffer.compare(input, legacyData) !== 0) {
    fail(path, 'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data');
  }
  const gasPrice = optional(uint256)(fields.gasPrice, at('gasPrice'));
  const maxFeePerGas = optional(uint256)(fields.maxFeePerGas, at('maxFeePerGas'));
  const maxPriorityFeePerGas = optional(uint256)(fields.maxPriorityFeePerGas, at('maxPriorityFeePerGas'));
  if (gasPrice !== undefined && (maxFeePerGas !== undefined || maxPriorityFeePerGas !== undefined)) {
    fail(path, 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
  }
  if (maxFeePerGas !== undefined && maxPriorityFeePerGas !== undefined && maxPriorityFeePerGas > maxFeePerGas) {
    fail(path, `maxFeePerGas (${maxFeePerGas}) < maxPriorityFeePerGas (${maxPriorityFeePerGas})`);
  }
  const type = optional(quantity(8))(fields.type, at('type'));
  // A blob sidecar cannot be honoured in a request: refused, never dropped.
  for (const key of ['blobs', 'commitments', 'proofs']) {
    if (fields[key] !== undefined && fields[key] !== null) {
      fail(at(key), 'blob sidecars are not taken in a transaction request: sign the blob transaction and send it with eth_sendRawTransaction');
    }
  }
  return {
    from: optional(address)(fields.from, at('from')),
    to: optional(address)(fields.to, at('to')),
    gas: optional(uint64)(fields.gas, at('gas')),
    gasPrice,
    maxFeePerGas,
    maxPriorityFeePerGas,
    maxFeePerBlobGas: optional(uint256)(fields.maxFeePerBlobGas, at('maxFeePerBlobGas')),
    value: optional(uint256)(fields.value, at('value')),
    data: input ?? legacyData,
    nonce: optional(uint64)(fields.nonce, at('nonce')),
    type: type === undefined ? undefined : Number(type),
    accessList: optional(arrayOf(accessListItem))(fields.accessList, at('accessList')),
    blobVersionedHashes: optional(arrayOf(hash))(fields.blobVersionedHashes, at('blobVersionedHashes')),
    chainId: optional(uint64)(fields.chainId, at('chainId')),
    authorizationList: optional(arrayOf(authorization, 1000))(fields.authorizationList, at('authorizationList')),
  };
};
