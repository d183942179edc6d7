// IR -> assembly for one code unit. Tracks the stack height so `with`
// variables can be reached with DUPn/SWAPn, gives each memory variable a fixed
// 32-byte slot from address 32 upwards, and checks that every value-consuming
// position receives exactly one value.

import { assemble, type Asm } from './assembler.js';
import { checkDepth, semanticError, type Pos } from './errors.js';
import type { IR } from './ir.js';
import { OP, opcode } from './opcodes.js';
import { foldConstant } from './fold.js';

export interface CompiledUnits {
  /** Bytes of the unit flagged as the contract runtime, once compiled. */
  runtime: Uint8Array | null;
}

/** Number of values (0 or 1) a node leaves on the stack. */
export function arity(ir: IR): number {
  let cur = ir;
  for (;;) {
    switch (cur.k) {
      case 'num':
      case 'get':
      case 'ref':
      case 'alloc':
      case 'code':
        return 1;
      case 'set':
      case 'until':
        return 0;
      case 'seq':
        if (cur.items.length === 0) return 0;
        cur = cur.items[cur.items.length - 1]!;
        continue;
      case 'with':
        cur = cur.body;
        continue;
      case 'if':
        return cur.else !== null && arity(cur.then) === 1 && arity(cur.else) === 1 ? 1 : 0;
      case 'op':
        return opcode(cur.op)?.outputs ?? 0;
    }
  }
}

interface Env {
  readonly height: number;
  readonly stackVars: ReadonlyMap<string, number>;
}

export function compileUnit(ir: IR, sink: CompiledUnits): Uint8Array {
  const c = new UnitCompiler(sink);
  c.compile(ir, { height: 0, stackVars: new Map() }, 0);
  return c.finish();
}

class UnitCompiler {
  private readonly items: Asm[] = [];
  private readonly blobs: Uint8Array[] = [];
  private readonly vars = new Map<string, number>();
  private nextVar = 32;
  private usesMsize = false;
  private labelCount = 0;

  constructor(private readonly sink: CompiledUnits) {}

  finish(): Uint8Array {
    // Dynamic memory is allocated at msize; make msize cover the variable
    // slots (and at least the first word) so allocations never overlap them
    // and an array pointer minus 64 (its ABI header) is never negative.
    const prelude: Asm[] = this.usesMsize
      ? [
          { t: 'push', value: 0n },
          { t: 'push', value: BigInt(this.nextVar - 1) },
          { t: 'op', code: OP.MSTORE8 },
        ]
      : [];
    return assemble([...prelude, ...this.items], this.blobs);
  }

  private emit(code: number): void {
    this.items.push({ t: 'op', code });
  }

  private push(value: bigint): void {
    this.items.push({ t: 'push', value });
  }

  private label(): number {
    return this.labelCount++;
  }

  private place(id: number): void {
    this.items.push({ t: 'label', id }, { t: 'op', code: OP.JUMPDEST });
  }

  private jumpTo(id: number, conditional: boolean): void {
    this.items.push({ t: 'pushLabel', id });
    this.emit(conditional ? OP.JUMPI : OP.JUMP);
  }

  private slot(name: string): number {
    let addr = this.vars.get(name);
    if (addr === undefined) {
      addr = this.nextVar;
      this.nextVar += 32;
      this.vars.set(name, addr);
    }
    return addr;
  }

  private stackDistance(name: string, env: Env, pos: Pos, extra: number): number | null {
    const h = env.stackVars.get(name);
    if (h === undefined) return null;
    const d = env.height - h + extra;
    if (d > 16) throw semanticError(pos, `'with' variable '${displayName(name)}' is too deep in the stack (more than 16 slots)`);
    return d;
  }

  /** Compiles a node that must produce a value. */
  private value(ir: IR, env: Env, depth: number, what: string): void {
    if (this.compile(ir, env, depth) !== 1) throw semanticError(ir.pos, `${what} does not produce a value`);
  }

  /** Jumps to `target` when `cond` is false. */
  private jumpUnless(cond: IR, target: number, env: Env, depth: number): void {
    if (cond.k === 'op' && cond.op === 'iszero' && cond.args.length === 1) {
      this.value(cond.args[0]!, env, depth, 'condition');
    } else {
      this.value(cond, env, depth, 'condition');
      this.emit(OP.ISZERO);
    }
    this.jumpTo(target, true);
  }

