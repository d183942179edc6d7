import { expect } from 'chai';
import { assemble } from '../../src/serpent/assembler.js';
import { show } from '../../src/serpent/ast.js';
import { keccak } from '../../src/serpent/abi.js';
import { disassemble } from '../../src/serpent/disasm.js';
import { compileSerpent, SerpentError } from '../../src/serpent/index.js';
import { applyTypes, MacroExpander } from '../../src/serpent/macros.js';
import { parseProgram } from '../../src/serpent/parser.js';
import { preprocess } from '../../src/serpent/program.js';
import { CROWDFUND, FIXEDPOINT, MUL2 } from './examples.js';

const asm = (src: string, part: 'runtime' | 'bytecode' = 'runtime'): string => disassemble(compileSerpent(src)[part]).join(' ');

function semanticErrorOf(src: string): SerpentError {
  try {
    compileSerpent(src);
  } catch (e) {
    expect(e).to.be.instanceOf(SerpentError);
    return e as SerpentError;
  }
  throw new Error('expected a compile error');
}

describe('serpent compiler output', () => {
  it('describes functions with Serpent signatures, selectors and inferred outputs', () => {
    const out = compileSerpent(`
def double(v):
    return(v*2)
def arr(a:arr, s:str, t:int256[], u:address):
    return(a:arr)
def text():
    return(text("x"):str)
def nothing():
    stop
`);
    expect(out.functions).to.deep.equal([
      { name: 'double', signature: 'double(int256)', selector: '0x6ffa1caa', inputs: ['int256'], output: 'int256' },
      {
        name: 'arr',
        signature: 'arr(int256[],bytes,int256[],address)',
        selector: out.functions[1]!.selector,
        inputs: ['int256[]', 'bytes', 'int256[]', 'address'],
        output: 'int256[]',
      },
      { name: 'text', signature: 'text()', selector: out.functions[2]!.selector, inputs: [], output: 'bytes' },
      { name: 'nothing', signature: 'nothing()', selector: out.functions[3]!.selector, inputs: [] },
    ]);
    const sel = Buffer.from(keccak('arr(int256[],bytes,int256[],address)').subarray(0, 4)).toString('hex');
    expect(out.functions[1]!.selector).to.equal('0x' + sel);
  });

  it('describes events; indexed strings add a bytes32 to the signature like the reference', () => {
    const out = compileSerpent('event Moose(a, b:str, c:indexed)\nevent S(x:string:indexed)\ndef f():\n    stop');
    expect(out.events.map((e) => e.signature)).to.deep.equal(['Moose(int256,bytes,int256)', 'S(string,bytes32)']);
    expect(out.events[0]!.topic).to.equal('0x' + Buffer.from(keccak('Moose(int256,bytes,int256)')).toString('hex'));
  });

  it('produces creation code that copies and returns the runtime', () => {
    const out = compileSerpent(MUL2);
    const creation = disassemble(out.bytecode);
    expect(creation.slice(0, 7)).to.deep.equal([
      `PUSH1 0x${out.runtime.length.toString(16).padStart(2, '0')}`,
      'DUP1',
      'PUSH1 0x0c',
      'PUSH1 0x00',
      'CODECOPY',
      'PUSH1 0x00',
      'RETURN',
    ]);
    expect(creation[7]).to.equal('STOP');
    expect(Buffer.from(out.bytecode.subarray(12)).equals(Buffer.from(out.runtime))).to.equal(true);
  });

  it('dispatches on calldataload(0) / 2^224 and unpacks static arguments from calldata', () => {
    const code = asm(MUL2);
    expect(code).to.match(
      /^PUSH29 0x01(00){28} PUSH1 0x00 CALLDATALOAD DIV PUSH4 0x6ffa1caa DUP2 EQ ISZERO PUSH1 0x\w+ JUMPI PUSH1 0x04 CALLDATALOAD PUSH1 0x20 MSTORE/,
    );
  });

  it('uses signed operators for / % < > like the reference', () => {
    expect(asm('x = a / b % c')).to.contain('SDIV');
    expect(asm('x = a / b % c')).to.contain('SMOD');
    expect(asm('x = a < b')).to.contain('SLT');
    expect(asm('x = a >= b')).to.contain('SLT ISZERO');
    expect(asm('x = a <= b')).to.contain('SGT ISZERO');
    expect(asm('x = a != b')).to.contain('EQ ISZERO');
    expect(asm('x = a xor b')).to.contain('XOR');
  });

  it('folds constant arithmetic into one push', () => {
    expect(asm('x = 2^160 + 3 * 4')).to.equal('PUSH21 0x01000000000000000000000000000000000000000c PUSH1 0x20 MSTORE');
  });

  it('compiles while loops with the condition at the top and a backward jump', () => {
    expect(asm('while i < 10:\n    i += 1')).to.equal(
      'JUMPDEST PUSH1 0x0a PUSH1 0x20 MLOAD SLT ISZERO PUSH1 0x17 JUMPI PUSH1 0x01 PUSH1 0x20 MLOAD ADD PUSH1 0x20 MSTORE PUSH1 0x00 JUMP JUMPDEST',
    );
  });

  it('keeps with-variables on the stack (DUP/SWAP) and ordinary variables in memory slots from 32', () => {
    expect(asm('with x = 5:\n    x = x + 1\n    y = x')).to.equal('PUSH1 0x05 PUSH1 0x01 DUP2 ADD SWAP1 POP DUP1 PUSH1 0x20 MSTORE POP');
  });

  it('allocates dynamic memory at msize after reserving the variable slots', () => {
    expect(asm('a = array(2)\nb = 1')).to.match(/^PUSH1 0x00 PUSH1 0x5f MSTORE8 /);
  });

  it('lays out finite storage like the reference (crowdfund campaigns)', () => {
    // campaign size = 5 fields + 2^50 * 2 contribs; contribs start at offset 5.
    const size = 5n + (1n << 51n);
    const code = asm(`${CROWDFUND.split('\n')[0]}\ndef f(id, i):\n    return(self.campaigns[id].contribs[i].value)`);
    expect(code).to.contain(`PUSH7 0x${size.toString(16).padStart(14, '0')}`);
    const simple = asm('data a\ndata b[10]\ndata c(x, y)\ndef f(i):\n    self.c.y = self.b[i]');
    // b starts at slot 1, c.y is slot 1 + 10 + 1 = 12.
    expect(simple).to.contain('PUSH1 0x01 ADD SLOAD PUSH1 0x0c SSTORE');
  });

  it('hashes the index path for infinite storage arrays', () => {
    const code = asm('data x\ndata m[]\ndef f(k):\n    return(self.m[k])');
    // sha3 over [declaration index 1, k] in a fresh 64-byte buffer.
    expect(code).to.match(/PUSH1 0x40 DUP\d SHA3 SWAP1 POP SLOAD/);
    expect(code).to.contain('PUSH1 0x01 DUP2 MSTORE');
  });
});

