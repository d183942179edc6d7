// Top-level structure: collects functions, events, externs, macros, types and
// storage declarations, and assembles the creation program:
//   shared; init; return(0, copy-runtime-to-memory-0)
// where the runtime dispatches on the 4-byte selector like the reference:
//   with %funid = calldataload(0) / 2^224: shared; top-level code; functions...

import { ast, isAst, isToken, tok, type Ast, type Node } from './ast.js';
import { argKind, selectorOf, signatureOf } from './abi.js';
import { declareType, eventInfo, externInfo, paramName, paramType } from './declarations.js';
import { LIMITS, semanticError, type Pos } from './errors.js';
import { collectMacro, type MacroRule } from './macros.js';
import { declareData, emptyLayout, type StorageLayout } from './storage.js';

export interface FunctionInfo {
  readonly name: string;
  readonly argNames: readonly string[];
  readonly argTypes: readonly string[];
  readonly signature: string;
  readonly selector: number;
  /** '' when not inferable, '_' for no return value. */
  readonly outType: string;
  readonly constant: boolean;
  readonly pos: Pos;
}

export interface EventInfo {
  readonly name: string;
  readonly argNames: readonly string[];
  readonly argTypes: readonly string[];
  readonly indexed: readonly boolean[];
  readonly signature: string;
  readonly topic: bigint;
}

export interface ExternInfo {
  readonly name: string;
  readonly argTypes: readonly string[];
  readonly outType: string;
  readonly selector: number;
  readonly ambiguous: boolean;
}

export interface ProgramInfo {
  readonly functions: readonly FunctionInfo[];
  readonly interns: ReadonlyMap<string, FunctionInfo>;
  readonly events: ReadonlyMap<string, EventInfo>;
  readonly externs: ReadonlyMap<string, ExternInfo>;
  readonly macros: readonly MacroRule[];
  readonly types: ReadonlyMap<string, string>;
  readonly prefixTypes: ReadonlyMap<string, string>;
  readonly storage: StorageLayout;
}

export interface Preprocessed {
  readonly info: ProgramInfo;
  /** The creation program, containing the runtime under `(%runtime ...)`. */
  readonly tree: Node;
}

const SPECIAL_FUNCTIONS = new Set(['init', 'shared', 'any', 'finally']);

export function preprocess(program: Ast): Preprocessed {
  const pos = program.pos;
  const functions: FunctionInfo[] = [];
  const interns = new Map<string, FunctionInfo>();
  const events = new Map<string, EventInfo>();
  const externs = new Map<string, ExternInfo>();
  const macros: MacroRule[] = [];
  const types = new Map<string, string>();
  const prefixTypes = new Map<string, string>();
  const storage = emptyLayout();
  const dataCursor = { offset: 0n };
  let dataCount = 0;
  const selectorsUsed = new Map<number, string>();

  let init: Node | null = null;
  let shared: Node | null = null;
  const any: Node[] = [];
  const fin: Node[] = [];
  const dispatch: Node[] = [];

  for (const stmt of program.args) {
    if (stmt.type !== 'ast') {
      any.push(stmt);
      continue;
    }
    switch (stmt.val) {
      case 'def': {
        const constant = isToken(stmt.args[0]!, 'const');
        const head = stmt.args[constant ? 1 : 0]!;
        const body = stmt.args[constant ? 2 : 1]!;
        const name = head.val;
        const params = head.type === 'ast' ? head.args : [];
        if (SPECIAL_FUNCTIONS.has(name)) {
          if (params.length > 0) throw semanticError(head.pos, `${name}() cannot have arguments`);
          if (name === 'init') {
            if (init !== null) throw semanticError(head.pos, 'init() is defined twice');
            init = body;
          } else if (name === 'shared') {
            if (shared !== null) throw semanticError(head.pos, 'shared() is defined twice');
            shared = body;
          } else if (name === 'any') any.push(body);
          else fin.push(body);
          break;
        }
        const argNames = params.map(paramName);
        const argTypes = params.map(paramType);
        const signature = signatureOf(name, argTypes);
        const selector = selectorOf(signature);
        if (interns.has(name)) throw semanticError(head.pos, `function '${name}' is defined twice`);
        const clash = selectorsUsed.get(selector);
        if (clash !== undefined) throw semanticError(head.pos, `selector of '${name}' collides with '${clash}'`);
        selectorsUsed.set(selector, name);
        const info: FunctionInfo = { name, argNames, argTypes, signature, selector, outType: inferReturnType(body), constant, pos: head.pos };
        functions.push(info);
        interns.set(name, info);
        dispatch.push(functionNode(info, params, body));
        break;
      }
      case 'event': {
        const ev = eventInfo(stmt.args[0]!);
        if (events.has(ev.name)) throw semanticError(stmt.pos, `event '${ev.name}' is declared twice`);
        events.set(ev.name, ev);
        break;
      }
      case 'extern': {
        const list = stmt.args[1]!;
        for (const sig of list.type === 'ast' ? list.args : []) {
          const ex = externInfo(sig);
          const prev = externs.get(ex.name);
          externs.set(ex.name, prev !== undefined && prev.selector !== ex.selector ? { ...prev, ambiguous: true } : ex);
        }
        break;
      }
      case 'macro':
      case 'fun':
        if (stmt.val === 'fun' && !isAst(stmt.args[0]!, 'macro')) {
          any.push(stmt);
          break;
        }
        macros.push(collectMacro(stmt));
        break;
      case 'type':
        declareType(stmt, types, prefixTypes);
        break;
      case 'data':
        declareData(storage, stmt.args[0]!, dataCount++, dataCursor);
        break;
      default:
        any.push(stmt);
    }
  }

  const runtimeItems: Node[] = [...(shared ? [shared] : []), ...any, ...dispatch, ...fin];
  const runtimeSeq = ast('seq', runtimeItems, pos);
  const runtime =
    dispatch.length > 0
      ? ast(
          'with',
          [tok('%funid', pos), ast('div', [ast('calldataload', [num(0, pos)], pos), ast('exp', [num(2, pos), num(224, pos)], pos)], pos), runtimeSeq],
          pos,
        )
      : runtimeSeq;
  const main: Node[] = [];
  if (shared) main.push(shared);
  if (init) main.push(init);
  main.push(ast('~return', [num(0, pos), ast('%runtime', [runtime], pos)], pos));
  return {
    info: { functions, interns, events, externs, macros, types, prefixTypes, storage },
    tree: ast('seq', main, pos),
  };
}

