// Compile-time evaluation of constant arithmetic (EVM semantics, mod 2^256),
// so `2^160`, storage offsets and `x * 32` with literal x become one PUSH.

import type { IR } from './ir.js';
import { MAX_WORD, TWO_256 } from './literals.js';

const MAX_FOLD_DEPTH = 64;

export function foldConstant(ir: IR, depth = 0): bigint | null {
  if (ir.k === 'num') return ir.v;
  if (ir.k !== 'op' || depth > MAX_FOLD_DEPTH) return null;
  const vals: bigint[] = [];
  for (const a of ir.args) {
    const v = foldConstant(a, depth + 1);
    if (v === null) return null;
    vals.push(v);
  }
  const [a, b] = vals;
  switch (ir.op) {
    case 'add':
      return (a! + b!) % TWO_256;
    case 'sub':
      return (a! - b! + TWO_256) % TWO_256;
    case 'mul':
      return (a! * b!) % TWO_256;
    case 'div':
      return b === 0n ? 0n : a! / b!;
    case 'mod':
      return b === 0n ? 0n : a! % b!;
    case 'exp':
      return modPow(a!, b!);
    case 'and':
      return a! & b!;
    case 'or':
      return a! | b!;
    case 'xor':
      return a! ^ b!;
    case 'not':
      return MAX_WORD ^ a!;
    case 'iszero':
      return a === 0n ? 1n : 0n;
    case 'eq':
      return a === b ? 1n : 0n;
    case 'lt':
      return a! < b! ? 1n : 0n;
    case 'gt':
      return a! > b! ? 1n : 0n;
    default:
      return null;
  }
}

function modPow(base: bigint, exp: bigint): bigint {
  let result = 1n;
  let b = base % TWO_256;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % TWO_256;
    b = (b * b) % TWO_256;
    e >>= 1n;
  }
  return result;
}