describe('serpent macros and types', () => {
  const expand = (src: string): string[] => {
    const { info, tree } = preprocess(parseProgram(src));
    const out = new MacroExpander(info.macros).expand(applyTypes(tree, info.types, info.prefixTypes));
    // Top-level statements are runtime code: (seq (~return 0 (%runtime (seq ...)))).
    const ret = out.type === 'ast' ? out.args[0]! : out;
    const runtime = ret.type === 'ast' ? ret.args[1]! : ret;
    const body = runtime.type === 'ast' ? runtime.args[0]! : runtime;
    return body.type === 'ast' ? body.args.map((n) => show(n, 10_000)) : [];
  };

  it('matches patterns, binds $vars and rewrites to a fixpoint', () => {
    expect(expand('macro double($x):\n    $x + $x\n\ny = double(double(3))')).to.deep.equal(['(= y (+ (+ 3 3) (+ 3 3)))']);
  });

  it('turns unbound $vars in a body into fresh hidden variables', () => {
    const [s] = expand('macro swap($a, $b):\n    with $t = $a:\n        $a = $b\n        $b = $t\n\nswap(x, y)');
    expect(s).to.match(/^\(with \(= %m\d+\.t x\) \(seq \(= x y\) \(= y %m\d+\.t\)\)\)$/);
  });

  it('wraps typed variables and applies operator macros (fixedpoint.se)', () => {
    expect(expand(FIXEDPOINT)).to.deep.equal([
      '(= a (* 5 10000))',
      '(= b (* 2 10000))',
      '(= c (sdiv (* a 10000) b))',
      '(= e (add c (sdiv (* a 10000) b)))',
      '(return (/ e 10000))',
    ]);
  });

  it('runs each priority group once, lowest number first', () => {
    expect(expand('macro(5) f($x):\n    g($x)\nmacro f($x):\n    h($x)\ny = f(1)')).to.deep.equal(['(= y (h 1))']);
    expect(expand('macro(1) a($x):\n    b($x)\nmacro(2) b($x):\n    c($x)\ny = a(1)')).to.deep.equal(['(= y (c 1))']);
    expect(expand('macro(2) a($x):\n    b($x)\nmacro(1) b($x):\n    c($x)\ny = a(1)')).to.deep.equal(['(= y (b 1))']);
  });

  it('stops non-terminating expansion with a positioned error', () => {
    const e = semanticErrorOf('macro f($x):\n    f(f($x))\n\ny = f(1)');
    expect(e.kind).to.equal('semantic');
    expect([e.line, e.column]).to.deep.equal([4, 5]);
    expect(e.message).to.contain('macro expansion does not terminate');
  });

  it('refuses macros that redefine built-in forms', () => {
    expect(semanticErrorOf('macro sha3($x):\n    1').message).to.contain("macro cannot redefine built-in 'sha3'");
  });
});

