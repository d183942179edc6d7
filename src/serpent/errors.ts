// Positioned compiler errors. Every failure the compiler reports goes through
// SerpentError so callers can rely on `line`/`column` being present.

export type SerpentErrorKind = 'syntax' | 'semantic';

/** 1-based source position. */
export interface Pos {
  readonly line: number;
  readonly column: number;
}

export class SerpentError extends Error {
  readonly line: number;
  readonly column: number;
  readonly kind: SerpentErrorKind;
  /** The message without the "line L, column C: " prefix. */
  readonly detail: string;

  constructor(kind: SerpentErrorKind, pos: Pos, detail: string) {
    super(`line ${pos.line}, column ${pos.column}: ${detail}`);
    this.name = 'SerpentError';
    this.kind = kind;
    this.line = pos.line;
    this.column = pos.column;
    this.detail = detail;
  }
}

export function syntaxError(pos: Pos, detail: string): SerpentError {
  return new SerpentError('syntax', pos, detail);
}

export function semanticError(pos: Pos, detail: string): SerpentError {
  return new SerpentError('semantic', pos, detail);
}

export const START: Pos = { line: 1, column: 1 };

/**
 * Hard limits that keep the compiler total on hostile input: every recursive
 * walk and every rewrite loop is bounded by one of these.
 */
export const LIMITS = {
  sourceChars: 1_000_000,
  lineChars: 10_000,
  exprDepth: 200,
  blockDepth: 100,
  treeDepth: 1_000,
  macroWork: 250_000,
  insetDepth: 8,
} as const;

/** Throws once a recursive walk goes deeper than LIMITS.treeDepth. */
export function checkDepth(depth: number, pos: Pos): void {
  if (depth > LIMITS.treeDepth) throw semanticError(pos, 'program is nested too deeply');
}
