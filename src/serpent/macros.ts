// User macros and variable types. A macro is a rewrite rule `pattern -> body`
// over the generic tree: `$name` in a pattern binds any subtree, and a `$name`
// in the body that the pattern did not bind becomes a fresh hidden variable.
// Rules run before the built-in lowering, lowest priority number first, each
// group to a fixpoint (like the reference). A work budget stops runaway
// expansion. `type t: [a, b]` wraps every use of a/b as t(a)/t(b) so macros
// can dispatch on it.

import { ast, isAst, show, tok, type Ast, type Node } from './ast.js';
import { LIMITS, semanticError, type Pos } from './errors.js';
import { literalValue } from './literals.js';
import { isOpcodeName } from './opcodes.js';

export interface MacroRule {
  readonly pattern: Node;
  readonly body: Node;
  readonly priority: number;
}

/** Forms the lowering gives fixed meaning; macros may not redefine them. */
const BUILTIN_FORMS = new Set([
  'if',
  'unless',
  'while',
  'until',
  'alloc',
  'array',
  'call',
  'callcode',
  'create',
  'getch',
  'setch',
  'sha3',
  'return',
  'inset',
  'min',
  'max',
  'array_lit',
  'seq',
  'log',
  'outer',
  'set',
  'get',
  'ref',
  'declare',
  'with',
  'mcopy',
  'save',
  'load',
]);

const reserved = (name: string): boolean => BUILTIN_FORMS.has(name) || isOpcodeName(name);

/** `(macro pattern body)` or `(fun (macro priority) pattern body)`. */
export function collectMacro(stmt: Ast): MacroRule {
  let pattern: Node;
  let body: Node;
  let priority = 0;
  if (stmt.val === 'macro') {
    pattern = stmt.args[0]!;
    body = stmt.args[1]!;
  } else {
    const p = stmt.args[0]! as Ast;
    pattern = stmt.args[1]!;
    body = stmt.args[2]!;
    const v = literalValue(p.args[0]!.val, p.args[0]!.pos);
    if (v === null || v > 1000n) throw semanticError(p.pos, 'macro priority must be a number up to 1000');
    priority = Number(v);
  }
  const ok =
    !reserved(pattern.val) ||
    ((pattern.val === 'set' || pattern.val === 'with') && pattern.type === 'ast' && pattern.args.length > 0 && !reserved(pattern.args[0]!.val));
  if (!ok) throw semanticError(pattern.pos, `macro cannot redefine built-in '${pattern.val}': ${show(pattern)}`);
  return { pattern, body, priority };
}

/** Wraps typed variables: `a` -> `(t a)` for `type t: [a]` or a name prefix. */
export function applyTypes(tree: Node, types: ReadonlyMap<string, string>, prefixes: ReadonlyMap<string, string>): Node {
  if (types.size === 0 && prefixes.size === 0) return tree;
  const walk = (n: Node, depth: number): Node => {
    if (depth > LIMITS.treeDepth) throw semanticError(n.pos, 'program is nested too deeply');
    if (n.type === 'token') {
      const t = types.get(n.val) ?? prefixType(n.val, prefixes);
      return t === undefined ? n : ast(t, [n], n.pos);
    }
    if (n.val === 'untyped' && n.args.length === 1) return n.args[0]!;
    if (n.val === 'outer') return n;
    return ast(
      n.val,
      n.args.map((a) => walk(a, depth + 1)),
      n.pos,
    );
  };
  return walk(tree, 0);
}

function prefixType(name: string, prefixes: ReadonlyMap<string, string>): string | undefined {
  for (let i = name.length - 1; i >= 1; i--) {
    const t = prefixes.get(name.slice(0, i));
    if (t !== undefined) return t;
  }
  return undefined;
}

type Bindings = Map<string, Node>;

function match(p: Node, n: Node, out: Bindings): boolean {
  if (p.type === 'token') {
    if (n.type === 'token' && p.val === n.val) return true;
    if (p.val[0] === '$' || p.val[0] === '@') {
      out.set(p.val.slice(1), n);
      return true;
    }
    return false;
  }
  if (n.type !== 'ast' || p.val !== n.val || p.args.length !== n.args.length) return false;
  for (let i = 0; i < p.args.length; i++) if (!match(p.args[i]!, n.args[i]!, out)) return false;
  return true;
}

export class MacroExpander {
  private work = 0;
  private gensym = 0;
  private readonly groups: { priority: number; rules: Map<string, MacroRule[]> }[] = [];

  constructor(rules: readonly MacroRule[]) {
    const priorities = [...new Set(rules.map((r) => r.priority))].sort((a, b) => a - b);
    for (const priority of priorities) {
      const byHead = new Map<string, MacroRule[]>();
      for (const r of rules) {
        if (r.priority !== priority) continue;
        const list = byHead.get(r.pattern.val) ?? [];
        list.push(r);
        byHead.set(r.pattern.val, list);
      }
      this.groups.push({ priority, rules: byHead });
    }
  }

  expand(tree: Node): Node {
    let cur = tree;
    for (const g of this.groups) {
      for (;;) {
        const next = this.pass(cur, g.rules, 0);
        if (next === cur) break;
        cur = next;
      }
    }
    return cur;
  }

  private charge(n: number, pos: Pos): void {
    this.work += n;
    if (this.work > LIMITS.macroWork) throw semanticError(pos, 'macro expansion does not terminate or grows too large');
  }

  /** One top-down rewrite pass; returns the same object when nothing changed. */
  private pass(n: Node, rules: Map<string, MacroRule[]>, depth: number): Node {
    this.charge(1, n.pos);
    if (depth > LIMITS.treeDepth) throw semanticError(n.pos, 'macro expansion is nested too deeply');
    if (n.type === 'ast' && (n.val === 'macro' || n.val === 'comment' || n.val === 'outer')) return n;
    const node = this.rewriteAt(n, rules);
    if (node.type === 'token') return node;
    let changed = node !== n;
    const args = node.args.map((a) => {
      const b = this.pass(a, rules, depth + 1);
      if (b !== a) changed = true;
      return b;
    });
    return changed ? ast(node.val, args, node.pos) : n;
  }

  private rewriteAt(n: Node, rules: Map<string, MacroRule[]>): Node {
    let cur = n;
    for (;;) {
      const list = rules.get(cur.val);
      if (list === undefined) return cur;
      let applied = false;
      for (const rule of list) {
        const b: Bindings = new Map();
        if (!match(rule.pattern, cur, b)) continue;
        cur = this.subst(rule.body, b, `%m${++this.gensym}.`, cur.pos, 0);
        if (isAst(cur, 'error')) {
          const msg = cur.args[0];
          throw semanticError(cur.pos, msg !== undefined && msg.type === 'token' ? msg.val.replace(/^["']|["']$/g, '') : 'macro error');
        }
        applied = true;
        break;
      }
      if (!applied) return cur;
    }
  }

  private subst(body: Node, b: Bindings, fresh: string, pos: Pos, depth: number): Node {
    this.charge(1, pos);
    if (depth > LIMITS.treeDepth) throw semanticError(pos, 'macro expansion is nested too deeply');
    if (body.type === 'token') {
      if (body.val[0] !== '$') return tok(body.val, pos);
      return b.get(body.val.slice(1)) ?? tok(fresh + body.val.slice(1), pos);
    }
    return ast(
      body.val,
      body.args.map((a) => this.subst(a, b, fresh, pos, depth + 1)),
      pos,
    );
  }
}
