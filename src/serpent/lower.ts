// Generic tree (after macro expansion) -> IR. This is where Serpent's meaning
// lives: operators (signed by default, as in the reference), variables,
// control flow, storage and environment access; memory builtins and calls
// are delegated to builtinsMemory.ts and builtinsCalls.ts.

import { isAst, isToken, show, type Ast, type Node } from './ast.js';
import { checkDepth, semanticError, type Pos } from './errors.js';
import { literalValue } from './literals.js';
import { alloc, get, iff, num, op, ref, seq, set, until, withVar, type IR } from './ir.js';
import { add, binop, iszero, mstore, mul, negate, sub, type Lowering } from './lowering.js';
import { opcode } from './opcodes.js';
import { own } from './own.js';
import type { ProgramInfo } from './program.js';
import { isStorageAccess, resolveStorage, type StorageSlot } from './storage.js';
import { lowerArrayLiteral, lowerEcrecover, lowerMemoryBuiltin, lowerPrecompileHash, lowerReturn, lowerSha3, lowerText, sizeBytes } from './builtinsMemory.js';
import { lowerCreate, lowerLog, lowerMethodCall, lowerSend } from './builtinsCalls.js';

const RESERVED = new Set(['arr', 'str', 'chars', 'bytes', 'items', 'words', 'string']);

const BINARY_OPS: Readonly<Record<string, string>> = {
  '+': 'add',
  '-': 'sub',
  '*': 'mul',
  '/': 'sdiv',
  '%': 'smod',
  '^': 'exp',
  '**': 'exp',
  '<': 'slt',
  '>': 'sgt',
  '==': 'eq',
  '&': 'and',
  '|': 'or',
  xor: 'xor',
};

const AUGMENTED: Readonly<Record<string, string>> = { '+=': '+', '-=': '-', '*=': '*', '/=': '/', '%=': '%', '^=': '^' };

const ENVIRONMENT: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  msg: { sender: 'caller', value: 'callvalue', gas: 'gas' },
  tx: { gasprice: 'gasprice', origin: 'origin' },
  block: { coinbase: 'coinbase', timestamp: 'timestamp', number: 'number', difficulty: 'difficulty', gaslimit: 'gaslimit' },
};

const TOP_LEVEL_FORMS = new Set(['def', 'data', 'extern', 'event', 'macro', 'type']);

export class Lowerer implements Lowering {
  private depth = 0;
  private temps = 0;

  constructor(
    readonly info: ProgramInfo,
    private readonly files: (name: string, pos: Pos) => IR,
  ) {}

  temp(hint: string): string {
    return `%t${++this.temps}.${hint}`;
  }

  compileFile(name: string, pos: Pos): IR {
    return this.files(name, pos);
  }

  lower(n: Node): IR {
    checkDepth(++this.depth, n.pos);
    try {
      return n.type === 'token' ? this.token(n.val, n.pos) : this.node(n);
    } finally {
      this.depth--;
    }
  }

  private token(val: string, pos: Pos): IR {
    const v = literalValue(val, pos);
    if (v !== null) return num(v, pos);
    if (val === 'self') return op('address', [], pos);
    if (val === 'stop') return op('stop', [], pos);
    return get(this.variable(val, pos), pos);
  }

  private variable(name: string, pos: Pos): string {
    if (RESERVED.has(name)) throw semanticError(pos, `'${name}' is a reserved word`);
    if (name.startsWith('$')) throw semanticError(pos, `unbound macro variable '${name}'`);
    if (name.startsWith('"') || name.startsWith("'") || /^\d/.test(name)) throw semanticError(pos, `expected a variable, found ${name}`);
    if (name === 'self') throw semanticError(pos, "'self' is not a variable");
    return name;
  }

