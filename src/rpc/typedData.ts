/**
 * EIP-712 typed data, as `eth_signTypedData_v4` receives it: checked, then hashed to the
 * digest the account signs. MetaMask's v4 rules (arrays and nested structs, a struct field
 * hashed as its struct's hash); where the request has no `EIP712Domain` type, the domain's
 * fields give it, in the EIP's order (as viem and ethers build it). Every value is checked
 * against its type before anything is hashed: a message names the field's path and the rule.
 */
import { isValidChecksumAddress } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { clip } from '../engine/index.js';

export interface TypedField {
  name: string;
  type: string;
}

export interface TypedData {
  types: Record<string, TypedField[]>;
  primaryType: string;
  domain: Record<string, unknown>;
  message: Record<string, unknown>;
}

/** Thrown for input that is not valid typed data; the RPC layer puts it in a -32602 answer. */
export class TypedDataError extends Error {}

const fail = (where: string, rule: string): never => {
  throw new TypedDataError(`${where}: ${rule}`);
};

/** The domain fields EIP-712 defines, in the order its type lists them. */
const DOMAIN_FIELDS: readonly TypedField[] = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
  { name: 'salt', type: 'bytes32' },
];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks the shape of a request's typed data (an object, or its JSON text as MetaMask sends it). */
export function parseTypedData(value: unknown): TypedData {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      fail('typed data', 'not valid JSON');
    }
  }
  if (!isRecord(parsed)) return fail('typed data', 'expected an object with types, primaryType, domain and message');
  for (const key of ['types', 'primaryType', 'message']) {
    if (parsed[key] === undefined) fail('typed data', `"${key}" is missing`);
  }
  const { types, primaryType, message } = parsed;
  const domain = parsed.domain ?? {};
  if (!isRecord(types)) return fail('types', 'expected an object of struct types');
  if (typeof primaryType !== 'string') return fail('primaryType', 'expected a type name');
  if (!isRecord(domain)) return fail('domain', 'expected an object');
  if (!isRecord(message)) return fail('message', 'expected an object');
  const checkedTypes: Record<string, TypedField[]> = {};
  for (const [name, fields] of Object.entries(types)) {
    if (!Array.isArray(fields)) return fail(`types.${clip(name)}`, 'expected an array of { name, type }');
    checkedTypes[name] = fields.map((field, i) => {
      if (!isRecord(field) || typeof field.name !== 'string' || typeof field.type !== 'string') {
        return fail(`types.${clip(name)}[${i}]`, 'expected { name, type } strings');
      }
      return { name: field.name, type: field.type };
    });
  }
  checkedTypes.EIP712Domain ??= domainType(domain);
  if (primaryType !== 'EIP712Domain' && checkedTypes[primaryType] === undefined) fail('primaryType', `no type named "${clip(primaryType)}" in types`);
  return { types: checkedTypes, primaryType, domain, message };
}

/** The `EIP712Domain` type a domain implies: its fields among those EIP-712 defines; any other is refused. */
function domainType(domain: Record<string, unknown>): TypedField[] {
  for (const key of Object.keys(domain)) {
    if (!DOMAIN_FIELDS.some((field) => field.name === key))
      fail(`domain.${clip(key)}`, 'not an EIP-712 domain field (name, version, chainId, verifyingContract, salt); give an EIP712Domain type to use it');
  }
  return DOMAIN_FIELDS.filter((field) => domain[field.name] !== undefined);
}

/** keccak256("\x19\x01" ‖ domainSeparator ‖ hashStruct(message)); the message part is left out when the primary type is the domain. */
export function typedDataDigest(typed: TypedData): Uint8Array {
  const hasher = new StructHasher(typed.types);
  const parts = [Uint8Array.of(0x19, 0x01), hasher.hashStruct('EIP712Domain', typed.domain, 'domain')];
  if (typed.primaryType !== 'EIP712Domain') parts.push(hasher.hashStruct(typed.primaryType, typed.message, 'message'));
  return keccak_256(concat(parts));
}

const ARRAY_SUFFIX = /\[(\d*)\]$/;
const INTEGER = /^(u?)int(\d{1,3})$/;
const FIXED_BYTES = /^bytes(\d{1,2})$/;
const HEX = /^0x[0-9a-fA-F]*$/;
const DECIMAL = /^-?\d+$/;

class StructHasher {
  private readonly typeHashes = new Map<string, Uint8Array>();

  constructor(private readonly types: Record<string, TypedField[]>) {}

  hashStruct(type: string, value: unknown, where: string): Uint8Array {
    if (!isRecord(value)) return fail(where, `expected an object (struct ${clip(type)})`);
    const fields = this.types[type] ?? fail(where, `no type named "${clip(type)}" in types`);
    const words = [this.typeHash(type)];
    for (const field of fields) {
      const fieldValue = value[field.name];
      // MetaMask's words (eth-sig-util), which Hardhat's users know.
      if (fieldValue === undefined) throw new TypedDataError(`missing value for field ${where}.${clip(field.name)} of type ${clip(field.type)}`);
      words.push(this.encodeField(field.type, fieldValue, `${where}.${clip(field.name)}`));
    }
    return keccak_256(concat(words));
  }

