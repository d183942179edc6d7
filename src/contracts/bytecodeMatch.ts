/**
 * Whether code on chain is a compiled contract's: the same bytes except those a deployment
 * fills in (library addresses, immutables) and solc's metadata (a CBOR map at the end of the
 * code whose length is the code's last two bytes: it changes with comments and file paths,
 * not with what the code does).
 */
import type { ByteRange, Bytecode } from './compiled.js';

/** Bytes of solc's metadata at the end of `code` (the CBOR map and its 2-byte length), 0 when there is none. */
export function metadataLength(code: Uint8Array): number {
  if (code.length < 2) return 0;
  const length = (code[code.length - 2]! << 8) | code[code.length - 1]!;
  const start = code.length - 2 - length;
  if (length === 0 || start < 0) return 0;
  // A CBOR map of 1 to 7 entries (ipfs/bzzr, solc, experimental) starts with 0xa1 to 0xa7.
  const first = code[start]!;
  return first >= 0xa1 && first <= 0xa7 ? length + 2 : 0;
}

/** How `code` compares with `compiled` over `compiled`'s length: 'exact' (metadata too), 'code' (all but metadata), or no match. */
export function compareCode(code: Uint8Array, compiled: Bytecode): 'exact' | 'code' | undefined {
  const expected = compiled.code;
  if (code.length < expected.length) return undefined;
  const end = expected.length - metadataLength(expected);
  if (!sameOutside(code, expected, 0, end, compiled.variable)) return undefined;
  return Buffer.compare(code.subarray(end, expected.length), expected.subarray(end)) === 0 ? 'exact' : 'code';
}

/** `a` and `b` agree on [start, end) except inside `skip` (sorted by start). */
function sameOutside(a: Uint8Array, b: Uint8Array, start: number, end: number, skip: readonly ByteRange[]): boolean {
  let at = start;
  for (const range of skip) {
    if (range.start >= end) break;
    if (range.start > at && Buffer.compare(a.subarray(at, range.start), b.subarray(at, range.start)) !== 0) return false;
    at = Math.max(at, range.start + range.length);
  }
  return at >= end || Buffer.compare(a.subarray(at, end), b.subarray(at, end)) === 0;
}