  compile(ir: IR, env: Env, depth: number): number {
    checkDepth(depth, ir.pos);
    const d = depth + 1;
    switch (ir.k) {
      case 'num':
        this.push(ir.v);
        return 1;
      case 'get': {
        const dist = this.stackDistance(ir.name, env, ir.pos, 0);
        if (dist !== null) this.emit(OP.DUP1 + dist - 1);
        else {
          this.push(BigInt(this.slot(ir.name)));
          this.emit(OP.MLOAD);
        }
        return 1;
      }
      case 'ref':
        if (env.stackVars.has(ir.name)) throw semanticError(ir.pos, `cannot take the address of 'with' variable '${displayName(ir.name)}'`);
        this.push(BigInt(this.slot(ir.name)));
        return 1;
      case 'set': {
        this.value(ir.value, env, d, 'assigned expression');
        const dist = this.stackDistance(ir.name, env, ir.pos, 0);
        if (dist !== null) {
          this.emit(OP.SWAP1 + dist - 1);
          this.emit(OP.POP);
        } else {
          this.push(BigInt(this.slot(ir.name)));
          this.emit(OP.MSTORE);
        }
        return 0;
      }
      case 'seq': {
        let last = 0;
        ir.items.forEach((item, i) => {
          last = this.compile(item, env, d);
          if (last === 1 && i < ir.items.length - 1) this.emit(OP.POP);
        });
        return ir.items.length === 0 ? 0 : last;
      }
      case 'with': {
        this.value(ir.init, env, d, `initial value of '${displayName(ir.name)}'`);
        const inner = new Map(env.stackVars);
        inner.set(ir.name, env.height);
        const out = this.compile(ir.body, { height: env.height + 1, stackVars: inner }, d);
        if (out === 1) this.emit(OP.SWAP1);
        this.emit(OP.POP);
        return out;
      }
      case 'if': {
        if (ir.else === null) {
          const end = this.label();
          this.jumpUnless(ir.cond, end, env, d);
          if (this.compile(ir.then, env, d) === 1) this.emit(OP.POP);
          this.place(end);
          return 0;
        }
        const outs = arity(ir);
        const otherwise = this.label();
        const end = this.label();
        this.jumpUnless(ir.cond, otherwise, env, d);
        if (this.compile(ir.then, env, d) > outs) this.emit(OP.POP);
        this.jumpTo(end, false);
        this.place(otherwise);
        if (this.compile(ir.else, env, d) > outs) this.emit(OP.POP);
        this.place(end);
        return outs;
      }
      case 'until': {
        const begin = this.label();
        const end = this.label();
        this.place(begin);
        this.value(ir.cond, env, d, 'loop condition');
        this.jumpTo(end, true);
        if (this.compile(ir.body, env, d) === 1) this.emit(OP.POP);
        this.jumpTo(begin, false);
        this.place(end);
        return 0;
      }
      case 'alloc':
        this.value(ir.size, env, d, 'allocation size');
        this.usesMsize = true;
        this.emit(OP.MSIZE);
        this.emit(OP.SWAP1);
        this.emit(OP.MSIZE);
        this.emit(OP.ADD);
        this.push(0n);
        this.emit(OP.SWAP1);
        this.emit(OP.MSTORE);
        return 1;
      case 'code': {
        const bytes = compileUnit(ir.unit, this.sink);
        if (ir.runtime) this.sink.runtime = bytes;
        const blob = this.blobs.push(bytes) - 1;
        this.push(BigInt(bytes.length));
        this.emit(OP.DUP1);
        this.items.push({ t: 'pushBlob', blob });
        this.value(ir.dest, { ...env, height: env.height + 3 }, d, 'code destination');
        if (!(ir.dest.k === 'num' && ir.dest.v === 0n)) this.usesMsize = true;
        this.emit(OP.CODECOPY);
        return 1;
      }
      case 'op': {
        const folded = foldConstant(ir);
        if (folded !== null) {
          this.push(folded);
          return 1;
        }
        const info = opcode(ir.op);
        if (info === undefined) throw semanticError(ir.pos, `unknown opcode '${ir.op}'`);
        if (ir.args.length !== info.inputs) {
          throw semanticError(ir.pos, `${ir.op} takes ${info.inputs} argument(s), got ${ir.args.length}`);
        }
        if (ir.op.toLowerCase() === 'msize') this.usesMsize = true;
        for (let i = ir.args.length - 1; i >= 0; i--) {
          const h = env.height + (ir.args.length - 1 - i);
          this.value(ir.args[i]!, { ...env, height: h }, d, `argument ${i + 1} of ${ir.op}`);
        }
        this.emit(info.code);
        return info.outputs;
      }
    }
  }
}

/** Internal names carry a '%' marker; users see only their own part. */
function displayName(name: string): string {
  const i = name.lastIndexOf('.');
  return name.startsWith('%') && i >= 0 ? name.slice(i + 1) : name;
}
