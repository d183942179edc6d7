// Memory-oriented builtins: arrays and strings (a pointer to the data with the
// length in the word before it), returning them ABI-encoded, hashing, and
// copying arrays to and from storage.

import { isAst, isToken, show, type Ast, type Node } from './ast.js';
import { semanticError, type Pos } from './errors.js';
import { decodeStringLiteral, isStringLiteral } from './literals.js';
import { alloc, get, num, op, ref, seq, set, until, withVar, type IR } from './ir.js';
import { add, binop, ceil32, iszero, memcopy, mload, mstore, mul, newBuffer, sub, type Lowering } from './lowering.js';

type SizeUnit = 'items' | 'chars';

/** `items=n` / `chars=n` keyword -> its unit and count node, else null. */
export function sizeKeyword(n: Node | undefined): { unit: SizeUnit; count: Node } | null {
  if (n === undefined || (!isAst(n, '=', 2) && !isAst(n, 'set', 2))) return null;
  const k = n.args[0]!;
  if (isToken(k, 'items') || isToken(k, 'chars')) return { unit: k.val as SizeUnit, count: n.args[1]! };
  return null;
}

/** Byte length of `count` items or chars. */
export function sizeBytes(unit: SizeUnit, count: IR, pos: Pos): IR {
  return unit === 'items' ? mul(count, num(32, pos), pos) : count;
}

/** `x:arr`, `x:str` annotations -> ('arr' | 'str' | other, x). */
export function annotation(n: Node): { type: string; value: Node } | null {
  if (!isAst(n, ':', 2)) return null;
  const t = n.args[1]!;
  if (isAst(t, 'access')) return { type: 'arr', value: n.args[0]! };
  if (t.type !== 'token') throw semanticError(t.pos, `invalid type annotation: ${show(t)}`);
  const type = t.val === 'bytes' ? 'str' : t.val;
  return { type, value: n.args[0]! };
}

const len = (x: IR, pos: Pos): IR => mload(sub(x, num(32, pos), pos), pos);

function expectArgs(n: Ast, min: number, max: number): void {
  if (n.args.length < min || n.args.length > max) {
    const want = min === max ? `${min}` : `${min} to ${max}`;
    throw semanticError(n.pos, `${n.val}() takes ${want} argument(s), got ${n.args.length}`);
  }
}

export function lowerReturn(L: Lowering, n: Ast): IR {
  const pos = n.pos;
  if (n.args.length === 0) throw semanticError(pos, 'return needs a value');
  if (n.args.length > 2) throw semanticError(pos, 'return takes a value, or an array and items=/chars=');
  const a = n.args[0]!;
  if (n.args.length === 2) {
    const kw = sizeKeyword(n.args[1]);
    if (kw === null) {
      throw semanticError(
        n.args[1]!.pos,
        'return(arr, len) is not valid: use return(x) for values, return(x:arr) / return(x:str), or return(arr, items=len) / return(arr, chars=len)',
      );
    }
    const arr = L.temp('arr');
    const size = L.temp('size');
    const p = get(arr, pos);
    return withVar(
      arr,
      L.lower(a),
      withVar(
        size,
        L.lower(kw.count),
        seq(
          [
            mstore(sub(p, num(64, pos), pos), num(32, pos), pos),
            mstore(sub(p, num(32, pos), pos), get(size, pos), pos),
            op('return', [sub(p, num(64, pos), pos), ceil32(add(sizeBytes(kw.unit, get(size, pos), pos), num(64, pos), pos), pos)], pos),
          ],
          pos,
        ),
        pos,
      ),
      pos,
    );
  }
  const ann = annotation(a);
  if (ann !== null && (ann.type === 'arr' || ann.type === 'str')) {
    const t = L.temp('ret');
    const p = get(t, pos);
    const bytes = ann.type === 'arr' ? mul(len(p, pos), num(32, pos), pos) : len(p, pos);
    const total = add(num(64, pos), bytes, pos);
    return withVar(
      t,
      L.lower(ann.value),
      seq(
        [mstore(sub(p, num(64, pos), pos), num(32, pos), pos), op('return', [sub(p, num(64, pos), pos), ann.type === 'str' ? ceil32(total, pos) : total], pos)],
        pos,
      ),
      pos,
    );
  }
  const value = ann !== null ? ann.value : a;
  const t = L.temp('ret');
  return seq([set(t, L.lower(value), pos), op('return', [ref(t, pos), num(32, pos)], pos)], pos);
}

