// The generic tree shared by the parser, the macro engine and the lowering
// pass. Serpent's user macros rewrite arbitrary trees, so statements and
// expressions use one uniform shape: a leaf `Token` or an `Ast` with a head
// name and arguments (an s-expression), each with the position it came from.

import type { Pos } from './errors.js';

export interface Token {
  readonly type: 'token';
  /** Identifier, number text, or string literal text including its quotes. */
  readonly val: string;
  readonly pos: Pos;
}

export interface Ast {
  readonly type: 'ast';
  readonly val: string;
  readonly args: readonly Node[];
  readonly pos: Pos;
}

export type Node = Token | Ast;

export function tok(val: string, pos: Pos): Token {
  return { type: 'token', val, pos };
}

export function ast(val: string, args: readonly Node[], pos: Pos): Ast {
  return { type: 'ast', val, args, pos };
}

// The guards below also test the head/arity, so a `false` result must not
// narrow a Node to "not a Token/Ast"; the phantom brand prevents that.
declare const matched: unique symbol;
type Matched = { readonly [matched]?: true };

export function isToken(n: Node, val?: string): n is Token & Matched {
  return n.type === 'token' && (val === undefined || n.val === val);
}

export function isAst(n: Node, val?: string, argc?: number): n is Ast & Matched {
  return n.type === 'ast' && (val === undefined || n.val === val) && (argc === undefined || n.args.length === argc);
}

/** Lisp-style rendering, used by tests and error messages. */
export function show(n: Node, budget = 200): string {
  const out: string[] = [];
  let left = budget;
  const walk = (m: Node): void => {
    if (left <= 0) return;
    if (m.type === 'token') {
      out.push(m.val);
      left -= m.val.length;
      return;
    }
    out.push('(' + m.val);
    left -= m.val.length + 1;
    for (const a of m.args) {
      out.push(' ');
      walk(a);
    }
    out.push(')');
  };
  walk(n);
  const s = out.join('');
  return left <= 0 ? s + '...' : s;
}

const IDENT = /^[A-Za-z_$@~][A-Za-z0-9_$@~]*$/;

export function isIdentifier(val: string): boolean {
  return IDENT.test(val);
}
