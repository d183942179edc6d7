import { expect } from 'chai';
import { show } from '../../src/serpent/ast.js';
import { lex } from '../../src/serpent/lexer.js';
import { parseProgram } from '../../src/serpent/parser.js';
import { SerpentError } from '../../src/serpent/index.js';

/** Parses and renders the statements as s-expressions. */
function tree(src: string): string[] {
  return parseProgram(src).args.map((n) => show(n, 10_000));
}

function expr(src: string): string {
  return tree(`x = ${src}`)[0]!.replace(/^\(= x (.*)\)$/, '$1');
}

function syntaxErrorOf(src: string): SerpentError {
  try {
    parseProgram(src);
  } catch (e) {
    expect(e).to.be.instanceOf(SerpentError);
    return e as SerpentError;
  }
  throw new Error('expected a syntax error');
}

describe('serpent lexer', () => {
  it('splits lines, measures indentation and drops comments', () => {
    const lines = lex('a = 1 # one\n\n  // only a comment\n    b += 0x1F // two\n');
    expect(lines.map((l) => [l.line, l.indent, l.tokens.map((t) => t.text)])).to.deep.equal([
      [1, 0, ['a', '=', '1']],
      [4, 4, ['b', '+=', '0x1F']],
    ]);
  });

  it('records 1-based columns and keeps string quotes', () => {
    const [line] = lex('  s = "a#b" + \'c\'');
    expect(line!.tokens.map((t) => [t.kind, t.text, t.pos.column])).to.deep.equal([
      ['ident', 's', 3],
      ['op', '=', 5],
      ['string', '"a#b"', 7],
      ['op', '+', 13],
      ['string', "'c'", 15],
    ]);
  });

  it('uses maximal munch for operators (x=-1, a!=!b, 2**3)', () => {
    const texts = (s: string) => lex(s)[0]!.tokens.map((t) => t.text);
    expect(texts('x=-1')).to.deep.equal(['x', '=', '-', '1']);
    expect(texts('a!=!b')).to.deep.equal(['a', '!=', '!', 'b']);
    expect(texts('2**3>=~x')).to.deep.equal(['2', '**', '3', '>=', '~x']);
  });

  it('rejects malformed numbers, stray characters and unterminated strings with positions', () => {
    for (const [src, line, column, msg] of [
      ['x = 12ab', 1, 5, "invalid number literal '12ab'"],
      ['y = 1\nx = 3 ? 4', 2, 7, "unexpected character '?'"],
      ['x = "abc', 1, 5, 'unterminated string literal'],
      ['x = "\\x4"', 1, 5, "expected two hex digits after '\\x'"],
    ] as const) {
      const e = syntaxErrorOf(src);
      expect([e.line, e.column, e.kind]).to.deep.equal([line, column, 'syntax']);
      expect(e.message).to.contain(msg);
    }
  });
});

