/**
 * 0x-prefixed lower-case hex, built by Buffer in one piece. Strings built by
 * concatenating per-byte pieces (as @ethereumjs/util's bytesToHex does) stay V8 "cons
 * strings" of dozens of nodes, about 1 KB each: too much for keys kept per block.
 */
export function toHex(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
}