/** Start and byte size of the data to hash for sha3/sha256/ripemd160 forms. */
function hashInput(L: Lowering, n: Ast, body: (start: IR, size: IR) => IR): IR {
  const pos = n.pos;
  expectArgs(n, 1, 2);
  const a = n.args[0]!;
  if (n.args.length === 2) {
    const kw = sizeKeyword(n.args[1]);
    if (kw === null) {
      throw semanticError(
        n.args[1]!.pos,
        `${n.val}(arr, len) is not valid: use ${n.val}(x) for a value, ${n.val}(x:arr) / ${n.val}(x:str), or ${n.val}(arr, items=len) / ${n.val}(arr, chars=len)`,
      );
    }
    const s = L.temp('size');
    return withVar(s, sizeBytes(kw.unit, L.lower(kw.count), pos), body(L.lower(a), get(s, pos)), pos);
  }
  const ann = annotation(a);
  if (ann !== null) {
    if (ann.type !== 'arr' && ann.type !== 'str') throw semanticError(a.pos, `cannot hash a value annotated as '${ann.type}'`);
    const t = L.temp('data');
    const p = get(t, pos);
    return withVar(t, L.lower(ann.value), body(p, ann.type === 'arr' ? mul(len(p, pos), num(32, pos), pos) : len(p, pos)), pos);
  }
  const t = L.temp('word');
  return seq([set(t, L.lower(a), pos), body(ref(t, pos), num(32, pos))], pos);
}

export function lowerSha3(L: Lowering, n: Ast): IR {
  return hashInput(L, n, (start, size) => op('sha3', [start, size], n.pos));
}

/** sha256 / ripemd160 through their precompiles (addresses 2 and 3). */
export function lowerPrecompileHash(L: Lowering, n: Ast, address: number): IR {
  const pos = n.pos;
  return hashInput(L, n, (start, size) => {
    const out = L.temp('out');
    const o = get(out, pos);
    const call = op('call', [op('gas', [], pos), num(address, pos), num(0, pos), start, size, o, num(32, pos)], pos);
    return withVar(out, alloc(num(32, pos), pos), seq([op('pop', [call], pos), mload(o, pos)], pos), pos);
  });
}

export function lowerEcrecover(L: Lowering, n: Ast): IR {
  const pos = n.pos;
  expectArgs(n, 4, 4);
  const t = L.temp('ecbuf');
  const p = get(t, pos);
  const at = (k: number): IR => add(p, num(k, pos), pos);
  const call = op('call', [op('gas', [], pos), num(1, pos), num(0, pos), p, num(128, pos), at(128), num(32, pos)], pos);
  return withVar(
    t,
    alloc(num(160, pos), pos),
    seq([...n.args.map((a, i) => mstore(at(32 * i), L.lower(a), pos)), op('pop', [call], pos), mload(at(128), pos)], pos),
    pos,
  );
}

export function lowerArrayLiteral(L: Lowering, n: Ast): IR {
  const pos = n.pos;
  const t = L.temp('lit');
  const p = get(t, pos);
  return withVar(
    t,
    alloc(num(32 * n.args.length + 32, pos), pos),
    seq(
      [
        mstore(p, num(n.args.length, pos), pos),
        ...n.args.map((a, i) => mstore(add(p, num(32 * i + 32, pos), pos), L.lower(a), pos)),
        add(p, num(32, pos), pos),
      ],
      pos,
    ),
    pos,
  );
}