describe('serpent expression grammar', () => {
  it('follows the reference precedence table', () => {
    expect(expr('1 + 2 * 3')).to.equal('(+ 1 (* 2 3))');
    expect(expr('2 ^ 3 * 4')).to.equal('(* (^ 2 3) 4)');
    expect(expr('2 ** 3 ** 2')).to.equal('(** (** 2 3) 2)');
    expect(expr('a - b - c')).to.equal('(- (- a b) c)');
    expect(expr('a < b and c >= d or e')).to.equal('(or (and (< a b) (>= c d)) e)');
    // `==` binds like `&`/`|`/xor, more loosely than comparisons.
    expect(expr('x & 1 == 0')).to.equal('(== (& x 1) 0)');
    expect(expr('a == b xor c != d')).to.equal('(!= (xor (== a b) c) d)');
    expect(expr('a && b || c')).to.equal('(|| (&& a b) c)');
  });

  it('parses unary minus as 0 - x binding like binary minus', () => {
    expect(expr('-x * 2')).to.equal('(- 0 (* x 2))');
    expect(expr('-x + 2')).to.equal('(+ (- 0 x) 2)');
    expect(expr('2 * -3 + 1')).to.equal('(+ (* 2 (- 0 3)) 1)');
    expect(expr('a ^ -b')).to.equal('(^ a (- 0 b))');
  });

  it('binds not/! tighter than any binary operator but looser than postfix', () => {
    expect(expr('!self.storage[k]')).to.equal('(! (access (. self storage) k))');
    expect(expr('not a and b')).to.equal('(and (not a) b)');
    expect(expr('!a ^ b')).to.equal('(^ (! a) b)');
  });

  it('builds calls, method calls, indexing, members and literals', () => {
    expect(expr('f(a, b)')).to.equal('(f a b)');
    expect(expr('g()')).to.equal('(g)');
    expect(expr('self.f(x, gas=5)')).to.equal('(fun (. self f) x (= gas 5))');
    expect(expr('a[i][j].b')).to.equal('(. (access (access a i) j) b)');
    expect(expr('[1, [2], []]')).to.equal('(array_lit 1 (array_lit 2) (array_lit))');
    expect(expr('msg.sender')).to.equal('(. msg sender)');
    expect(expr('block.prevhash(3)')).to.equal('(fun (. block prevhash) 3)');
    expect(expr('(((1)))')).to.equal('1');
    expect(expr('"george"')).to.equal('"george"');
    expect(expr('~calldataload(0)')).to.equal('(~calldataload 0)');
  });

  it('parses type annotations with the loosest precedence', () => {
    expect(tree('return([a, b]:arr)')).to.deep.equal(['(return (: (array_lit a b) arr))']);
    expect(tree('return(x, items=3)')).to.deep.equal(['(return x (= items 3))']);
    expect(tree('return x')).to.deep.equal(['(return x)']);
  });
});

describe('serpent statements and blocks', () => {
  it('parses assignments and augmented assignments', () => {
    expect(tree('x = 1\nx += 2\nself.a[1] -= 3')).to.deep.equal(['(= x 1)', '(+= x 2)', '(-= (access (. self a) 1) 3)']);
  });

  it('chains if / elif / else into nested branches', () => {
    const src = 'if a:\n    x = 1\nelif b:\n    x = 2\nelif c:\n    x = 3\nelse:\n    x = 4\n    y = 5\n';
    expect(tree(src)).to.deep.equal(['(if a (= x 1) (elif b (= x 2) (elif c (= x 3) (else (seq (= x 4) (= y 5))))))']);
  });

  it('accepts one-line bodies after the colon', () => {
    expect(tree('if x > 5: return(1)\nelse: return(2)')).to.deep.equal(['(if (> x 5) (return 1) (else (return 2)))']);
    expect(tree('def f(x): return(x * 2)')).to.deep.equal(['(def (f x) (return (* x 2)))']);
  });

  it('parses def, with, while and the declarations', () => {
    expect(tree('def const f(a, b:arr, c:int256[]):\n    stop')).to.deep.equal(['(def const (f a (: b arr) (: c (access int256))) stop)']);
    expect(tree('def init:\n    x = 1')).to.deep.equal(['(def init (= x 1))']);
    expect(tree('with x = 5:\n    while x > 0:\n        x -= 1')).to.deep.equal(['(with (= x 5) (while (> x 0) (-= x 1)))']);
    expect(tree('data campaigns[2^80](recipient, contribs[2^50](sender, value))')).to.deep.equal([
      '(data (fun (access campaigns (^ 2 80)) recipient (fun (access contribs (^ 2 50)) sender value)))',
    ]);
    expect(tree('extern mul2: [double:i, foo:[int256,int256[]]:int256]')).to.deep.equal([
      '(extern mul2 (array_lit (: double i) (: (: foo (array_lit int256 (access int256))) int256)))',
    ]);
    expect(tree('event Transfer(from:indexed, to:address:indexed, value)')).to.deep.equal([
      '(event (Transfer (: from indexed) (: (: to address) indexed) value))',
    ]);
    expect(tree('macro(10) f($a):\n    $a / 10000')).to.deep.equal(['(fun (macro 10) (f $a) (/ $a 10000))']);
    expect(tree('type f: [a, b]\ntype g: fp_')).to.deep.equal(['(type f (array_lit a b))', '(type g fp_)']);
  });

  it('allows data/type as keyword-argument names', () => {
    expect(tree('log(type=foo, x, data=arr)')).to.deep.equal(['(log (= type foo) x (= data arr))']);
  });

  it('treats declaration words as names where the reference does', () => {
    expect(tree('data = string(1024)\ntype[0] += 1\nx = msg.data')).to.deep.equal(['(= data (string 1024))', '(+= (access type 0) 1)', '(= x (. msg data))']);
    expect(tree('extern modint.type: [f:[int256]:int256]')).to.deep.equal(['(extern modint.type (array_lit (: (: f (array_lit int256)) int256)))']);
  });

  it('parses keyword call forms like with(x, v, body) and if(c, a, b)', () => {
    expect(tree('with($x, $y, $z)\ny = if(c, 1, 2)')).to.deep.equal(['(with $x $y $z)', '(= y (if c 1 2))']);
    expect(tree('if (x):\n    y = 1')).to.deep.equal(['(if x (= y 1))']);
  });

  it('splices inset() files from options.files', () => {
    const p = parseProgram('inset("lib.se")\nx = f(1)', { files: { 'lib.se': 'def f(a):\n    return(a)' } });
    expect(p.args.map((n) => show(n))).to.deep.equal(['(def (f a) (return a))', '(= x (f 1))']);
  });
});

