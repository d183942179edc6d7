// Literal values: numbers are 256-bit words; a string literal of at most 32
// bytes is a word holding the bytes left-aligned (as the reference does).

import { syntaxError, type Pos } from './errors.js';

export const TWO_256 = 1n << 256n;
export const MAX_WORD = TWO_256 - 1n;

const encoder = new TextEncoder();

/** Decodes the contents of a quoted literal (quotes included) into bytes. */
export function decodeStringLiteral(raw: string, pos: Pos): Uint8Array {
  const body = raw.slice(1, -1);
  const bytes: number[] = [];
  for (let i = 0; i < body.length; ) {
    const c = body[i]!;
    if (c !== '\\') {
      const cp = body.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      for (const b of encoder.encode(ch)) bytes.push(b);
      i += ch.length;
      continue;
    }
    const e = body[i + 1];
    if (e === undefined) throw syntaxError(pos, 'unfinished escape sequence in string literal');
    if (e === 'x') {
      const hex = body.slice(i + 2, i + 4);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw syntaxError(pos, "expected two hex digits after '\\x' in string literal");
      bytes.push(parseInt(hex, 16));
      i += 4;
      continue;
    }
    const simple = e === 'n' ? 10 : e === 't' ? 9 : e === 'r' ? 13 : e === '0' ? 0 : e.charCodeAt(0) & 0xff;
    bytes.push(simple);
    i += 2;
  }
  return Uint8Array.from(bytes);
}

export function isStringLiteral(val: string): boolean {
  return val.length >= 2 && (val[0] === '"' || val[0] === "'") && val[val.length - 1] === val[0];
}

export function isNumberLiteral(val: string): boolean {
  return /^(\d+|0[xX][0-9A-Fa-f]+)$/.test(val);
}

/**
 * The word value of a number or short-string token, or null when the token is
 * not a literal. Long strings are an error: they need text("...").
 */
export function literalValue(val: string, pos: Pos): bigint | null {
  if (isNumberLiteral(val)) {
    const v = BigInt(val);
    if (v > MAX_WORD) throw syntaxError(pos, 'number literal does not fit in 256 bits');
    return v;
  }
  if (isStringLiteral(val)) {
    const bytes = decodeStringLiteral(val, pos);
    if (bytes.length > 32) {
      throw syntaxError(pos, 'string literal longer than 32 bytes; use text("...") for long strings');
    }
    let v = 0n;
    for (let i = 0; i < 32; i++) v = (v << 8n) | BigInt(i < bytes.length ? bytes[i]! : 0);
    return v;
  }
  return null;
}
