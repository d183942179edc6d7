import type { Address } from '@ethereumjs/util';

/** QUANTITY: 0x-prefixed hex without leading zeros ("0x0" for zero). */
export function encodeQuantity(value: bigint | number): string {
  return `0x${value.toString(16)}`;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** DATA: 0x-prefixed hex, two digits per byte. */
export function encodeData(bytes: Uint8Array): string {
  let out = '0x';
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]!];
  return out;
}

export function encodeAddress(address: Address): string {
  return address.toString();
}
