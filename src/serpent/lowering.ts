// Shared vocabulary of the lowering modules: the context they receive and
// small IR builders that fold constants as they go.

import type { Node } from './ast.js';
import type { Pos } from './errors.js';
import { foldConstant } from './fold.js';
import { alloc, num, op, seq, withVar, get, type IR } from './ir.js';
import type { ProgramInfo } from './program.js';

export interface Lowering {
  readonly info: ProgramInfo;
  /** Lowers any tree node to IR. */
  lower(n: Node): IR;
  /** A fresh internal variable name (never collides with user names). */
  temp(hint: string): string;
  /** Compiles `create("file")` targets to their creation program. */
  compileFile(name: string, pos: Pos): IR;
}

function constant(ir: IR): bigint | null {
  return ir.k === 'num' ? ir.v : ir.k === 'op' ? foldConstant(ir) : null;
}

export function binop(name: string, a: IR, b: IR, pos: Pos): IR {
  const node = op(name, [a, b], pos);
  const folded = constant(a) !== null && constant(b) !== null ? foldConstant(node) : null;
  if (folded !== null) return num(folded, pos);
  if ((name === 'add' || name === 'sub') && constant(b) === 0n) return a;
  if (name === 'add' && constant(a) === 0n) return b;
  if (name === 'mul' && constant(b) === 1n) return a;
  if (name === 'mul' && constant(a) === 1n) return b;
  return node;
}

export const add = (a: IR, b: IR, pos: Pos): IR => binop('add', a, b, pos);
export const sub = (a: IR, b: IR, pos: Pos): IR => binop('sub', a, b, pos);
export const mul = (a: IR, b: IR, pos: Pos): IR => binop('mul', a, b, pos);
export const mload = (a: IR, pos: Pos): IR => op('mload', [a], pos);
export const mstore = (a: IR, v: IR, pos: Pos): IR => op('mstore', [a, v], pos);
export const iszero = (a: IR, pos: Pos): IR => op('iszero', [a], pos);

/** `x`, negated for use as a jump condition (drops a double negation). */
export function negate(cond: IR, pos: Pos): IR {
  return cond.k === 'op' && cond.op === 'iszero' ? cond.args[0]! : iszero(cond, pos);
}

/** ceil32(x) = 32 * ((x + 31) / 32). */
export function ceil32(x: IR, pos: Pos): IR {
  return mul(num(32, pos), binop('div', add(x, num(31, pos), pos), num(32, pos), pos), pos);
}

/** Allocates `32 + size` bytes, stores `length` in the first word, yields the data pointer. */
export function newBuffer(L: Lowering, length: IR, bytes: (len: IR) => IR, pos: Pos): IR {
  const l = L.temp('len');
  const x = L.temp('buf');
  return withVar(
    l,
    length,
    withVar(
      x,
      alloc(add(num(32, pos), bytes(get(l, pos)), pos), pos),
      seq([mstore(get(x, pos), get(l, pos), pos), add(get(x, pos), num(32, pos), pos)], pos),
      pos,
    ),
    pos,
  );
}

/** Copies memory with the identity precompile (available on every fork). */
export function memcopy(dst: IR, src: IR, len: IR, L: Lowering, pos: Pos): IR {
  const n = L.temp('n');
  const call = op('call', [op('gas', [], pos), num(4, pos), num(0, pos), src, get(n, pos), dst, get(n, pos)], pos);
  return withVar(n, len, { k: 'if', cond: iszero(call, pos), then: op('invalid', [], pos), else: null, pos }, pos);
}
