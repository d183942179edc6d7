// The expression grammar of one line: precedence climbing over the
// reference's operator table. All binary operators are left-associative,
// `==` binds like `&`, and `:` (type annotation) binds loosest.

import { ast, tok, type Node } from './ast.js';
import { LIMITS, syntaxError, type Pos } from './errors.js';
import type { LexToken } from './lexer.js';
import { own } from './own.js';

const BINARY: Readonly<Record<string, number>> = {
  '^': 2,
  '**': 2,
  '*': 3,
  '/': 3,
  '%': 3,
  '+': 4,
  '-': 4,
  '<': 5,
  '>': 5,
  '<=': 5,
  '>=': 5,
  '&': 6,
  '|': 6,
  xor: 6,
  '==': 6,
  '!=': 6,
  '&&': 7,
  and: 7,
  '||': 8,
  or: 8,
  '=': 10,
  '+=': 10,
  '-=': 10,
  '*=': 10,
  '/=': 10,
  '%=': 10,
  '^=': 10,
  ':': 11,
};
export const LOOSEST = 11;
/** Conditions and headers stop before a top-level ':'. */
export const NO_COLON = 10;
const PREC_ADDITIVE = 4;

/** Keywords that can never be names; `data`, `type` etc. are kwargs in log(...). */
export const NOT_A_NAME = new Set(['if', 'elif', 'else', 'while', 'def', 'with', 'return', 'assert']);
/** `if(c, a, b)`, `with(x, v, body)` ... are ordinary calls in the reference. */
export const CALL_FORMS = new Set(['if', 'elif', 'while', 'with', 'assert']);
const WORD_OPERATORS = new Set(['and', 'or', 'xor', 'not']);