/** text("...") -> a memory string holding the literal's bytes. */
export function lowerText(L: Lowering, n: Ast): IR {
  const pos = n.pos;
  expectArgs(n, 1, 1);
  const lit = n.args[0]!;
  if (lit.type !== 'token' || !isStringLiteral(lit.val)) throw semanticError(lit.pos, 'text() expects a string literal');
  const bytes = decodeStringLiteral(lit.val, lit.pos);
  const t = L.temp('str');
  const p = get(t, pos);
  const stores: IR[] = [mstore(p, num(bytes.length, pos), pos)];
  for (let i = 0; i < bytes.length; i += 32) {
    let w = 0n;
    for (let j = i; j < i + 32; j++) w = (w << 8n) | BigInt(j < bytes.length ? bytes[j]! : 0);
    stores.push(mstore(add(p, num(i + 32, pos), pos), num(w, pos), pos));
  }
  return withVar(t, alloc(num(bytes.length + 32, pos), pos), seq([...stores, add(p, num(32, pos), pos)], pos), pos);
}

/** Builtins with a fixed shape; returns null when `n` is not one of them. */
export function lowerMemoryBuiltin(L: Lowering, n: Ast): IR | null {
  const pos = n.pos;
  const arg = (i: number): IR => L.lower(n.args[i]!);
  switch (n.val) {
    case 'array':
      expectArgs(n, 1, 1);
      return newBuffer(L, arg(0), (l) => mul(l, num(32, pos), pos), pos);
    case 'string':
      expectArgs(n, 1, 1);
      return newBuffer(L, arg(0), (l) => l, pos);
    case 'len':
      expectArgs(n, 1, 1);
      return len(arg(0), pos);
    case 'shrink':
      expectArgs(n, 2, 2);
      return mstore(sub(arg(0), num(32, pos), pos), arg(1), pos);
    case 'ceil32':
      expectArgs(n, 1, 1);
      return ceil32(arg(0), pos);
    case 'alloc':
      expectArgs(n, 1, 1);
      return alloc(arg(0), pos);
    case 'getch':
      expectArgs(n, 2, 2);
      return binop('mod', mload(sub(add(arg(0), arg(1), pos), num(31, pos), pos), pos), num(256, pos), pos);
    case 'setch': {
      expectArgs(n, 3, 3);
      const v = L.temp('ch');
      const byte = (k: number): IR => op('byte', [num(k, pos), get(v, pos)], pos);
      return withVar(v, arg(2), op('mstore8', [add(arg(0), arg(1), pos), op('or', [byte(0), byte(31)], pos)], pos), pos);
    }
    case 'slice':
      return lowerSlice(L, n);
    case 'mcopy': {
      expectArgs(n, 3, 3);
      const kw = sizeKeyword(n.args[2]);
      const size = kw === null ? arg(2) : sizeBytes(kw.unit, L.lower(kw.count), pos);
      return memcopy(arg(0), arg(1), size, L, pos);
    }
    case 'save':
      return lowerSave(L, n);
    case 'load':
      return lowerLoad(L, n);
    default:
      return null;
  }
}

function lowerSlice(L: Lowering, n: Ast): IR {
  const pos = n.pos;
  expectArgs(n, 3, 3);
  const from = sizeKeyword(n.args[1]);
  const to = sizeKeyword(n.args[2]);
  if (from === null || to === null || from.unit !== to.unit) {
    throw semanticError(pos, 'use slice(arr, items=start, items=end) or slice(str, chars=start, chars=end)');
  }
  const s = L.temp('start');
  const l = L.temp('count');
  const a = L.temp('slice');
  const bytes = (x: IR): IR => sizeBytes(from.unit, x, pos);
  const fresh = from.unit === 'items' ? newBuffer(L, get(l, pos), (k) => mul(k, num(32, pos), pos), pos) : newBuffer(L, get(l, pos), (k) => k, pos);
  return withVar(
    s,
    L.lower(from.count),
    withVar(
      l,
      sub(L.lower(to.count), get(s, pos), pos),
      withVar(a, fresh, seq([memcopy(get(a, pos), add(L.lower(n.args[0]!), bytes(get(s, pos)), pos), bytes(get(l, pos)), L, pos), get(a, pos)], pos), pos),
      pos,
    ),
    pos,
  );
}

/** A word with only the first `c mod 32` bytes of `w` kept. */
function headBytes(w: IR, c: IR, pos: Pos): IR {
  const mask = sub(num(0, pos), op('exp', [num(256, pos), sub(num(32, pos), binop('mod', c, num(32, pos), pos), pos)], pos), pos);
  return op('and', [w, mask], pos);
}

