// Robustness: thousands of seeded random and mutated programs must never
// crash or hang the compiler; every failure is a positioned SerpentError.

import { expect } from 'chai';
import { compileSerpent, SerpentError } from '../../src/serpent/index.js';
import { COLLATZ, COLLATZ_LOOP, CROWDFUND, DATAFEED, FIXEDPOINT, MERGESORT, MUL2, NAMECOIN, QUICKSORT, SUBCURRENCY } from './examples.js';

/** mulberry32: small, fast, deterministic. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EXTRA_SEEDS = [
  `event E(a:indexed, b:str)\nextern x: [f:[int256,bytes]:int256]\ndata d[](a, b[4])\n\ndef g(s:str, a:arr):\n    log(type=E, 1, s)\n    with t = sha3(a:arr):\n        self.d[t].b[2] += x.f(3, s)\n    return(slice(a, items=0, items=1):arr)\n`,
  `macro psuc($x) + $y:\n    psuc($x + $y)\nmacro(2) z():\n    0\ntype f: [a, b]\n\ndef m(a, b):\n    while a > b:\n        a -= 1\n    save(self.storage[1], [a, b]:arr)\n    return(load(self.storage[1], items=2):arr)\n`,
  `def init():\n    self.storage[0] = msg.value\n\ndef f(x):\n    if x: return(~calldatasize())\n    elif not x: send(msg.sender, 1)\n    else: stop\n    return(text("abc"), chars=2)\n`,
];

const FRAGMENTS = [
  '(',
  ')',
  '[',
  ']',
  ':',
  ',',
  '=',
  '+=',
  '.',
  '..',
  'def',
  'if',
  'else',
  'elif',
  'while',
  'with',
  'return',
  'data',
  'macro',
  'type',
  'event',
  'extern',
  '\n',
  '\n    ',
  '    ',
  '\t',
  '"',
  "'",
  '#',
  '//',
  '\\',
  'self',
  '$x',
  '$',
  '~',
  '-',
  '!',
  'not',
  '**',
  '^',
  'x',
  '0x',
  '0xZZ',
  '1e9',
  '9'.repeat(80),
  'text(',
  'log(',
  ':arr',
  ':str',
  'items=',
  'chars=',
  'inset(',
  'create(',
  'self.',
  '.storage[',
  'msg.',
  'block.prevhash(',
  'stop',
  '@',
  '?',
  '{',
  '}',
  ';',
  '\u00e9',
  '\u0000',
  '::',
  'constructor',
  '__proto__',
  'toString',
];

/** One line that cannot parse, whatever surrounds it. */
const MALFORMED_LINES = [
  'x = (1',
  'def f(:',
  'if x',
  'y = 1 +',
  'z = "open',
  'q = [1, 2',
  'return(',
  'a b c',
  'f(,)',
  ')',
  'w = 3 ? 4',
  'v = 12ab',
  'u = f(1 2)',
  'with 5:',
  'elif:',
  't = .x',
  'def (x):',
  'macro:',
  'event',
  'p = a[',
  's = {1}',
  'r = x.5',
  'x == = 2',
];

const SEEDS = [MUL2, NAMECOIN, CROWDFUND, SUBCURRENCY, FIXEDPOINT, COLLATZ, COLLATZ_LOOP, MERGESORT, QUICKSORT, DATAFEED, ...EXTRA_SEEDS];

function mutate(src: string, rnd: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  let t = src;
  const edits = 1 + Math.floor(rnd() * 4);
  for (let i = 0; i < edits; i++) {
    const p = Math.floor(rnd() * (t.length + 1));
    const r = rnd();
    if (r < 0.25) t = t.slice(0, p) + t.slice(p + 1 + Math.floor(rnd() * 6));
    else if (r < 0.6) t = t.slice(0, p) + pick(FRAGMENTS) + t.slice(p);
    else if (r < 0.75) {
      const q = Math.floor(rnd() * t.length);
      t = t.slice(0, p) + t.slice(q, q + 1 + Math.floor(rnd() * 30)) + t.slice(p);
    } else if (r < 0.85) t = t.slice(0, p);
    else if (r < 0.95) {
      const lines = t.split('\n');
      const k = Math.floor(rnd() * lines.length);
      lines[k] = ' '.repeat(Math.floor(rnd() * 9)) + lines[k]!.trimStart();
      t = lines.join('\n');
    } else t = t.slice(0, p) + String.fromCharCode(Math.floor(rnd() * 0x3000)) + t.slice(p);
  }
  return t;
}