describe('serpent syntax errors', () => {
  const cases: [string, number, number, string][] = [
    ['def f(:', 1, 7, "expected an expression, found ':'"],
    ['def f(x)\n    return(x)', 1, 9, "expected ':' after function parameters, found end of line"],
    ['def f(x):', 1, 10, "expected an indented block after ':'"],
    ['x = 1\n    y = 2', 2, 5, 'unexpected indented block'],
    ['  x = 1', 1, 3, 'unexpected indentation'],
    ['if a:\n        x = 1\n    y = 2', 2, 9, 'indentation does not match the enclosing block'],
    ['else:\n    x = 1', 1, 1, "'else' without a matching 'if'"],
    ['if a:\n    x = 1\nelse:\n    x = 2\nelif b:\n    x = 3', 5, 1, "'elif' after 'else'"],
    ['x = (1, 2)', 1, 5, 'tuples are not supported'],
    ['x = f(1,', 1, 9, 'expected an expression, found end of line'],
    ['x = f(1 2)', 1, 9, "expected ',' or ')', found '2'"],
    ['x = 1 +', 1, 8, 'expected an expression, found end of line'],
    ['x = a.5', 1, 7, "expected a member name after '.'"],
    ['if x = 1 2:\n    y = 1', 1, 10, "expected ':' after 'if' condition, found '2'"],
    ['def f():\n    def g():\n        stop', 2, 5, "'def' is only allowed at the top level"],
    ['return', 1, 7, "expected a value after 'return'"],
    ['x = if', 1, 5, "unexpected keyword 'if'"],
    ['foo:\n    x = 1', 1, 5, 'expected an expression'],
    ['with 5:\n    x = 1', 1, 6, "expected 'with name = value:'"],
    ['x = "' + 'a'.repeat(10) + '" 5', 1, 18, "unexpected '5'"],
  ];
  for (const [src, line, column, msg] of cases) {
    it(`reports ${JSON.stringify(src.split('\n')[0])} at ${line}:${column}`, () => {
      const e = syntaxErrorOf(src);
      expect(e.kind).to.equal('syntax');
      expect(e.message).to.contain(msg);
      expect([e.line, e.column]).to.deep.equal([line, column]);
      expect(e.message.startsWith(`line ${line}, column ${column}: `)).to.equal(true);
    });
  }
});
