// ABI naming: Serpent signatures, 4-byte selectors and event topics.

import { keccak_256 } from '@noble/hashes/sha3.js';

const encoder = new TextEncoder();

export function keccak(data: string | Uint8Array): Uint8Array {
  return keccak_256(typeof data === 'string' ? encoder.encode(data) : data);
}

export function signatureOf(name: string, types: readonly string[]): string {
  return `${name}(${types.join(',')})`;
}

/** First four bytes of keccak(signature) as an unsigned integer. */
export function selectorOf(signature: string): number {
  const h = keccak(signature);
  return ((h[0]! << 24) | (h[1]! << 16) | (h[2]! << 8) | h[3]!) >>> 0;
}

export function topicOf(signature: string): bigint {
  return bytesToBigInt(keccak(signature));
}

export function bytesToBigInt(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

export function hex(bytes: Uint8Array): string {
  let s = '0x';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

export function selectorHex(selector: number): string {
  return '0x' + selector.toString(16).padStart(8, '0');
}

export function wordHex(v: bigint): string {
  return '0x' + v.toString(16).padStart(64, '0');
}

/** Arrays are `arr` or anything ending in `[]`. */
export function isArrayType(t: string): boolean {
  return t === 'arr' || t.endsWith('[]');
}

export function isBytesType(t: string): boolean {
  return t === 'bytes' || t === 'string' || t === 'str';
}

export type ArgKind = 'static' | 'array' | 'bytes';

export function argKind(t: string): ArgKind {
  if (isArrayType(t)) return 'array';
  if (isBytesType(t)) return 'bytes';
  return 'static';
}
