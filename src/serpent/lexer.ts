// Line-oriented tokenizer. Serpent is indentation-structured and every
// statement fits on one line, so the lexer hands the parser one token list per
// non-blank line together with that line's indentation.

import { LIMITS, syntaxError, type Pos } from './errors.js';
import { decodeStringLiteral } from './literals.js';

export type TokenKind = 'ident' | 'number' | 'string' | 'op';

export interface LexToken {
  readonly kind: TokenKind;
  /** Source text; string tokens keep their quotes. */
  readonly text: string;
  readonly pos: Pos;
}

export interface SourceLine {
  /** Count of leading blanks (a tab counts as one, like the reference). */
  readonly indent: number;
  readonly tokens: readonly LexToken[];
  readonly line: number;
}

// Longest operators first so maximal munch picks `**` over `*`.
const OPERATORS = [
  '**',
  '<=',
  '>=',
  '==',
  '!=',
  '&&',
  '||',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '^=',
  '::',
  '+',
  '-',
  '*',
  '/',
  '%',
  '^',
  '<',
  '>',
  '!',
  '&',
  '|',
  '=',
  ':',
  '.',
  ',',
  '(',
  ')',
  '[',
  ']',
];

const isIdentStart = (c: string): boolean => /[A-Za-z_$@~]/.test(c);
const isIdentChar = (c: string): boolean => /[A-Za-z0-9_$@~]/.test(c);
const isDigit = (c: string): boolean => c >= '0' && c <= '9';

export function lex(source: string): SourceLine[] {
  if (source.length > LIMITS.sourceChars) {
    throw syntaxError({ line: 1, column: 1 }, `source is too large (more than ${LIMITS.sourceChars} characters)`);
  }
  const out: SourceLine[] = [];
  const rawLines = source.split('\n');
  for (let i = 0; i < rawLines.length; i++) {
    const text = rawLines[i]!.endsWith('\r') ? rawLines[i]!.slice(0, -1) : rawLines[i]!;
    const lineNo = i + 1;
    if (text.length > LIMITS.lineChars) {
      throw syntaxError({ line: lineNo, column: 1 }, `line is too long (more than ${LIMITS.lineChars} characters)`);
    }
    const tokens = lexLine(text, lineNo);
    if (tokens.length > 0) {
      let indent = 0;
      while (indent < text.length && (text[indent] === ' ' || text[indent] === '\t')) indent++;
      out.push({ indent, tokens, line: lineNo });
    }
  }
  return out;
}

function lexLine(text: string, line: number): LexToken[] {
  const tokens: LexToken[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const pos = { line, column: i + 1 };
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      i++;
    } else if (c === '#' || (c === '/' && text[i + 1] === '/')) {
      break;
    } else if (isDigit(c)) {
      let j = i;
      while (j < text.length && isIdentChar(text[j]!)) j++;
      const word = text.slice(i, j);
      if (!/^(\d+|0[xX][0-9A-Fa-f]+)$/.test(word)) {
        throw syntaxError(pos, `invalid number literal '${word}'`);
      }
      tokens.push({ kind: 'number', text: word, pos });
      i = j;
    } else if (isIdentStart(c)) {
      let j = i;
      while (j < text.length && isIdentChar(text[j]!)) j++;
      tokens.push({ kind: 'ident', text: text.slice(i, j), pos });
      i = j;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) throw syntaxError(pos, 'unterminated string literal');
      const raw = text.slice(i, j + 1);
      decodeStringLiteral(raw, pos); // validates escapes early, with a position
      tokens.push({ kind: 'string', text: raw, pos });
      i = j + 1;
    } else {
      const op = OPERATORS.find((o) => text.startsWith(o, i));
      if (op === undefined) {
        const shown = c.charCodeAt(0) < 32 || c.charCodeAt(0) > 126 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c;
        throw syntaxError(pos, `unexpected character '${shown}'`);
      }
      tokens.push({ kind: 'op', text: op, pos });
      i += op.length;
    }
  }
  return tokens;
}