/** Token cursor plus the expression grammar for one line. */
export class LineParser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: readonly LexToken[]) {}

  peek(): LexToken | undefined {
    return this.tokens[this.index];
  }

  atEnd(): boolean {
    return this.index >= this.tokens.length;
  }

  rest(): readonly LexToken[] {
    return this.tokens.slice(this.index);
  }

  endPos(): Pos {
    const last = this.tokens[this.tokens.length - 1]!;
    return { line: last.pos.line, column: last.pos.column + last.text.length };
  }

  next(): LexToken {
    const t = this.tokens[this.index];
    if (t === undefined) throw syntaxError(this.endPos(), 'unexpected end of line');
    this.index++;
    return t;
  }

  peekOp(text: string): boolean {
    const t = this.peek();
    return t !== undefined && t.kind === 'op' && t.text === text;
  }

  peekIdent(text: string): boolean {
    const t = this.peek();
    return t !== undefined && t.kind === 'ident' && t.text === text;
  }

  private describe(t: LexToken | undefined): string {
    return t === undefined ? 'end of line' : `'${t.text}'`;
  }

  private here(): Pos {
    return this.peek()?.pos ?? this.endPos();
  }

  expectOp(text: string, message: string): LexToken {
    if (!this.peekOp(text)) throw syntaxError(this.here(), `${message}, found ${this.describe(this.peek())}`);
    return this.next();
  }

  expectEnd(): void {
    if (!this.atEnd()) throw syntaxError(this.here(), `unexpected ${this.describe(this.peek())}`);
  }

  ident(message: string): Node {
    const t = this.peek();
    if (t === undefined || t.kind !== 'ident' || NOT_A_NAME.has(t.text) || WORD_OPERATORS.has(t.text)) {
      throw syntaxError(this.here(), `${message}, found ${this.describe(t)}`);
    }
    this.next();
    return tok(t.text, t.pos);
  }

  /** `name` or `name(arg, ...)` as used by def and event. */
  functionHead(): Node {
    const name = this.ident('expected a name');
    if (!this.peekOp('(')) return name;
    const open = this.next();
    const args = this.args(')', open);
    return ast(name.val, args, name.pos);
  }

  /** `return(x)`, `return(x, items=n)` or `return x`. */
  returnArgs(): Node[] {
    if (this.peekOp('(') && this.matchingClose(this.index) === this.tokens.length - 1) {
      const open = this.next();
      const args = this.args(')', open);
      if (args.length === 0) throw syntaxError(open.pos, "expected a value inside 'return(...)'");
      return args;
    }
    if (this.atEnd()) throw syntaxError(this.endPos(), "expected a value after 'return'");
    const args = [this.expr(LOOSEST)];
    while (this.peekOp(',')) {
      this.next();
      args.push(this.expr(LOOSEST));
    }
    this.expectEnd();
    return args;
  }

  /** Is the line `name(...)` with nothing after the closing parenthesis? */
  isWholeCall(): boolean {
    const open = this.tokens[this.index + 1];
    return open !== undefined && open.kind === 'op' && open.text === '(' && this.matchingClose(this.index + 1) === this.tokens.length - 1;
  }

  private matchingClose(open: number): number {
    let level = 0;
    for (let i = open; i < this.tokens.length; i++) {
      const t = this.tokens[i]!;
      if (t.kind !== 'op') continue;
      if (t.text === '(' || t.text === '[') level++;
      else if (t.text === ')' || t.text === ']') {
        level--;
        if (level === 0) return i;
      }
    }
    return -1;
  }

  private enter(pos: Pos): void {
    if (++this.depth > LIMITS.exprDepth) throw syntaxError(pos, 'expression is nested too deeply');
  }

  /** Parses operators whose precedence number is at most `limit`. */
  expr(limit: number): Node {
    this.enter(this.here());
    let lhs = this.prefix();
    for (;;) {
      const t = this.peek();
      if (t === undefined) break;
      const isOp = t.kind === 'op' || (t.kind === 'ident' && (t.text === 'and' || t.text === 'or' || t.text === 'xor'));
      const prec = isOp ? own(BINARY, t.text) : undefined;
      if (prec === undefined || prec > limit) break;
      this.next();
      const rhs = this.expr(prec - 1);
      lhs = ast(t.text, [lhs, rhs], t.pos);
    }
    this.depth--;
    return lhs;
  }

  private prefix(): Node {
    const t = this.peek();
    if (t !== undefined && t.kind === 'op' && t.text === '-') {
      this.next();
      // Unary minus is `0 - x`, with x binding like the right side of `-`.
      const operand = this.expr(PREC_ADDITIVE - 1);
      return ast('-', [tok('0', t.pos), operand], t.pos);
    }
    if (t !== undefined && ((t.kind === 'op' && t.text === '!') || (t.kind === 'ident' && (t.text === 'not' || t.text === '~')))) {
      this.next();
      const operand = this.expr(0);
      return ast(t.text, [operand], t.pos);
    }
    return this.postfix();
  }

  private postfix(): Node {
    let base = this.primary();
    for (;;) {
      if (this.peekOp('(')) {
        const open = this.next();
        const args = this.args(')', open);
        if (base.type === 'token') {
          if (!/^[A-Za-z_$@~]/.test(base.val)) throw syntaxError(open.pos, `cannot call ${base.val}`);
          base = ast(base.val, args, base.pos);
        } else {
          base = ast('fun', [base, ...args], base.pos);
        }
      } else if (this.peekOp('[')) {
        const open = this.next();
        base = ast('access', [base, ...this.args(']', open)], open.pos);
      } else if (this.peekOp('.')) {
        this.next();
        const member = this.ident("expected a member name after '.'");
        base = ast('.', [base, member], member.pos);
      } else if (this.peekOp('::')) {
        throw syntaxError(this.here(), "'::' signatures are not supported");
      } else {
        return base;
      }
    }
  }

  private primary(): Node {
    const t = this.peek();
    if (t === undefined) throw syntaxError(this.endPos(), 'expected an expression, found end of line');
    switch (t.kind) {
      case 'number':
      case 'string':
        this.next();
        return tok(t.text, t.pos);
      case 'ident':
        if ((NOT_A_NAME.has(t.text) && !(CALL_FORMS.has(t.text) && this.tokens[this.index + 1]?.text === '(')) || WORD_OPERATORS.has(t.text)) {
          throw syntaxError(t.pos, `unexpected keyword '${t.text}'`);
        }
        this.next();
        return tok(t.text, t.pos);
      case 'op':
        if (t.text === '(') {
          this.next();
          const inner = this.args(')', t);
          if (inner.length !== 1) {
            throw syntaxError(t.pos, inner.length === 0 ? 'empty parentheses' : 'tuples are not supported');
          }
          return inner[0]!;
        }
        if (t.text === '[') {
          this.next();
          return ast('array_lit', this.args(']', t), t.pos);
        }
        throw syntaxError(t.pos, `expected an expression, found '${t.text}'`);
    }
  }

  /** Comma-separated expressions up to `close`; the opener is consumed. */
  private args(close: string, open: LexToken): Node[] {
    this.enter(open.pos);
    const out: Node[] = [];
    if (this.peekOp(close)) {
      this.next();
      this.depth--;
      return out;
    }
    for (;;) {
      out.push(this.expr(LOOSEST));
      if (this.peekOp(',')) {
        this.next();
        continue;
      }
      if (this.peekOp(close)) {
        this.next();
        break;
      }
      throw syntaxError(this.here(), `expected ',' or '${close}', found ${this.describe(this.peek())}`);
    }
    this.depth--;
    return out;
  }
}
