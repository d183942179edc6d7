// Source text -> generic tree. Block structure comes from indentation; each
// line is one statement (keyword forms here, expressions in expressions.ts).

import { ast, tok, type Ast, type Node } from './ast.js';
import { LIMITS, semanticError, syntaxError, type Pos } from './errors.js';
import { CALL_FORMS, LineParser, LOOSEST, NO_COLON } from './expressions.js';
import { lex, type LexToken, type SourceLine } from './lexer.js';
import { own } from './own.js';

export interface ParseOptions {
  /** Sources that `inset("name")` may splice in. */
  readonly files?: Readonly<Record<string, string>>;
}

const STATEMENT_KEYWORDS = new Set(['if', 'elif', 'else', 'while', 'def', 'with', 'data', 'extern', 'event', 'macro', 'type', 'return', 'assert']);
const TOP_LEVEL_ONLY = new Set(['def', 'data', 'extern', 'event', 'macro', 'type']);

/** Like the reference, `data = 1` or `type[0]` use these words as plain names. */
const DECLARATIONS = new Set(['data', 'type', 'event', 'extern', 'macro']);
const NAME_USE = new Set(['=', '+=', '-=', '*=', '/=', '%=', '^=', '[', '.']);

/** Parses a whole program into `(seq statement...)`. */
export function parseProgram(source: string, options: ParseOptions = {}): Ast {
  return parseFile(source, options, 0);
}

function parseFile(source: string, options: ParseOptions, insetDepth: number): Ast {
  const lines = lex(source);
  const start: Pos = lines.length > 0 ? lines[0]!.tokens[0]!.pos : { line: 1, column: 1 };
  if (lines.length === 0) return ast('seq', [], start);
  const ctx: BlockContext = { options, insetDepth };
  const stmts = parseBlock(lines, 0, 0, ctx);
  return ast('seq', stmts, start);
}

interface BlockContext {
  readonly options: ParseOptions;
  readonly insetDepth: number;
}

/** Parses lines that all sit at `indent`; returns the statements. */
function parseBlock(lines: readonly SourceLine[], indent: number, depth: number, ctx: BlockContext): Node[] {
  if (depth > LIMITS.blockDepth) throw syntaxError(lines[0]!.tokens[0]!.pos, 'blocks are nested too deeply');
  const stmts: Node[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.indent !== indent) {
      throw syntaxError(line.tokens[0]!.pos, depth === 0 ? 'unexpected indentation' : 'indentation does not match the enclosing block');
    }
    let j = i + 1;
    while (j < lines.length && lines[j]!.indent > indent) j++;
    const stmt = parseStatement(line.tokens, lines.slice(i + 1, j), depth, ctx);
    if (stmt.type === 'ast' && isInset(stmt)) {
      if (depth !== 0) throw syntaxError(stmt.pos, 'inset(...) is only supported at the top level');
      stmts.push(...insetFile(stmt, ctx));
    } else if (stmt.type === 'ast' && (stmt.val === 'elif' || stmt.val === 'else')) {
      const prev = stmts[stmts.length - 1];
      if (prev === undefined || prev.type !== 'ast' || prev.val !== 'if') {
        throw syntaxError(stmt.pos, `'${stmt.val}' without a matching 'if'`);
      }
      stmts[stmts.length - 1] = appendToChain(prev, stmt);
    } else {
      stmts.push(stmt);
    }
    i = j;
  }
  return stmts;
}

function isInset(n: Ast): boolean {
  return n.val === 'inset' && n.args.length === 1 && n.args[0]!.type === 'token';
}

function insetFile(stmt: Ast, ctx: BlockContext): Node[] {
  const raw = stmt.args[0]!.val;
  const name = raw.length >= 2 && (raw[0] === '"' || raw[0] === "'") ? raw.slice(1, -1) : raw;
  const source = own(ctx.options.files, name);
  if (source === undefined) throw semanticError(stmt.pos, `inset: file '${name}' not found (provide it in options.files)`);
  if (ctx.insetDepth >= LIMITS.insetDepth) throw semanticError(stmt.pos, 'inset files are nested too deeply (cycle?)');
  try {
    return [...parseFile(source, ctx.options, ctx.insetDepth + 1).args];
  } catch (e) {
    if (e instanceof Error && e.name === 'SerpentError') {
      throw semanticError(stmt.pos, `in inset file '${name}': ${e.message}`);
    }
    throw e;
  }
}

/** Hooks `elif`/`else` onto the innermost open branch of an if-chain. */
function appendToChain(chain: Ast, branch: Ast): Ast {
  if (chain.args.length === 2) return ast(chain.val, [...chain.args, branch], chain.pos);
  const last = chain.args[2]!;
  if (last.type === 'ast' && last.val === 'elif') {
    return ast(chain.val, [chain.args[0]!, chain.args[1]!, appendToChain(last, branch)], chain.pos);
  }
  throw syntaxError(branch.pos, `'${branch.val}' after 'else'`);
}

