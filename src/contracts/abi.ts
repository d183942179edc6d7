/**
 * The Solidity ABI as the compiler's JSON describes it: parameter types parsed into a tree,
 * canonical signatures and selectors, and a decoder of ABI-encoded data (calldata, return
 * data, revert data, event data). chain-sim only ever decodes: what a contract sent is read,
 * never encoded.
 */
import { toChecksumAddress } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';

/** One parameter of an ABI entry, as solc writes it. */
export interface AbiParam {
  readonly name?: string;
  readonly type: string;
  readonly components?: readonly AbiParam[];
  readonly indexed?: boolean;
}

/** One entry of a contract's ABI (function, event, error, constructor, fallback, receive). */
export interface AbiItem {
  readonly type: string;
  readonly name?: string;
  readonly inputs?: readonly AbiParam[];
  readonly outputs?: readonly AbiParam[];
  readonly anonymous?: boolean;
  readonly stateMutability?: string;
}

export type AbiType =
  | { readonly kind: 'uint' | 'int'; readonly bits: number }
  | { readonly kind: 'address' | 'bool' | 'bytes' | 'string' | 'function' }
  | { readonly kind: 'fixedBytes'; readonly size: number }
  | { readonly kind: 'array'; readonly item: AbiType; readonly length: number | undefined }
  | { readonly kind: 'tuple'; readonly components: readonly NamedType[] };

export interface NamedType {
  readonly name: string;
  readonly type: AbiType;
}

/** A decoded value: numbers as bigint, addresses checksummed, byte strings as bytes, arrays and tuples as lists. */
export type AbiValue =
  | { readonly kind: 'uint' | 'int'; readonly value: bigint }
  | { readonly kind: 'address'; readonly value: string }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'bytes' | 'function'; readonly value: Uint8Array }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'array' | 'tuple'; readonly items: readonly AbiValue[] };

/** Data that does not decode as the types say (too short, an offset out of range). */
export class AbiDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AbiDecodeError';
  }
}

/** A type that the ABI spec does not have (an artifact that is not solc's, or damaged). */
export class AbiTypeError extends Error {
  constructor(type: string) {
    super(`unknown ABI type "${type}"`);
    this.name = 'AbiTypeError';
  }
}

/** The type tree of one parameter. */
export function parseType(param: AbiParam): AbiType {
  const arrayMatch = /^(.*)\[(\d*)\]$/.exec(param.type);
  if (arrayMatch) {
    const item = parseType({ ...param, type: arrayMatch[1]! });
    return { kind: 'array', item, length: arrayMatch[2] === '' ? undefined : Number(arrayMatch[2]) };
  }
  const type = param.type;
  if (type === 'tuple') return { kind: 'tuple', components: (param.components ?? []).map((c, i) => ({ name: c.name || `_${i}`, type: parseType(c) })) };
  if (type === 'address' || type === 'bool' || type === 'bytes' || type === 'string' || type === 'function') return { kind: type };
  const integer = /^(u?)int(\d*)$/.exec(type);
  if (integer) {
    const bits = integer[2] === '' ? 256 : Number(integer[2]);
    if (bits % 8 !== 0 || bits < 8 || bits > 256) throw new AbiTypeError(type);
    return { kind: integer[1] === 'u' ? 'uint' : 'int', bits };
  }
  const fixed = /^bytes(\d+)$/.exec(type);
  if (fixed) {
    const size = Number(fixed[1]);
    if (size < 1 || size > 32) throw new AbiTypeError(type);
    return { kind: 'fixedBytes', size };
  }
  throw new AbiTypeError(type);
}

export function parseTypes(params: readonly AbiParam[] | undefined): NamedType[] {
  return (params ?? []).map((p) => ({ name: p.name ?? '', type: parseType(p) }));
}

/** The canonical type string of a signature: tuples written out as `(t1,t2)`. */
export function canonicalType(type: AbiType): string {
  switch (type.kind) {
    case 'uint':
    case 'int':
      return `${type.kind}${type.bits}`;
    case 'fixedBytes':
      return `bytes${type.size}`;
    case 'array':
      return `${canonicalType(type.item)}[${type.length ?? ''}]`;
    case 'tuple':
      return `(${type.components.map((c) => canonicalType(c.type)).join(',')})`;
    default:
      return type.kind;
  }
}

/** `name(type1,type2)`, the text whose hash is a selector or an event's topic. */
export function signatureOf(item: AbiItem): string {
  return `${item.name ?? ''}(${(item.inputs ?? []).map((p) => canonicalType(parseType(p))).join(',')})`;
}