  private node(n: Ast): IR {
    const pos = n.pos;
    const arg = (i: number): IR => this.lower(n.args[i]!);
    const binary = own(BINARY_OPS, n.val);
    if (binary !== undefined && n.args.length === 2) return binop(binary, arg(0), arg(1), pos);
    const augmented = own(AUGMENTED, n.val);
    if (augmented !== undefined && n.args.length === 2) {
      return this.assign(n.args[0]!, { type: 'ast', val: augmented, args: n.args, pos }, pos);
    }
    switch (n.val) {
      case 'seq':
        return seq(
          n.args.map((a) => this.lower(a)),
          pos,
        );
      case '=':
      case 'set':
        this.arity(n, 2);
        return this.assign(n.args[0]!, n.args[1]!, pos);
      case 'if':
      case 'elif':
        return this.conditional(n);
      case 'else':
        throw semanticError(pos, "'else' without a matching 'if'");
      case 'unless':
        this.arity(n, 2);
        return iff(iszero(arg(0), pos), arg(1), null, pos);
      case 'while':
        this.arity(n, 2);
        return until(negate(arg(0), pos), arg(1), pos);
      case 'until':
        this.arity(n, 2);
        return until(arg(0), arg(1), pos);
      case 'with':
        return this.withForm(n);
      case 'return':
        return lowerReturn(this, n);
      case 'and':
      case '&&':
        this.arity(n, 2);
        return iff(arg(0), arg(1), num(0, pos), pos);
      case 'or':
      case '||': {
        this.arity(n, 2);
        const t = this.temp('or');
        return withVar(t, arg(0), iff(get(t, pos), get(t, pos), arg(1), pos), pos);
      }
      case '!':
      case 'not':
        this.arity(n, 1);
        return iszero(arg(0), pos);
      case '~':
        this.arity(n, 1);
        return op('not', [arg(0)], pos);
      case '!=':
        this.arity(n, 2);
        return iszero(op('eq', [arg(0), arg(1)], pos), pos);
      case '<=':
        this.arity(n, 2);
        return iszero(op('sgt', [arg(0), arg(1)], pos), pos);
      case '>=':
        this.arity(n, 2);
        return iszero(op('slt', [arg(0), arg(1)], pos), pos);
      case ':':
        throw semanticError(pos, `type annotation '${show(n)}' is not allowed here`);
      case 'min':
      case 'max':
      case 'unsigned_min':
      case 'unsigned_max':
        return this.minMax(n);
      case 'assert':
        this.arity(n, 1);
        return iff(iszero(arg(0), pos), op('invalid', [], pos), null, pos);
      case 'access':
        return this.access(n);
      case '.':
        return this.member(n);
      case 'fun':
        if (isAst(n.args[0]!, '.', 2) && isToken(n.args[0].args[0]!, 'block') && isToken(n.args[0].args[1]!, 'prevhash')) {
          this.arity(n, 2);
          return op('blockhash', [sub(op('number', [], pos), arg(1), pos)], pos);
        }
        return lowerMethodCall(this, n);
      case 'array_lit':
        return lowerArrayLiteral(this, n);
      case 'text':
        return lowerText(this, n);
      case 'sha3':
        return lowerSha3(this, n);
      case 'sha256':
        return lowerPrecompileHash(this, n, 2);
      case 'ripemd160':
        return lowerPrecompileHash(this, n, 3);
      case 'ecrecover':
        return lowerEcrecover(this, n);
      case 'send':
        return lowerSend(this, n);
      case 'log':
        return lowerLog(this, n);
      case 'create':
        return lowerCreate(this, n);
      case 'safe_call':
        this.arity(n, 7);
        return iff(
          iszero(
            op(
              'call',
              n.args.map((a) => this.lower(a)),
              pos,
            ),
            pos,
          ),
          op('invalid', [], pos),
          null,
          pos,
        );
      case 'selfdestruct':
        this.arity(n, 1);
        return op('selfdestruct', [arg(0)], pos);
      case 'prefix':
        return this.prefix(n);
      case 'ref':
        this.arity(n, 1);
        return this.reference(n.args[0]!);
      case 'get':
        this.arity(n, 1);
        if (n.args[0]!.type !== 'token') throw semanticError(pos, 'get() expects a variable name');
        return get(this.variable(n.args[0]!.val, n.args[0]!.pos), pos);
      case 'code':
        this.arity(n, 1);
        return arg(0);
      case '%runtime':
        return { k: 'code', unit: arg(0), dest: num(0, pos), runtime: true, pos };
      case 'inset':
        throw semanticError(pos, 'inset(...) is only supported as a top-level statement with a file name');
    }
    const memory = lowerMemoryBuiltin(this, n);
    if (memory !== null) return memory;
    return this.opcodeCall(n);
  }