describe('serpent semantic errors', () => {
  const cases: [string, string, number, number][] = [
    ['data p(a, b)\nx = self.p', 'not deep enough', 2, 10],
    ['data p(a, b[2])\nx = self.p.b', 'too few array index lookups', 2, 12],
    ['data p(a, b[2])\nx = self.p.b[1][2]', 'too many array index lookups', 2, 17],
    ['data p(a, b[2])\nx = self.p.c', "unknown storage variable or member '(. (. self p) c)'", 2, 12],
    ['def f():\n    return(self.g())', "no function 'g' in this contract", 2, 17],
    ['def f():\n    return(x.g(1))', "unknown function 'g': declare it with extern", 2, 14],
    ['def f():\n    return(g(1))', "unknown function 'g'", 2, 12],
    ['def g(a):\n    return(a)\ndef f():\n    return(g(1))', 'call functions of this contract as self.g(...)', 4, 12],
    ['def r():\n    return([1,2,3], items=3)\n\ndef main():\n    return(self.r())', 'please specify maximum array length with outitems', 5, 17],
    ['x = sha3(a, 5)', 'sha3(arr, len) is not valid', 1, 13],
    ['return(a, 5)', 'return(arr, len) is not valid', 1, 11],
    ['x = mload(1, 2)', 'mload() takes 1 argument(s), got 2', 1, 5],
    ['x = seq()', 'assigned expression does not produce a value', 1, 5],
    ['x = mstore(0, 1) + 1', 'argument 1 of add does not produce a value', 1, 5],
    ['items = 3\ny = items', "'items' is a reserved word", 2, 5],
    ['5 = x', 'cannot assign to literal 5', 1, 1],
    ['f(x) = 1', 'cannot assign to (f x)', 1, 1],
    ['log(type=nope, 1)', "unknown event 'nope'", 1, 1],
    ['event e(a)\nlog(type=e, 1, 2)', "event 'e' takes 1 argument(s), got 2", 2, 1],
    ['log(1, 2, 3, 4, 5)', 'at most 4 topics', 1, 1],
    ['def f(a):\n    stop\ndef f(b):\n    stop', "function 'f' is defined twice", 3, 5],
    ['def init(x):\n    stop', 'init() cannot have arguments', 1, 5],
    ['x = create("other.se")', "file 'other.se' not found", 1, 12],
    ['x = mload(y:arr)', "type annotation '(: y arr)' is not allowed here", 1, 12],
    ['x = $y', "unbound macro variable '$y'", 1, 5],
    ['x = tx.gas', 'replace tx.gas with msg.gas', 1, 8],
    ['data x[n]', 'array size must be a constant expression', 1, 8],
  ];
  for (const [src, msg, line, column] of cases) {
    it(`reports ${JSON.stringify(msg)}`, () => {
      const e = semanticErrorOf(src);
      expect(e.message).to.contain(msg);
      expect([e.line, e.column]).to.deep.equal([line, column]);
    });
  }

  it('treats Object.prototype names as ordinary identifiers', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(semanticErrorOf(`x = ${name}(1, 2)`).message).to.contain(`unknown function '${name}'`);
      expect(semanticErrorOf(`x = ${name}.sender`).message).to.contain('unknown storage variable or member');
      expect(compileSerpent(`data ${name}\ndef f(${name}):\n    self.${name} = ${name}`).functions[0]!.signature).to.equal('f(int256)');
    }
    expect(() => compileSerpent('x = create("constructor")', { files: {} })).to.throw(SerpentError, "file 'constructor' not found");
  });

  it('reports stack-too-deep for more than 16 nested with-variables', () => {
    const src = Array.from({ length: 18 }, (_, i) => `${' '.repeat(4 * i)}with v${i} = ${i}:`).join('\n') + `\n${' '.repeat(72)}x = v0`;
    expect(semanticErrorOf(src).message).to.contain("'with' variable 'v0' is too deep in the stack");
  });
});

describe('serpent assembler', () => {
  it('widens label pushes when the code outgrows one byte', () => {
    const items = [
      { t: 'pushLabel' as const, id: 0 },
      ...Array.from({ length: 300 }, () => ({ t: 'op' as const, code: 0x5b })),
      { t: 'label' as const, id: 0 },
    ];
    const code = assemble(items, []);
    expect([...code.subarray(0, 3)]).to.deep.equal([0x61, 0x01, 0x2f]);
  });
});