function blockOf(stmts: Node[]): Node {
  return stmts.length === 1 ? stmts[0]! : ast('seq', stmts, stmts[0]!.pos);
}

function parseStatement(tokens: readonly LexToken[], child: readonly SourceLine[], depth: number, ctx: BlockContext): Ast | Node {
  const p = new LineParser(tokens);
  const first = p.peek()!;
  const second = tokens[1];
  const usedAsName =
    (DECLARATIONS.has(first.text) && second !== undefined && second.kind === 'op' && NAME_USE.has(second.text)) ||
    (CALL_FORMS.has(first.text) && p.isWholeCall());
  const kw = first.kind === 'ident' && STATEMENT_KEYWORDS.has(first.text) && !usedAsName ? first.text : null;
  if (kw !== null && depth > 0 && TOP_LEVEL_ONLY.has(kw)) {
    throw syntaxError(first.pos, `'${kw}' is only allowed at the top level`);
  }
  const noChild = (): void => {
    if (child.length > 0) throw syntaxError(child[0]!.tokens[0]!.pos, 'unexpected indented block');
  };
  /** `':' block` or `':' one-line-statement`. */
  const body = (what: string): Node => {
    p.expectOp(':', `expected ':' after ${what}`);
    if (p.atEnd()) {
      if (child.length === 0) throw syntaxError(p.endPos(), `expected an indented block after ':'`);
      let indent = Infinity;
      for (const l of child) indent = Math.min(indent, l.indent);
      return blockOf(parseBlock(child, indent, depth + 1, ctx));
    }
    noChild();
    return parseStatement(p.rest(), [], depth + 1, ctx);
  };

  switch (kw) {
    case 'if':
    case 'elif':
    case 'while': {
      p.next();
      const cond = p.expr(NO_COLON);
      return ast(kw, [cond, body(`'${kw}' condition`)], first.pos);
    }
    case 'else': {
      p.next();
      return ast('else', [body("'else'")], first.pos);
    }
    case 'def': {
      p.next();
      const args: Node[] = [];
      if (p.peekIdent('const')) args.push(tok('const', p.next().pos));
      args.push(p.functionHead());
      args.push(body('function parameters'));
      return ast('def', args, first.pos);
    }
    case 'with': {
      p.next();
      const binding = p.expr(NO_COLON);
      if (binding.type !== 'ast' || binding.val !== '=' || binding.args[0]!.type !== 'token') {
        throw syntaxError(binding.pos, "expected 'with name = value:'");
      }
      return ast('with', [binding, body("'with' binding")], first.pos);
    }
    case 'data': {
      p.next();
      const decl = p.expr(NO_COLON);
      p.expectEnd();
      noChild();
      return ast('data', [decl], first.pos);
    }
    case 'extern': {
      p.next();
      // The name is only a label; the reference allows file-like `a.b` names.
      let name = p.ident('expected a contract name after extern');
      while (p.peekOp('.')) {
        p.next();
        const part = p.ident("expected a name after '.'");
        name = tok(`${name.val}.${part.val}`, name.pos);
      }
      p.expectOp(':', "expected ':' after the extern name");
      const list = p.expr(LOOSEST);
      if (list.type !== 'ast' || list.val !== 'array_lit') {
        throw syntaxError(list.pos, "expected '[' with a list of function signatures");
      }
      p.expectEnd();
      noChild();
      return ast('extern', [name, list], first.pos);
    }
    case 'event': {
      p.next();
      const sig = p.functionHead();
      p.expectEnd();
      noChild();
      return ast('event', [sig], first.pos);
    }
    case 'macro': {
      p.next();
      let priority: Node | null = null;
      if (p.peekOp('(')) {
        p.next();
        const t = p.next();
        if (t.kind !== 'number') throw syntaxError(t.pos, 'expected a number as macro priority');
        priority = tok(t.text, t.pos);
        p.expectOp(')', "expected ')' after macro priority");
      }
      const pattern = p.expr(NO_COLON);
      const b = body('macro pattern');
      return priority === null ? ast('macro', [pattern, b], first.pos) : ast('fun', [ast('macro', [priority], first.pos), pattern, b], first.pos);
    }
    case 'type': {
      p.next();
      const name = p.ident('expected a type name');
      p.expectOp(':', "expected ':' after the type name");
      const rhs = p.expr(LOOSEST);
      p.expectEnd();
      noChild();
      return ast('type', [name, rhs], first.pos);
    }
    case 'return': {
      p.next();
      const args = p.returnArgs();
      noChild();
      return ast('return', args, first.pos);
    }
    case 'assert': {
      p.next();
      const e = p.expr(LOOSEST);
      p.expectEnd();
      noChild();
      return ast('assert', [e], first.pos);
    }
    default: {
      const e = p.expr(LOOSEST);
      p.expectEnd();
      noChild();
      return e;
    }
  }
}