  private arity(n: Ast, count: number): void {
    if (n.args.length !== count) throw semanticError(n.pos, `'${n.val}' takes ${count} argument(s), got ${n.args.length}`);
  }

  private opcodeCall(n: Ast): IR {
    const pos = n.pos;
    const name = n.val.startsWith('~') ? n.val.slice(1) : n.val;
    const info = opcode(name);
    if (info === undefined) {
      if (TOP_LEVEL_FORMS.has(n.val)) throw semanticError(pos, `'${n.val}' is only allowed at the top level`);
      if (this.info.interns.has(n.val)) throw semanticError(pos, `unknown function '${n.val}': call functions of this contract as self.${n.val}(...)`);
      throw semanticError(pos, `unknown function '${n.val}'`);
    }
    let args = n.args;
    // The reference accepts delegatecall with a value argument and drops it.
    if (name.toLowerCase() === 'delegatecall' && args.length === 7) args = [args[0]!, args[1]!, ...args.slice(3)];
    if (args.length !== info.inputs) throw semanticError(pos, `${name}() takes ${info.inputs} argument(s), got ${args.length}`);
    return op(
      name.toLowerCase(),
      args.map((a) => this.lower(a)),
      pos,
    );
  }

  private assign(target: Node, valueNode: Node, pos: Pos): IR {
    if (target.type === 'token') {
      // `items=n` / `chars=n` are byte counts wherever they appear.
      if (target.val === 'items' || target.val === 'chars') return sizeBytes(target.val, this.lower(valueNode), pos);
      if (literalValue(target.val, target.pos) !== null) throw semanticError(target.pos, `cannot assign to literal ${target.val}`);
      return set(this.variable(target.val, target.pos), this.lower(valueNode), pos);
    }
    const value = (): IR => this.lower(valueNode);
    if (isStorageAccess(target)) {
      const slot = this.storageSlot(target);
      if (slot !== null) return op('sstore', [slot, value()], pos);
    }
    if (isAst(target, 'access', 2)) {
      const base = target.args[0]!;
      if (isSelfStorage(base)) return op('sstore', [this.lower(target.args[1]!), value()], pos);
      return mstore(add(this.lower(base), mul(num(32, pos), this.lower(target.args[1]!), pos), pos), value(), pos);
    }
    if (isAst(target, 'sload', 1)) return op('sstore', [this.lower(target.args[0]!), value()], pos);
    if (isAst(target, '.', 2)) throw semanticError(target.pos, `unknown storage variable or member '${show(target)}'`);
    throw semanticError(target.pos, `cannot assign to ${show(target)}`);
  }

  private conditional(n: Ast): IR {
    const pos = n.pos;
    if (n.args.length < 2 || n.args.length > 3) throw semanticError(pos, `'${n.val}' needs a condition and a body`);
    const cond = this.lower(n.args[0]!);
    const then = this.lower(n.args[1]!);
    const rest = n.args[2];
    if (rest === undefined) return iff(cond, then, null, pos);
    const otherwise = isAst(rest, 'else', 1) ? this.lower(rest.args[0]!) : this.lower(rest);
    return iff(cond, then, otherwise, pos);
  }

  private withForm(n: Ast): IR {
    const pos = n.pos;
    let name: Node;
    let init: Node;
    let body: Node;
    if (n.args.length === 2 && isAst(n.args[0]!, '=', 2)) {
      [name, init] = n.args[0].args as [Node, Node];
      body = n.args[1]!;
    } else if (n.args.length === 3) {
      [name, init, body] = n.args as [Node, Node, Node];
    } else {
      throw semanticError(pos, "expected 'with name = value:' followed by a block");
    }
    if (name.type !== 'token') throw semanticError(name.pos, 'with expects a variable name');
    return withVar(this.variable(name.val, name.pos), this.lower(init), this.lower(body), pos);
  }