function num(n: number, pos: Pos): Node {
  return tok(String(n), pos);
}

/** `(if (eq %funid selector) (seq unpack-arguments body))`. */
function functionNode(info: FunctionInfo, params: readonly Node[], body: Node): Node {
  const pos = body.pos;
  const nameNodes = params.map((p) => (isAst(p, ':', 2) ? p.args[0]! : p));
  const kinds = info.argTypes.map(argKind);
  const load = (i: number): Node => ast('calldataload', [num(4 + 32 * i, pos)], pos);
  let unpack: Node;
  if (kinds.every((k) => k === 'static')) {
    unpack = ast(
      'seq',
      nameNodes.map((n, i) => ast('set', [n, load(i)], n.pos)),
      pos,
    );
  } else {
    // Dynamic arguments point into a memory copy of the calldata (past the
    // length word), the in-memory array layout Serpent uses everywhere.
    const input = tok('%inputdata', pos);
    const size = ast('calldatasize', [], pos);
    const sets = nameNodes.map((n, i) =>
      ast('set', [n, kinds[i] === 'static' ? load(i) : ast('add', [ast('add', [input, num(32, pos)], pos), load(i)], pos)], n.pos),
    );
    unpack = ast('with', [input, ast('alloc', [size], pos), ast('seq', [ast('calldatacopy', [input, num(4, pos), size], pos), ...sets], pos)], pos);
  }
  const test = ast('eq', [tok('%funid', pos), tok(String(info.selector), pos)], pos);
  return ast('if', [test, ast('seq', [unpack, body], pos)], pos);
}

/** Output type from the function's return statements (reference rules). */
export function inferReturnType(body: Node): string {
  const walk = (n: Node, depth: number): string => {
    if (n.type === 'token') return 'void';
    if (depth > LIMITS.treeDepth) return 'unknown';
    if (n.val === '~return') return 'unknown';
    let cur = 'void';
    if (n.val === 'return') cur = returnType(n);
    for (const a of n.args) {
      const t = walk(a, depth + 1);
      if (t === 'unknown' || t === 'inconsistent') return t;
      if (cur === 'void') cur = t;
      else if (t !== 'void' && t !== cur) return 'inconsistent';
    }
    return cur;
  };
  const t = walk(body, 0);
  return t === 'unknown' || t === 'inconsistent' ? '' : t === 'void' ? '_' : t;
}

function returnType(n: Ast): string {
  const a = n.args[0];
  if (a === undefined) return 'void';
  if (isAst(a, ':', 2)) {
    const t = a.args[1]!;
    if (isAst(t, 'access', 1)) return `${t.args[0]!.val}[]`;
    if (t.type === 'ast') return 'unknown';
    return t.val === 'arr' ? 'int256[]' : t.val === 'str' ? 'bytes' : t.val;
  }
  if (n.args.length === 1) return 'int256';
  const kw = n.args[1]!;
  if (isAst(kw, '=', 2) && isToken(kw.args[0]!, 'items')) return 'int256[]';
  if (isAst(kw, '=', 2) && isToken(kw.args[0]!, 'chars')) return 'bytes';
  return 'unknown';
}