export function keccakText(text: string): Uint8Array {
  return keccak_256(new TextEncoder().encode(text));
}

/** A function's or error's selector as 8 lowercase hex digits (no 0x). */
export function selectorOf(item: AbiItem): string {
  return Buffer.from(keccakText(signatureOf(item)).subarray(0, 4)).toString('hex');
}

/** An event's first topic as 64 lowercase hex digits (no 0x). */
export function topicOf(item: AbiItem): string {
  return Buffer.from(keccakText(signatureOf(item))).toString('hex');
}

// ---- decoding ------------------------------------------------------------------------------

function isDynamic(type: AbiType): boolean {
  if (type.kind === 'bytes' || type.kind === 'string') return true;
  if (type.kind === 'array') return type.length === undefined || isDynamic(type.item);
  if (type.kind === 'tuple') return type.components.some((c) => isDynamic(c.type));
  return false;
}

/** Bytes a static type takes in the head. */
function headSize(type: AbiType): number {
  if (type.kind === 'array' && type.length !== undefined && !isDynamic(type)) return type.length * headSize(type.item);
  if (type.kind === 'tuple' && !isDynamic(type)) return type.components.reduce((sum, c) => sum + headSize(c.type), 0);
  return 32;
}

function word(data: Uint8Array, offset: number): bigint {
  if (offset < 0 || offset + 32 > data.length) throw new AbiDecodeError(`data too short: a word at byte ${offset} of ${data.length}`);
  let value = 0n;
  for (let i = offset; i < offset + 32; i++) value = (value << 8n) | BigInt(data[i]!);
  return value;
}

/** A length or offset: a word that must fit in the data (anything larger cannot be honest). */
function size(data: Uint8Array, offset: number): number {
  const value = word(data, offset);
  if (value > BigInt(data.length)) throw new AbiDecodeError(`offset or length ${value} past the end of ${data.length} bytes of data`);
  return Number(value);
}

/** Decodes `types` from `data` (a tuple's encoding: heads, then tails). */
export function decodeValues(types: readonly AbiType[], data: Uint8Array): AbiValue[] {
  return decodeTuple(types, data, 0);
}

function decodeTuple(types: readonly AbiType[], data: Uint8Array, base: number): AbiValue[] {
  let head = base;
  return types.map((type) => {
    let value: AbiValue;
    if (isDynamic(type)) {
      value = decodeAt(type, data, base + size(data, head));
      head += 32;
    } else {
      value = decodeAt(type, data, head);
      head += headSize(type);
    }
    return value;
  });
}

function decodeAt(type: AbiType, data: Uint8Array, offset: number): AbiValue {
  switch (type.kind) {
    case 'uint': {
      const value = word(data, offset);
      return { kind: 'uint', value: type.bits === 256 ? value : value & ((1n << BigInt(type.bits)) - 1n) };
    }
    case 'int': {
      const bits = BigInt(type.bits);
      const value = word(data, offset) & ((1n << bits) - 1n);
      return { kind: 'int', value: value >= 1n << (bits - 1n) ? value - (1n << bits) : value };
    }
    case 'address':
      return { kind: 'address', value: toChecksumAddress(`0x${(word(data, offset) & ((1n << 160n) - 1n)).toString(16).padStart(40, '0')}`) };
    case 'bool':
      return { kind: 'bool', value: word(data, offset) !== 0n };
    case 'fixedBytes':
      word(data, offset); // bounds
      return { kind: 'bytes', value: data.slice(offset, offset + type.size) };
    case 'function':
      word(data, offset);
      return { kind: 'function', value: data.slice(offset, offset + 24) };
    case 'bytes':
    case 'string': {
      const length = size(data, offset);
      if (offset + 32 + length > data.length) throw new AbiDecodeError(`${type.kind} of ${length} bytes past the end of the data`);
      const bytes = data.slice(offset + 32, offset + 32 + length);
      return type.kind === 'bytes' ? { kind: 'bytes', value: bytes } : { kind: 'string', value: new TextDecoder().decode(bytes) };
    }
    case 'array': {
      const length = type.length ?? size(data, offset);
      const start = type.length === undefined ? offset + 32 : offset;
      // Each element takes at least a word: a longer count cannot be in the data.
      if (length * 32 > data.length) throw new AbiDecodeError(`an array of ${length} elements in ${data.length} bytes of data`);
      return {
        kind: 'array',
        items: decodeTuple(
          Array.from({ length }, () => type.item),
          data,
          start,
        ),
      };
    }
    case 'tuple':
      return {
        kind: 'tuple',
        items: decodeTuple(
          type.components.map((c) => c.type),
          data,
          offset,
        ),
      };
  }
}
