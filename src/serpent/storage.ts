// Storage layout of `data` declarations, following the reference compiler:
// finite objects are packed into consecutive slots (row-major, struct fields
// in declaration order); any object whose size exceeds 2^176 is "infinite"
// and its elements live at sha3 of the list of indices along the access path.

import { isToken, show, tok, type Node } from './ast.js';
import { semanticError, type Pos } from './errors.js';
import { literalValue, MAX_WORD } from './literals.js';

const INFINITE_THRESHOLD = 1n << 176n;

export interface StorageLayout {
  /** Slot offset of each path ("campaigns.contribs.sender") in its parent. */
  readonly offsets: Map<string, bigint>;
  /** Element size, then the size of each array dimension cumulated (innermost first). */
  readonly coefficients: Map<string, bigint[]>;
  /** Position of the path among its siblings (used for hashed layouts). */
  readonly indices: Map<string, number>;
  /** Struct paths, which cannot be read as a single slot. */
  readonly structs: Set<string>;
}

export function emptyLayout(): StorageLayout {
  return { offsets: new Map(), coefficients: new Map(), indices: new Map(), structs: new Set() };
}

/** Adds one top-level `data` declaration; returns nothing, mutates layout. */
export function declareData(layout: StorageLayout, decl: Node, index: number, next: { offset: bigint }): void {
  next.offset = declare(layout, decl, '', index, next.offset);
}

/** Returns the parent's running offset after placing `node`. */
function declare(layout: StorageLayout, node: Node, prefix: string, index: number, globalOffset: bigint): bigint {
  let name: string;
  let dims: Node[];
  let coefficients: bigint[];
  if (node.type === 'token' || node.val === 'access') {
    ({ name, dims } = nameAndDims(node));
    coefficients = [1n];
  } else {
    const fields = node.val === 'fun' ? node.args.slice(1) : node.args;
    ({ name, dims } = nameAndDims(node.val === 'fun' ? node.args[0]! : tok(node.val, node.pos)));
    if (fields.length === 0) throw semanticError(node.pos, `struct '${name}' needs at least one field`);
    let inner = 0n;
    fields.forEach((f, i) => {
      inner = declare(layout, f, `${prefix}${name}.`, i, inner);
    });
    coefficients = [inner];
    layout.structs.add(prefix + name);
  }
  for (let i = dims.length - 1; i >= 0; i--) {
    coefficients.push(coefficients[coefficients.length - 1]! * arraySize(dims[i]!));
  }
  const key = prefix + name;
  if (layout.offsets.has(key)) throw semanticError(node.pos, `storage variable '${key}' is declared twice`);
  layout.coefficients.set(key, coefficients);
  layout.offsets.set(key, globalOffset);
  layout.indices.set(key, index);
  const size = coefficients[coefficients.length - 1]!;
  return size < INFINITE_THRESHOLD ? globalOffset + size : globalOffset;
}

/** `x[a][b]` -> name x, dims [a, b]; `x[]` has an unbounded dimension. */
function nameAndDims(node: Node): { name: string; dims: Node[] } {
  const dims: Node[] = [];
  let cur = node;
  while (cur.type === 'ast') {
    if (cur.val !== 'access' || cur.args.length === 0 || cur.args.length > 2) {
      throw semanticError(cur.pos, `invalid data declaration: ${show(cur)}`);
    }
    dims.unshift(cur.args.length === 1 ? tok(MAX_WORD.toString(), cur.pos) : cur.args[1]!);
    cur = cur.args[0]!;
  }
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(cur.val)) throw semanticError(cur.pos, `invalid storage variable name '${cur.val}'`);
  return { name: cur.val, dims };
}

/** Array sizes must be compile-time arithmetic (exact, not wrapped). */
function arraySize(n: Node): bigint {
  const v = constValue(n, 0);
  if (v === null) throw semanticError(n.pos, 'array size must be a constant expression');
  return v;
}

