// Language features run in the real EVM, checked against Serpent semantics
// (and, where the reference test-suite has a case, its expected values).

import { expect } from 'chai';
import { bytesToHex, createAddressFromBigInt } from '@ethereumjs/util';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { computeAddress, SigningKey } from 'ethers';
import { keccak } from '../../src/serpent/abi.js';
import { compileSerpent } from '../../src/serpent/index.js';
import { addressBig, ALICE, BOB, Chain, coder, Contract, word } from './evm-harness.js';

const M = 2n ** 256n;
const u = (x: bigint): bigint => ((x % M) + M) % M;
const big = (b: Uint8Array): bigint => BigInt(bytesToHex(b));
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const leftWord = (s: string): bigint => BigInt('0x' + Buffer.from(s).toString('hex').padEnd(64, '0'));
/** Two's-complement view of a word, for int256 parameters. */
const signed = (x: bigint): bigint => (x >= 2n ** 255n ? x - M : x);

describe('serpent language features in the EVM', function () {
  this.timeout(20_000);
  let chain: Chain;
  before(async () => {
    chain = await Chain.create();
  });

  it('evaluates operators with Serpent semantics (signed / % < >, ^ is power)', async () => {
    const c = await Contract.deploy(
      chain,
      `
def ops(a, b):
    return([a + b, a - b, a * b, a / b, a % b, a ^ 3, a ** 2, a < b, a > b, a <= b, a >= b, a == b, a != b, a & b, a | b, a xor b, -a, !a, not b, ~(a), 0x10, "ab", 2^255 / 2^253, 2^255 % 3]:arr)

def logic(a, b):
    return([a and b, a or b, a && b, a || b, min(a, b), max(a, b), unsigned_min(a, b), unsigned_max(a, b)]:arr)
`,
    );
    const r = await c.ints('ops', [-7n, 2n]);
    expect(r.map(u)).to.deep.equal(
      [-5n, -9n, -14n, -3n, -1n, -343n, 49n, 1n, 0n, 1n, 0n, 0n, 1n, -7n & 2n, -7n | 2n, -7n ^ 2n, 7n, 0n, 0n, 6n, 16n, leftWord('ab'), -4n, -2n].map(u),
    );
    expect(await c.ints('logic', [3n, 0n])).to.deep.equal([0n, 3n, 0n, 3n, 0n, 3n, 0n, 3n]);
    expect(await c.ints('logic', [-1n, 5n])).to.deep.equal([5n, -1n, 5n, -1n, -1n, 5n, 5n, -1n]);
  });

  it('runs if/elif/else chains, one-line bodies, while and with', async () => {
    const c = await Contract.deploy(
      chain,
      `
def classify(x):
    if x < 0:
        return(-1)
    elif x == 0:
        return(0)
    elif x < 10: return(1)
    else:
        return(2)

def tri(n):
    total = 0
    while n > 0:
        total += n
        n -= 1
    return(total)

def scoped():
    o = array(4)
    with x = 5:
        o[0] = x
        with y = 7:
            o[1] = y
            with x = 8:
                o[2] = x
        o[3] = x
    return(o:arr)
`,
    );
    expect(await Promise.all([-5n, 0n, 7n, 99n].map((x) => c.int('classify', [x])))).to.deep.equal([-1n, 0n, 1n, 2n]);
    expect(await c.int('tri', [100n])).to.equal(5050n);
    expect(await c.ints('scoped')).to.deep.equal([5n, 7n, 8n, 5n]);
  });

  it('exposes the environment: msg, tx, block and self', async () => {
    const c = await Contract.deploy(
      chain,
      `
def env():
    return([msg.sender, msg.value, tx.origin, block.number, block.timestamp, block.coinbase, block.gaslimit, self, self.balance, msg.gas > 0, block.difficulty]:arr)
`,
    );
    await chain.fund(c.address, 0n);
    const r = await c.send('env', [], { caller: BOB, value: 77n, timestamp: 123456n });
    const [sender, value, origin, number, ts, coinbase, gaslimit, self, balance, gas, difficulty] = coder.decode(['int256[]'], r.returnValue)[0] as bigint[];
    expect([sender, value, origin, number, ts, coinbase, gaslimit, self, balance, gas, difficulty]).to.deep.equal([
      addressBig(BOB),
      77n,
      addressBig(BOB),
      100n,
      123456n,
      0xc0ffeen,
      30_000_000n,
      addressBig(c.address),
      77n,
      1n,
      0n,
    ]);
  });

  it('lays out data declarations like the reference and reads them back', async () => {
    const c = await Contract.deploy(
      chain,
      `
data owner
data grid[3][4]
data point(x, y)
data book[](title, pages)

def init():
    self.owner = msg.sender

def write():
    self.grid[2][1] = 21
    self.point.y = 9
    self.point.x += 4
    self.book[77].pages = 300
    self.storage[1000] = self.grid[2][1] + self.point.y

def read():
    return([self.owner, self.grid[2][1], self.point.x, self.point.y, self.book[77].pages, self.storage[1000]]:arr)
`,
      { caller: ALICE },
    );
    await c.send('write');
    expect(await c.ints('read')).to.deep.equal([addressBig(ALICE), 21n, 4n, 9n, 300n, 30n]);
    const slot = (n: bigint): Promise<bigint> => chain.storage(c.address, n);
    expect(await slot(0n)).to.equal(addressBig(ALICE));
    expect(await slot(1n + 2n * 4n + 1n)).to.equal(21n); // grid is row-major after owner
    expect(await slot(13n)).to.equal(4n); // point.x
    expect(await slot(14n)).to.equal(9n); // point.y
    // book is infinite: sha3([declaration index 3, 77, field index 1]).
    const key = big(keccak(Buffer.from(coder.encode(['uint256', 'uint256', 'uint256'], [3n, 77n, 1n]).slice(2), 'hex')));
    expect(await slot(key)).to.equal(300n);
  });

  it('builds memory arrays and strings: literals, array(), len, slice, text, getch/setch, shrink', async () => {
    const c = await Contract.deploy(
      chain,
      `
def arrays(n):
    a = array(n)
    i = 0
    while i < n:
        a[i] = i * i
        i += 1
    b = slice(a, items=1, items=n)
    lit = [10, 20, 30]
    shrink(a, 2)
    return([len(a), len(b), b[0], b[n - 2], lit[2], len([])]:arr)

def strings():
    s = text("hello")
    setch(s, 0, "j")
    t = slice(s, chars=1, chars=4)
    return([len(s), getch(s, 0), getch(s, 4), len(t), getch(t, 0)]:arr)

def echo(s:str):
    return(s:str)
`,
    );
    expect(await c.ints('arrays', [5n])).to.deep.equal([2n, 4n, 1n, 16n, 30n, 0n]);
    expect(await c.ints('strings')).to.deep.equal([5n, 106n, 111n, 3n, 101n]);
    expect(await c.get('echo', [utf8('x'.repeat(70))], 'bytes')).to.equal('0x' + '78'.repeat(70));
  });

  it('returns values, arrays and strings in every documented form', async () => {
    const c = await Contract.deploy(
      chain,
      `
def a():
    return([1, 2, 3]:arr)
def b():
    return([4, 5, 6, 7], items=2)
def s():
    return(text("serpent"):str)
def t():
    return(text("serpentine"), chars=4)
def v():
    return 42
def addr():
    return(msg.sender:address)
`,
    );
    expect(await c.ints('a')).to.deep.equal([1n, 2n, 3n]);
    expect(await c.ints('b')).to.deep.equal([4n, 5n]);
    expect(await c.get('s', [], 'bytes')).to.equal(bytesToHex(utf8('serpent')));
    expect(await c.get('t', [], 'bytes')).to.equal(bytesToHex(utf8('serp')));
    expect(await c.int('v')).to.equal(42n);
    expect(String(await c.get('addr', [], 'address', { caller: BOB })).toLowerCase()).to.equal(BOB.toString());
    expect(c.compiled.functions.map((f) => f.output)).to.deep.equal(['int256[]', 'int256[]', 'bytes', 'bytes', 'int256', 'address']);
  });

  it('hashes with sha3, sha256 and ripemd160 in all forms', async () => {
    const c = await Contract.deploy(
      chain,
      `
def h(x):
    return([sha3(x), sha256(x), ripemd160(x), sha3([1, 2]:arr), sha3(text("dog"):str), sha256(text("dog"), chars=3), ripemd160([7], items=1), sha3(0, chars=0)]:arr)
`,
    );
    const x = 0x1234n;
    const w = (v: bigint): Uint8Array => Buffer.from(v.toString(16).padStart(64, '0'), 'hex');
    const cat = (...ws: bigint[]): Uint8Array => Buffer.concat(ws.map(w));
    const r = (await c.ints('h', [x])).map(u);
    expect(r).to.deep.equal([
      big(keccak(w(x))),
      big(sha256(w(x))),
      big(ripemd160(w(x))),
      big(keccak(cat(1n, 2n))),
      big(keccak(utf8('dog'))),
      big(sha256(utf8('dog'))),
      big(ripemd160(w(7n))),
      big(keccak(new Uint8Array())),
    ]);
  });

  it('recovers signers with ecrecover', async () => {
    const c = await Contract.deploy(
      chain,
      `
def who(h, v, r, s):
    return(ecrecover(h, v, r, s))
`,
    );
    const key = new SigningKey('0x' + '42'.repeat(32));
    const digest = '0x' + Buffer.from(keccak('the quick brown fox')).toString('hex');
    const sig = key.sign(digest);
    const signer = BigInt(computeAddress(key.publicKey));
    const args = (v: bigint): bigint[] => [BigInt(digest), v, BigInt(sig.r), BigInt(sig.s)].map(signed);
    expect(await c.int('who', args(BigInt(sig.v)))).to.equal(signer);
    expect(await c.int('who', args(30n))).to.equal(0n);
  });

  it('calls its own functions with real message calls (LIFO order, msg.sender is self)', async () => {
    const c = await Contract.deploy(
      chain,
      `
def init():
    self.storage[0] = 10

def f1():
    self.storage[0] += 1

def f2():
    self.storage[0] *= 10
    self.f1()
    self.storage[0] *= 10

def get():
    return(self.storage[0])

def who():
    return(msg.sender)

def ask():
    return(self.who())

def twice(args:arr):
    args[0] *= 2
    return(args:arr)

def call_twice(args:arr):
    return(self.twice(args, outitems=len(args)):arr)
`,
    );
    await c.send('f2');
    expect(await c.int('get')).to.equal(1010n);
    expect(await c.int('ask')).to.equal(addressBig(c.address));
    expect(await c.ints('call_twice', [[3n, 5n]])).to.deep.equal([6n, 5n]);
  });

  it('calls other contracts through extern declarations, with value and delegatecall', async () => {
    const bank = await Contract.deploy(
      chain,
      `
def deposit():
    self.storage[msg.sender] += msg.value
    return(self.storage[msg.sender])

def mul(a, b):
    return(a * b)

def put(k, v):
    self.storage[k] = v

def words(s:str):
    return(len(s))
`,
    );
    const user = await Contract.deploy(
      chain,
      `
extern bank: [deposit:[]:int256, mul:[int256,int256]:int256, put:[int256,int256]:_, words:[bytes]:int256]

def go(b):
    x = b.mul(6, 7)
    y = b.deposit(value=25)
    z = b.words(text("four"))
    b.put(1, 11, call=delegate)
    return([x, y, z, self.storage[1]]:arr)
`,
    );
    await chain.fund(user.address, 1000n);
    expect(await user.ints('go', [addressBig(bank.address)])).to.deep.equal([42n, 25n, 4n, 11n]);
    expect(await chain.balance(bank.address)).to.equal(25n);
    expect(await chain.storage(bank.address, 1n)).to.equal(0n); // delegatecall wrote the caller's storage
  });

  it('creates contracts from other files and calls them (returnten.se)', async () => {
    const files = { 'mul2.se': 'def double(v):\n    return(v*2)\n' };
    const c = await Contract.deploy(chain, 'extern mul2: [double:i]\n\nx = create("mul2.se")\nreturn(x.double(5))\n', { options: { files } });
    const r = await chain.call(c.address, new Uint8Array());
    expect(word(r.returnValue)).to.equal(10n);
  });

  it('sends ether with send(to, value) and send(gas, to, value)', async () => {
    const c = await Contract.deploy(
      chain,
      `
def pay(to, amount):
    return(send(to, amount))

def pay_gas(to, amount):
    return(send(5000, to, amount))
`,
      { value: 1000n },
    );
    const dest = createAddressFromBigInt(0xdeadn);
    expect(await c.int('pay', [0xdeadn, 300n])).to.equal(1n);
    expect(await c.int('pay_gas', [0xdeadn, 200n])).to.equal(1n);
    expect(await chain.balance(dest)).to.equal(500n);
    expect(await chain.balance(c.address)).to.equal(500n);
    expect(await c.int('pay', [0xdeadn, 10_000n])).to.equal(0n);
  });

  it('emits plain logs and ABI events with indexed topics', async () => {
    const c = await Contract.deploy(
      chain,
      `
event Transfer(from:address:indexed, to:address:indexed, value)
event Note(who:indexed, text:str)
event Named(tag:str:indexed)

def plain(a, b):
    log(a)
    log(a, b, data=[1, 2])

def typed(to, value):
    log(type=Transfer, msg.sender, to, value)
    log(type=Note, 5, text("hi"))
    log(type=Named, text("bob"))
`,
    );
    let r = await c.send('plain', [3n, 4n]);
    expect(r.logs.map((l) => [l[1].map(big), bytesToHex(l[2])])).to.deep.equal([
      [[3n], '0x'],
      [[3n, 4n], coder.encode(['uint256', 'uint256'], [1n, 2n])],
    ]);
    r = await c.send('typed', [addressBig(BOB), 99n], { caller: ALICE });
    const topics = c.compiled.events.map((e) => BigInt(e.topic));
    expect(r.logs[0]![1].map(big)).to.deep.equal([topics[0], addressBig(ALICE), addressBig(BOB)]);
    expect(word(r.logs[0]![2])).to.equal(99n);
    expect(r.logs[1]![1].map(big)).to.deep.equal([topics[1], 5n]);
    expect(coder.decode(['bytes'], r.logs[1]![2])[0]).to.equal(bytesToHex(utf8('hi')));
    expect(r.logs[2]![1].map(big)).to.deep.equal([topics[2], big(keccak(utf8('bob')))]);
    expect(c.compiled.events.map((e) => e.signature)).to.deep.equal(['Transfer(address,address,int256)', 'Note(int256,bytes)', 'Named(bytes,bytes32)']);
    expect(c.compiled.events[0]!.topic).to.equal(bytesToHex(keccak('Transfer(address,address,int256)')));
  });

  it('saves and loads arrays and strings to storage', async () => {
    const c = await Contract.deploy(
      chain,
      `
data store[1000]

def kall():
    a = text("sir bobalot to the rescue !!1!1!!1!1")
    save(self.store[0], a, chars=60)
    b = load(self.store[0], chars=60)
    c = load(self.store[0], chars=33)
    return([a[0], a[1], b[0], b[1], c[0], c[1]]:arr)

def nums():
    save(self.store[10], [1, 2, 3, 4, 5]:arr)
    return(load(self.store[10], items=4):arr)
`,
    );
    const r = (await c.ints('kall')).map(u);
    expect(r.map((x) => x.toString(16))).to.deep.equal([
      '73697220626f62616c6f7420746f207468652072657363756520212131213121',
      '2131213100000000000000000000000000000000000000000000000000000000',
      '73697220626f62616c6f7420746f207468652072657363756520212131213121',
      '2131213100000000000000000000000000000000000000000000000000000000',
      '73697220626f62616c6f7420746f207468652072657363756520212131213121',
      '2100000000000000000000000000000000000000000000000000000000000000',
    ]);
    expect(await c.ints('nums')).to.deep.equal([1n, 2n, 3n, 4n]);
  });

  it('runs init/shared at creation, shared/any before every call, ignores unknown selectors', async () => {
    const c = await Contract.deploy(
      chain,
      `
def shared():
    FEE = 3

def any():
    self.storage[9] += 1

def init():
    self.storage[1] = msg.value + FEE

def fee():
    return(FEE)
`,
      { value: 10n },
    );
    expect(await chain.storage(c.address, 1n)).to.equal(13n);
    expect(await c.int('fee')).to.equal(3n);
    const r = await chain.call(c.address, Buffer.from('deadbeef', 'hex'));
    expect([r.ok, r.returnValue.length]).to.deep.equal([true, 0]);
    expect(await chain.storage(c.address, 9n)).to.equal(2n);
  });

  it('supports ~opcode builtins, stop, assert and ~invalid (which reverts state)', async () => {
    const c = await Contract.deploy(
      chain,
      `
def low():
    ~mstore(0, ~calldatasize())
    ~return(0, 32)

def halt(x):
    self.storage[1] = x
    stop
    self.storage[1] = 99

def boom(x):
    self.storage[2] = x
    assert(x > 5)
    self.storage[3] = x
    if x > 10:
        ~invalid()
`,
    );
    expect(await c.int('low')).to.equal(4n);
    await c.send('halt', [7n]);
    expect(await chain.storage(c.address, 1n)).to.equal(7n);
    expect((await c.send('boom', [3n])).ok).to.equal(false);
    expect((await c.send('boom', [11n])).ok).to.equal(false);
    expect(await chain.storage(c.address, 2n)).to.equal(0n);
    expect((await c.send('boom', [8n])).ok).to.equal(true);
    expect(await chain.storage(c.address, 3n)).to.equal(8n);
  });

  it('runs user macros with typed variables inside functions (reference test-suite)', async () => {
    const c = await Contract.deploy(
      chain,
      `
type fixedp: fp_

macro fixedp($x) * fixedp($y):
    fixedp($x * $y / 2^64)

macro fixedp($x) / fixedp($y):
    fixedp($x * 2^64 / $y)

macro raw_unfixedp(fixedp($x)):
    $x / 2^64

macro set(fixedp($x), $y):
    $x = 2^64 * $y

macro fixedp($x) = fixedp($y):
    $x = $y

def sqrdiv(fp_a, fp_b):
    return(raw_unfixedp((fp_a / fp_b) * (fp_a / fp_b)))
`,
    );
    expect(await c.int('sqrdiv', [25n, 2n])).to.equal(156n);
  });

  it('produces creation code that a second compile reproduces byte for byte', () => {
    const src = 'data x\ndef f(a:arr):\n    self.x = len(a)\n    return(a:arr)';
    expect(Buffer.from(compileSerpent(src).bytecode).equals(Buffer.from(compileSerpent(src).bytecode))).to.equal(true);
  });
});