  /** One 32-byte word: atomic values ABI-encoded, dynamic ones and structs hashed. */
  private encodeField(type: string, value: unknown, where: string): Uint8Array {
    if (this.types[type] !== undefined) return this.hashStruct(type, value, where);
    const array = ARRAY_SUFFIX.exec(type);
    if (array) {
      if (!Array.isArray(value)) return fail(where, `expected an array (${clip(type)})`);
      if (array[1] !== '' && value.length !== Number(array[1])) fail(where, `expected ${array[1]} items, got ${value.length}`);
      const itemType = type.slice(0, array.index);
      return keccak_256(concat(value.map((item, i) => this.encodeField(itemType, item, `${where}[${i}]`))));
    }
    if (type === 'string') {
      if (typeof value !== 'string') fail(where, 'expected a string');
      return keccak_256(new TextEncoder().encode(value as string));
    }
    if (type === 'bytes') return keccak_256(hexBytes(value, where));
    return encodeAtomic(type, value, where);
  }

  /** keccak256 of `Primary(fields)` followed by the struct types it refers to, sorted by name. */
  private typeHash(primary: string): Uint8Array {
    let hash = this.typeHashes.get(primary);
    if (!hash) {
      const referenced = [...this.dependencies(primary)].filter((name) => name !== primary).sort();
      const encoded = [primary, ...referenced].map((name) => `${name}(${this.types[name]!.map((field) => `${field.type} ${field.name}`).join(',')})`).join('');
      hash = keccak_256(new TextEncoder().encode(encoded));
      this.typeHashes.set(primary, hash);
    }
    return hash;
  }

  /** Struct types reachable from `primary` (itself included); a walk, not recursion, so cycles and depth cost nothing. */
  private dependencies(primary: string): Set<string> {
    const found = new Set<string>();
    const pending = [primary];
    while (pending.length > 0) {
      const name = pending.pop()!.replace(/(\[\d*\])+$/, '');
      const fields = this.types[name];
      if (!fields || found.has(name)) continue;
      found.add(name);
      for (const field of fields) pending.push(field.type);
    }
    return found;
  }
}

/** An atomic type's ABI word: address, bool, uintN, intN or bytesN. */
function encodeAtomic(type: string, value: unknown, where: string): Uint8Array {
  const word = new Uint8Array(32);
  if (type === 'address') {
    if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) return fail(where, `expected a 20-byte address, got ${describeValue(value)}`);
    const mixedCase = value !== value.toLowerCase() && value.slice(2) !== value.slice(2).toUpperCase();
    if (mixedCase && !isValidChecksumAddress(value)) fail(where, `address ${value} has a wrong checksum`);
    word.set(Buffer.from(value.slice(2), 'hex'), 12);
    return word;
  }
  if (type === 'bool') {
    if (typeof value !== 'boolean') fail(where, `expected true or false, got ${describeValue(value)}`);
    word[31] = value ? 1 : 0;
    return word;
  }
  const integer = INTEGER.exec(type);
  if (integer) return integerWord(integer[1] === 'u', Number(integer[2]), value, where, type);
  const fixed = FIXED_BYTES.exec(type);
  if (fixed && Number(fixed[1]) >= 1 && Number(fixed[1]) <= 32) {
    const bytes = hexBytes(value, where);
    if (bytes.length !== Number(fixed[1])) fail(where, `expected ${fixed[1]} bytes (${type}), got ${bytes.length}`);
    word.set(bytes);
    return word;
  }
  return fail(where, `unknown type "${clip(type)}"`);
}

function integerWord(unsigned: boolean, bits: number, value: unknown, where: string, type: string): Uint8Array {
  if (bits < 8 || bits > 256 || bits % 8 !== 0) fail(where, `unknown type "${type}"`);
  let n: bigint;
  if (typeof value === 'number' && Number.isSafeInteger(value)) n = BigInt(value);
  else if (typeof value === 'string' && (DECIMAL.test(value) || (HEX.test(value) && value.length > 2)) && value.length <= 80) n = BigInt(value);
  else return fail(where, `expected an integer (a safe JSON number, or a decimal or 0x string), got ${describeValue(value)}`);
  const min = unsigned ? 0n : -(1n << BigInt(bits - 1));
  const max = unsigned ? (1n << BigInt(bits)) - 1n : (1n << BigInt(bits - 1)) - 1n;
  if (n < min || n > max) fail(where, `${n} is out of range for ${type}`);
  const twos = BigInt.asUintN(256, n);
  return Buffer.from(twos.toString(16).padStart(64, '0'), 'hex');
}

function hexBytes(value: unknown, where: string): Uint8Array {
  if (typeof value !== 'string' || !HEX.test(value) || value.length % 2 !== 0)
    return fail(where, `expected 0x-prefixed hex bytes, got ${describeValue(value)}`);
  return Buffer.from(value.slice(2), 'hex');
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(clip(value));
  if (value === null || Array.isArray(value)) return value === null ? 'null' : 'an array';
  return typeof value === 'object' ? 'an object' : String(value);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