/** for (i = 0; i < end; i++) body(i), with i a stack variable. */
function countLoop(L: Lowering, end: IR, body: (i: IR) => IR, after: (i: IR) => IR | null, pos: Pos): IR {
  const i = L.temp('i');
  const iv = get(i, pos);
  const loop = until(iszero(op('slt', [iv, end], pos), pos), seq([body(iv), set(i, add(iv, num(1, pos), pos), pos)], pos), pos);
  const tail = after(iv);
  return withVar(i, num(0, pos), tail === null ? loop : seq([loop, tail], pos), pos);
}

function lowerSave(L: Lowering, n: Ast): IR {
  const pos = n.pos;
  expectArgs(n, 2, 3);
  const loc = L.temp('loc');
  const slot = (i: IR): IR => add(i, get(loc, pos), pos);
  const word = (arr: IR, i: IR): IR => mload(add(arr, mul(num(32, pos), i, pos), pos), pos);
  let arrayNode: Node;
  let unit: 'items' | 'chars';
  let count: (arr: IR) => IR;
  if (n.args.length === 2) {
    const ann = annotation(n.args[1]!);
    if (ann === null || (ann.type !== 'arr' && ann.type !== 'str'))
      throw semanticError(n.args[1]!.pos, 'use save(loc, x:arr), save(loc, x:str) or save(loc, x, items=n / chars=n)');
    arrayNode = ann.value;
    unit = ann.type === 'arr' ? 'items' : 'chars';
    count = (arr) => len(arr, pos);
  } else {
    const kw = sizeKeyword(n.args[2]);
    if (kw === null) throw semanticError(n.args[2]!.pos, 'expected items=n or chars=n');
    arrayNode = n.args[1]!;
    unit = kw.unit;
    count = () => L.lower(kw.count);
  }
  const arr = L.temp('src');
  const c = L.temp('count');
  const a = get(arr, pos);
  const cv = get(c, pos);
  const body =
    unit === 'items'
      ? countLoop(
          L,
          cv,
          (i) => op('sstore', [slot(i), word(a, i)], pos),
          () => null,
          pos,
        )
      : countLoop(
          L,
          binop('div', cv, num(32, pos), pos),
          (i) => op('sstore', [slot(i), word(a, i)], pos),
          (i) => op('sstore', [slot(i), headBytes(word(a, i), cv, pos)], pos),
          pos,
        );
  return withVar(loc, storageRef(L, n.args[0]!), withVar(arr, L.lower(arrayNode), withVar(c, count(a), body, pos), pos), pos);
}

function lowerLoad(L: Lowering, n: Ast): IR {
  const pos = n.pos;
  expectArgs(n, 2, 2);
  const kw = sizeKeyword(n.args[1]);
  if (kw === null) throw semanticError(n.args[1]!.pos, 'use load(loc, items=n) or load(loc, chars=n)');
  const loc = L.temp('loc');
  const c = L.temp('count');
  const out = L.temp('dst');
  const cv = get(c, pos);
  const o = get(out, pos);
  const cell = (i: IR): IR => add(o, mul(num(32, pos), i, pos), pos);
  const sl = (i: IR): IR => op('sload', [add(get(loc, pos), i, pos)], pos);
  const buffer = kw.unit === 'items' ? newBuffer(L, cv, (k) => mul(k, num(32, pos), pos), pos) : newBuffer(L, cv, (k) => k, pos);
  const fill =
    kw.unit === 'items'
      ? countLoop(
          L,
          cv,
          (i) => mstore(cell(i), sl(i), pos),
          () => null,
          pos,
        )
      : countLoop(
          L,
          binop('div', cv, num(32, pos), pos),
          (i) => mstore(cell(i), sl(i), pos),
          (i) => mstore(cell(i), headBytes(sl(i), cv, pos), pos),
          pos,
        );
  return withVar(loc, storageRef(L, n.args[0]!), withVar(c, L.lower(kw.count), withVar(out, buffer, seq([fill, o], pos), pos), pos), pos);
}

/** Slot number of a storage location used by save/load/ref. */
export function storageRef(L: Lowering, n: Node): IR {
  return L.lower({ type: 'ast', val: 'ref', args: [n], pos: n.pos });
}