function constValue(n: Node, depth: number): bigint | null {
  if (depth > 50) return null;
  if (n.type === 'token') return literalValue(n.val, n.pos);
  if (n.args.length !== 2) return null;
  const a = constValue(n.args[0]!, depth + 1);
  const b = constValue(n.args[1]!, depth + 1);
  if (a === null || b === null) return null;
  switch (n.val) {
    case '+':
    case 'add':
      return a + b;
    case '*':
    case 'mul':
      return a * b;
    case '-':
    case 'sub':
      return a >= b ? a - b : null;
    case '/':
    case 'div':
    case 'sdiv':
      return b === 0n ? null : a / b;
    case '%':
    case 'mod':
    case 'smod':
      return b === 0n ? null : a % b;
    case '^':
    case '**':
    case 'exp':
      return b > 1024n ? null : a ** b;
    default:
      return null;
  }
}

/** One step of an access path below `self`. */
type Step = { member: string; pos: Pos } | { index: Node };

/** Is this `self.x...` / `self.x[i]...` (rooted at self)? */
export function isStorageAccess(n: Node): boolean {
  let cur = n;
  while (cur.type === 'ast' && (cur.val === '.' || cur.val === 'access') && cur.args.length > 0) {
    if (isToken(cur.args[0]!, 'self')) return true;
    cur = cur.args[0]!;
  }
  return false;
}

function steps(n: Node): Step[] {
  const out: Step[] = [];
  let cur = n;
  while (cur.type === 'ast') {
    if (cur.val === '.') {
      out.unshift({ member: cur.args[1]!.val, pos: cur.args[1]!.pos });
    } else {
      if (cur.args.length !== 2) throw semanticError(cur.pos, 'storage arrays take exactly one index per []');
      out.unshift({ index: cur.args[1]! });
    }
    cur = cur.args[0]!;
  }
  return out;
}

/** Finite slot: base + sum(index * coefficient). Hashed: sha3 of terms. */
export type StorageSlot = { kind: 'finite'; base: bigint; terms: { index: Node; coefficient: bigint }[] } | { kind: 'hashed'; terms: (Node | bigint)[] };

/**
 * Resolves a storage access path to its slot, or null when the path does not
 * name a declared variable (the caller then tries `self.storage`, `.balance`).
 */
export function resolveStorage(layout: StorageLayout, node: Node): StorageSlot | null {
  const path = steps(node);
  return resolve(layout, node, path, false);
}

function resolve(layout: StorageLayout, node: Node, path: Step[], hashed: boolean): StorageSlot | null {
  let prefix = '';
  let key = '';
  let base = 0n;
  let coefficients: bigint[] = [0n];
  let c = 0;
  const finiteTerms: { index: Node; coefficient: bigint }[] = [];
  const hashTerms: (Node | bigint)[] = [];
  for (const step of path) {
    if ('member' in step) {
      prefix += step.member + '.';
      key = prefix.slice(0, -1);
      const offset = layout.offsets.get(key);
      if (offset === undefined) return null;
      if (c < coefficients.length - 1) throw semanticError(step.pos, 'too few array index lookups');
      if (c > coefficients.length - 1) throw semanticError(step.pos, 'too many array index lookups');
      coefficients = layout.coefficients.get(key)!;
      if (!hashed && coefficients[coefficients.length - 1]! >= INFINITE_THRESHOLD) {
        return resolve(layout, node, path, true);
      }
      base += offset;
      c = 0;
      if (hashed) hashTerms.push(BigInt(layout.indices.get(key)!));
    } else if (hashed) {
      hashTerms.push(step.index);
      c++;
    } else {
      if (c > coefficients.length - 2) throw semanticError(step.index.pos, 'too many array index lookups');
      finiteTerms.push({ index: step.index, coefficient: coefficients[coefficients.length - 2 - c]! });
      c++;
    }
  }
  if (layout.structs.has(key)) throw semanticError(node.pos, `storage variable access not deep enough ('${key}' is a struct)`);
  if (c < coefficients.length - 1) throw semanticError(node.pos, 'too few array index lookups');
  if (c > coefficients.length - 1) throw semanticError(node.pos, 'too many array index lookups');
  return hashed ? { kind: 'hashed', terms: hashTerms } : { kind: 'finite', base, terms: finiteTerms };
}
