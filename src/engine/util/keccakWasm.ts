// Emits, at load time, a tiny WebAssembly module with one function, f1600():
// the Keccak-f[1600] permutation over the 25 little-endian u64 lanes stored at
// address 0 of its memory.
//
// Why WebAssembly: the epoch-0 cache needs ~1.05 million permutations. With
// 64-bit lanes split into 32-bit halves, the best plain-JS version (fully
// unrolled, all lanes in locals) costs ~3.4 µs per permutation on the 2-core
// target machine; native i64 and i64.rotl bring it to ~0.4 µs. The module is
// generated from this readable emitter rather than shipped as an opaque blob.

const STATE_LANES = 25;
const ROUNDS = 24;
/** Address of the 24 round constants (u64 each), right after the state. */
const RC_ADDRESS = STATE_LANES * 8;

/** Rho rotation offset of each lane (index x + 5y), from the spec's (t+1)(t+2)/2 rule. */
function rhoOffsets(): number[] {
  const rho = new Array<number>(STATE_LANES).fill(0);
  let x = 1;
  let y = 0;
  for (let t = 0; t < 24; t++) {
    rho[x + 5 * y] = (((t + 1) * (t + 2)) / 2) % 64;
    [x, y] = [y, (2 * x + 3 * y) % 5];
  }
  return rho;
}

/** Iota round constants, from the spec's LFSR. */
function roundConstants(): bigint[] {
  const rc: bigint[] = [];
  let lfsr = 1n;
  for (let round = 0; round < ROUNDS; round++) {
    let c = 0n;
    for (let j = 0; j < 7; j++) {
      lfsr = ((lfsr << 1n) ^ ((lfsr >> 7n) * 0x71n)) % 256n;
      if (lfsr & 2n) c ^= 1n << ((1n << BigInt(j)) - 1n);
    }
    rc.push(c);
  }
  return rc;
}

const uleb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
};

const sleb = (n: number): number[] => {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
};

// Opcodes used (WebAssembly core spec numbering).
const OP = {
  end: 0x0b,
  loop: 0x03,
  brIf: 0x0d,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i64Load: 0x29,
  i64Store: 0x37,
  i32Const: 0x41,
  i64Const: 0x42,
  i32Ne: 0x47,
  i32Add: 0x6a,
  i64And: 0x83,
  i64Xor: 0x85,
  i64Rotl: 0x89,
} as const;
const I64 = 0x7e;
const I32 = 0x7f;
const VOID_BLOCK = 0x40;
const ALIGN_8 = 3;

function permutationBody(): number[] {
  // Locals: a0..a24 state lanes, b0..b24 rho/pi output, c0..c4 column parities,
  // d theta temporary (all i64), then the round-constant address (i32).
  const a = (i: number) => i;
  const b = (i: number) => 25 + i;
  const c = (x: number) => 50 + x;
  const d = 55;
  const rcAddr = 56;
  const rho = rhoOffsets();
  const code: number[] = [];
  const get = (l: number) => code.push(OP.localGet, ...uleb(l));
  const set = (l: number) => code.push(OP.localSet, ...uleb(l));

  for (let i = 0; i < STATE_LANES; i++) {
    code.push(OP.i32Const, 0, OP.i64Load, ALIGN_8, ...uleb(8 * i));
    set(a(i));
  }
  code.push(OP.i32Const, ...sleb(RC_ADDRESS));
  set(rcAddr);
  code.push(OP.loop, VOID_BLOCK);
  // Theta: xor every lane with the parities of the two neighbouring columns.
  for (let x = 0; x < 5; x++) {
    get(a(x));
    for (let y = 1; y < 5; y++) {
      get(a(x + 5 * y));
      code.push(OP.i64Xor);
    }
    set(c(x));
  }
  for (let x = 0; x < 5; x++) {
    get(c((x + 4) % 5));
    get(c((x + 1) % 5));
    code.push(OP.i64Const, 1, OP.i64Rotl, OP.i64Xor);
    set(d);
    for (let y = 0; y < 5; y++) {
      get(a(x + 5 * y));
      get(d);
      code.push(OP.i64Xor);
      set(a(x + 5 * y));
    }
  }
  // Rho and pi: B[y, 2x + 3y] = rotl(A[x, y], rho[x, y]).
  for (let x = 0; x < 5; x++) {
    for (let y = 0; y < 5; y++) {
      const i = x + 5 * y;
      get(a(i));
      if (rho[i] !== 0) code.push(OP.i64Const, ...sleb(rho[i]!), OP.i64Rotl);
      set(b(y + 5 * ((2 * x + 3 * y) % 5)));
    }
  }
  // Chi: A[x, y] = B[x, y] ^ (~B[x + 1, y] & B[x + 2, y]).
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 5; x++) {
      get(b(x + 5 * y));
      get(b(((x + 1) % 5) + 5 * y));
      code.push(OP.i64Const, ...sleb(-1), OP.i64Xor);
      get(b(((x + 2) % 5) + 5 * y));
      code.push(OP.i64And, OP.i64Xor);
      set(a(x + 5 * y));
    }
  }
  // Iota, then advance to the next round constant until all 24 are used.
  get(a(0));
  get(rcAddr);
  code.push(OP.i64Load, ALIGN_8, 0, OP.i64Xor);
  set(a(0));
  get(rcAddr);
  code.push(OP.i32Const, 8, OP.i32Add, OP.localTee, ...uleb(rcAddr));
  code.push(OP.i32Const, ...sleb(RC_ADDRESS + 8 * ROUNDS), OP.i32Ne, OP.brIf, 0, OP.end);

  for (let i = 0; i < STATE_LANES; i++) {
    code.push(OP.i32Const, 0);
    get(a(i));
    code.push(OP.i64Store, ALIGN_8, ...uleb(8 * i));
  }
  code.push(OP.end);
  const locals = [2, ...uleb(56), I64, 1, I32];
  return [...locals, ...code];
}

function section(id: number, content: number[]): number[] {
  return [id, ...uleb(content.length), ...content];
}

function name(s: string): number[] {
  return [...uleb(s.length), ...Array.from(s, (ch) => ch.charCodeAt(0))];
}

/** The complete module: exports `memory` (one 64 KiB page) and `f1600: () => void`. */
export function keccakWasmModule(): Uint8Array {
  const body = permutationBody();
  const rcBytes: number[] = [];
  for (const rc of roundConstants()) {
    for (let k = 0n; k < 64n; k += 8n) rcBytes.push(Number((rc >> k) & 0xffn));
  }
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
    ...section(1, [1, 0x60, 0, 0]), // types: () -> ()
    ...section(3, [1, 0]), // functions: #0 has type 0
    ...section(5, [1, 0x00, 1]), // memory: min 1 page, no max
    ...section(7, [2, ...name('memory'), 0x02, 0, ...name('f1600'), 0x00, 0]), // exports
    ...section(10, [1, ...uleb(body.length), ...body]), // code
    ...section(11, [1, 0, OP.i32Const, ...sleb(RC_ADDRESS), OP.end, ...uleb(rcBytes.length), ...rcBytes]), // data
  ]);
}