function insertMalformedLine(src: string, rnd: () => number): string {
  const lines = src.split('\n');
  const k = Math.floor(rnd() * (lines.length + 1));
  const indent = lines[Math.min(k, lines.length - 1)]!.match(/^\s*/)![0];
  lines.splice(k, 0, indent + MALFORMED_LINES[Math.floor(rnd() * MALFORMED_LINES.length)]!);
  return lines.join('\n');
}

function tokenSoup(rnd: () => number): string {
  const words = [
    'x',
    'y',
    '1',
    '0x10',
    '"s"',
    'self',
    'storage',
    'msg',
    'sender',
    'f',
    'a',
    'def',
    'if',
    'return',
    'data',
    'macro',
    'and',
    'not',
    'constructor',
    '__proto__',
  ];
  const ops = ['+', '-', '*', '/', '%', '^', '==', '<', '=', '+=', ':', '.', ',', '(', ')', '[', ']', '!'];
  const lines: string[] = [];
  const n = 1 + Math.floor(rnd() * 6);
  for (let i = 0; i < n; i++) {
    const toks: string[] = [];
    const m = 1 + Math.floor(rnd() * 12);
    for (let j = 0; j < m; j++) toks.push(rnd() < 0.5 ? words[Math.floor(rnd() * words.length)]! : ops[Math.floor(rnd() * ops.length)]!);
    lines.push(' '.repeat(4 * Math.floor(rnd() * 3)) + toks.join(rnd() < 0.5 ? ' ' : ''));
  }
  return lines.join('\n');
}

/** Compiles; returns the error (checked to be well-formed) or null on success. */
function attempt(src: string): SerpentError | null {
  const started = Date.now();
  const outcome = compileOutcome(src);
  // A guard against runaway compiles (exponential backtracking), not a performance target.
  const ms = Date.now() - started;
  if (ms > 2000) throw new Error(`compile took ${ms} ms for ${JSON.stringify(src).slice(0, 200)}`);
  return outcome;
}

function compileOutcome(src: string): SerpentError | null {
  try {
    const out = compileSerpent(src);
    expect(out.bytecode).to.be.instanceOf(Uint8Array);
    return null;
  } catch (e) {
    if (!(e instanceof SerpentError)) throw new Error(`non-SerpentError for ${JSON.stringify(src)}: ${String(e)}`);
    const lineCount = src.split('\n').length;
    expect(e.kind === 'syntax' || e.kind === 'semantic').to.equal(true);
    expect(e.line).to.be.within(1, lineCount + 1);
    expect(e.column).to.be.at.least(1);
    expect(e.message.startsWith(`line ${e.line}, column ${e.column}: `)).to.equal(true);
    if (e.detail.startsWith('internal compiler error')) throw new Error(`internal error for ${JSON.stringify(src)}: ${e.detail}`);
    return e;
  }
}

describe('serpent compiler fuzzing', function () {
  this.timeout(60_000);

  it('survives 2500 mutated example programs', () => {
    const rnd = prng(0x5e2e47);
    let failures = 0;
    for (let i = 0; i < 2500; i++) {
      if (attempt(mutate(SEEDS[i % SEEDS.length]!, rnd)) !== null) failures++;
    }
    expect(failures).to.be.greaterThan(1000); // most mutations are malformed
  });

  it('reports every program with an injected malformed line (1000 cases)', () => {
    const rnd = prng(0xbadc0de);
    for (let i = 0; i < 1000; i++) {
      const src = insertMalformedLine(SEEDS[i % SEEDS.length]!, rnd);
      expect(attempt(src), src).to.be.instanceOf(SerpentError);
    }
  });

  it('survives 1500 random token soups', () => {
    const rnd = prng(42);
    for (let i = 0; i < 1500; i++) attempt(tokenSoup(rnd));
  });

  it('rejects pathological sizes and nesting quickly', () => {
    const cases = [
      'x = ' + '('.repeat(300) + '1' + ')'.repeat(300),
      'x = ' + 'f('.repeat(300) + '1' + ')'.repeat(300),
      'x = a' + '[1]'.repeat(3000),
      Array.from({ length: 200 }, (_, i) => ' '.repeat(i) + 'if x:').join('\n'),
      'macro f($x):\n    f(f($x))\n\ny = f(1)',
      'macro f($x):\n    f($x)\n\ny = f(1)',
      'x = 1\n'.repeat(200_000),
      'x = "' + 'a'.repeat(20_000) + '"',
    ];
    for (const src of cases) expect(attempt(src)).to.be.instanceOf(SerpentError);
  });
});