  private minMax(n: Ast): IR {
    const pos = n.pos;
    this.arity(n, 2);
    const a = this.temp('a');
    const b = this.temp('b');
    const cmp = n.val.startsWith('unsigned') ? 'lt' : 'slt';
    const isMin = n.val.endsWith('min');
    const [first, second] = isMin ? [a, b] : [b, a];
    return withVar(
      a,
      this.lower(n.args[0]!),
      withVar(b, this.lower(n.args[1]!), iff(op(cmp, [get(a, pos), get(b, pos)], pos), get(first, pos), get(second, pos), pos), pos),
      pos,
    );
  }

  private storageSlot(target: Node): IR | null {
    const slot = resolveStorage(this.info.storage, target);
    return slot === null ? null : this.slotIR(slot, target.pos);
  }

  private slotIR(slot: StorageSlot, pos: Pos): IR {
    if (slot.kind === 'finite') {
      let out: IR = num(slot.base, pos);
      for (const t of slot.terms) out = add(out, mul(this.lower(t.index), num(t.coefficient, pos), pos), pos);
      return out;
    }
    const p = this.temp('key');
    const pv = get(p, pos);
    const stores = slot.terms.map((t, i) => mstore(add(pv, num(32 * i, pos), pos), typeof t === 'bigint' ? num(t, pos) : this.lower(t), pos));
    return withVar(p, alloc(num(32 * slot.terms.length, pos), pos), seq([...stores, op('sha3', [pv, num(32 * slot.terms.length, pos)], pos)], pos), pos);
  }

  private access(n: Ast): IR {
    const pos = n.pos;
    if (isStorageAccess(n)) {
      const slot = this.storageSlot(n);
      if (slot !== null) return op('sload', [slot], pos);
    }
    if (n.args.length !== 2) throw semanticError(pos, n.args.length === 1 ? 'missing index inside []' : 'use one index per []');
    const base = n.args[0]!;
    if (isSelfStorage(base)) return op('sload', [this.lower(n.args[1]!)], pos);
    if (isAst(base, '.', 2) && isToken(base.args[0]!, 'self')) throw semanticError(base.pos, `unknown storage variable '${base.args[1]!.val}'`);
    return op('mload', [add(this.lower(base), mul(num(32, pos), this.lower(n.args[1]!), pos), pos)], pos);
  }

  private member(n: Ast): IR {
    const pos = n.pos;
    if (isStorageAccess(n)) {
      const slot = this.storageSlot(n);
      if (slot !== null) return op('sload', [slot], pos);
    }
    const [obj, field] = n.args as [Node, Node];
    if (obj.type === 'token') {
      const opName = own(own(ENVIRONMENT, obj.val), field.val);
      if (opName !== undefined) return op(opName, [], pos);
      if (obj.val === 'tx' && field.val === 'gas') throw semanticError(pos, 'replace tx.gas with msg.gas');
      if (obj.val === 'block' && field.val === 'prevhash') return op('blockhash', [sub(op('number', [], pos), num(1, pos), pos)], pos);
    }
    if (field.val === 'balance') return op('balance', [this.lower(obj)], pos);
    if (isSelfStorage(n)) throw semanticError(pos, 'self.storage needs an index: self.storage[key]');
    throw semanticError(pos, `unknown storage variable or member '${show(n)}'`);
  }

  private reference(target: Node): IR {
    if (target.type === 'token') return ref(this.variable(target.val, target.pos), target.pos);
    if (isStorageAccess(target)) {
      const slot = this.storageSlot(target);
      if (slot !== null) return slot;
    }
    if (isAst(target, 'access', 2) && isSelfStorage(target.args[0]!)) return this.lower(target.args[1]!);
    throw semanticError(target.pos, `cannot take a reference to ${show(target)}`);
  }

  private prefix(n: Ast): IR {
    this.arity(n, 1);
    const t = n.args[0]!;
    if (!isAst(t, '.', 2)) throw semanticError(n.pos, 'prefix() expects self.function or contract.function');
    const name = t.args[1]!.val;
    const fn = isToken(t.args[0]!, 'self') ? this.info.interns.get(name) : this.info.externs.get(name);
    if (fn === undefined) throw semanticError(t.pos, `unknown function '${name}'`);
    return num(BigInt(fn.selector) << 224n, n.pos);
  }
}

function isSelfStorage(n: Node): boolean {
  return isAst(n, '.', 2) && isToken(n.args[0]!, 'self') && isToken(n.args[1]!, 'storage');
}
