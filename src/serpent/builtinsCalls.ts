// Message calls and logs: ABI-encoding arguments in memory, calling functions
// of this contract (`self.f(x)`, a real CALL like the reference) or of other
// contracts (`x.f(y)` via `extern`), emitting logs, `send` and `create`.

import { isAst, isToken, show, type Ast, type Node } from './ast.js';
import { argKind, type ArgKind } from './abi.js';
import { semanticError, type Pos } from './errors.js';
import { isStringLiteral } from './literals.js';
import { alloc, get, num, op, seq, set, withVar, type IR } from './ir.js';
import { add, ceil32, memcopy, mload, mstore, mul, sub, type Lowering } from './lowering.js';
import { lowerSha3 } from './builtinsMemory.js';

interface PackedArg {
  readonly value: IR;
  readonly kind: ArgKind;
}

/**
 * ABI-encodes `args` (optionally behind a 4-byte selector) into fresh memory
 * and hands the data's start and size to `inner`. Arguments are evaluated
 * left to right before anything in `inner`.
 */
export function packArguments(L: Lowering, args: readonly PackedArg[], selector: number | null, inner: (start: IR, size: IR) => IR, pos: Pos): IR {
  const n = args.length;
  const sel = selector === null ? 0 : 4;
  const at = (base: IR, k: number): IR => add(base, num(k, pos), pos);
  if (args.every((a) => a.kind === 'static')) {
    // Word-aligned buffer; the selector sits in the last 4 bytes of word 0.
    const p = L.temp('calldata');
    const pv = get(p, pos);
    const first = selector === null ? 0 : 32;
    return withVar(
      p,
      alloc(num(first + 32 * n, pos), pos),
      seq(
        [
          ...(selector === null ? [] : [mstore(pv, num(selector, pos), pos)]),
          ...args.map((a, i) => mstore(at(pv, first + 32 * i), a.value, pos)),
          inner(selector === null ? pv : at(pv, 28), num(sel + 32 * n, pos)),
        ],
        pos,
      ),
      pos,
    );
  }
  // Scratch: [0,32n) head words, [32n,64n) argument pointers, [64n,96n) tail sizes.
  const h = L.temp('head');
  const hv = get(h, pos);
  const off = L.temp('offset');
  const offv = get(off, pos);
  const d = L.temp('calldata');
  const dv = get(d, pos);
  const cur = L.temp('cursor');
  const curv = get(cur, pos);
  const ptr = (i: number): IR => mload(at(hv, 32 * n + 32 * i), pos);
  const size = (i: number): IR => mload(at(hv, 64 * n + 32 * i), pos);
  const collect = args.map((a, i) => mstore(at(hv, a.kind === 'static' ? 32 * i : 32 * n + 32 * i), a.value, pos));
  const measure = args.flatMap((a, i) => {
    if (a.kind === 'static') return [];
    const words = mload(sub(ptr(i), num(32, pos), pos), pos);
    const bytes = add(num(32, pos), a.kind === 'array' ? mul(num(32, pos), words, pos) : ceil32(words, pos), pos);
    return [mstore(at(hv, 32 * i), offv, pos), mstore(at(hv, 64 * n + 32 * i), bytes, pos), set(off, add(offv, size(i), pos), pos)];
  });
  const base = selector === null ? dv : at(dv, 32);
  const copyTails = args.flatMap((a, i) =>
    a.kind === 'static' ? [] : [memcopy(curv, sub(ptr(i), num(32, pos), pos), size(i), L, pos), set(cur, add(curv, size(i), pos), pos)],
  );
  const build = withVar(
    d,
    alloc(add(num(selector === null ? 0 : 32, pos), offv, pos), pos),
    seq(
      [
        ...(selector === null ? [] : [mstore(dv, num(selector, pos), pos)]),
        memcopy(base, hv, num(32 * n, pos), L, pos),
        withVar(
          cur,
          add(base, num(32 * n, pos), pos),
          seq([...copyTails, inner(selector === null ? dv : at(dv, 28), add(num(sel, pos), offv, pos))], pos),
          pos,
        ),
      ],
      pos,
    ),
    pos,
  );
  return withVar(h, alloc(num(96 * n, pos), pos), seq([...collect, withVar(off, num(32 * n, pos), seq([...measure, build], pos), pos)], pos), pos);
}

function keywordName(n: Node): string | null {
  return (isAst(n, '=', 2) || isAst(n, 'set', 2)) && n.args[0]!.type === 'token' ? n.args[0]!.val : null;
}

/** `(fun (. callee name) args...)`: a call to `self` or to an extern contract. */
export function lowerMethodCall(L: Lowering, n: Ast): IR {
  const pos = n.pos;
  const target = n.args[0]!;
  if (!isAst(target, '.', 2)) throw semanticError(pos, `cannot call ${show(target)}`);
  const callee = target.args[0]!;
  const name = target.args[1]!.val;
  const kw = new Map<string, Node>();
  const positional: Node[] = [];
  for (const a of n.args.slice(1)) {
    const k = keywordName(a);
    if (k === null) {
      positional.push(a);
      continue;
    }
    if (k === 'as') throw semanticError(a.pos, "the 'as' keyword is deprecated");
    if (!['gas', 'value', 'call', 'outitems', 'outsz', 'outchars'].includes(k)) {
      throw semanticError(a.pos, `unknown keyword argument '${k}' (expected gas, value, call, outitems or outchars)`);
    }
    kw.set(k === 'outsz' ? 'outitems' : k, (a as Ast).args[1]!);
  }
  const isSelf = isToken(callee, 'self');
  const fn = isSelf ? L.info.interns.get(name) : L.info.externs.get(name);
  if (fn === undefined) {
    throw semanticError(target.pos, isSelf ? `no function '${name}' in this contract` : `unknown function '${name}': declare it with extern`);
  }
  if ('ambiguous' in fn && fn.ambiguous) throw semanticError(target.pos, `ambiguous extern function '${name}' (declared with different signatures)`);
  if (positional.length !== fn.argTypes.length) {
    throw semanticError(pos, `'${name}' takes ${fn.argTypes.length} argument(s), got ${positional.length}`);
  }
  const out = argKind(fn.outType);
  const outItems = kw.get('outitems');
  const outChars = kw.get('outchars');
  const staticOut = fn.outType !== '' && out === 'static';
  if (staticOut && (outItems || outChars)) throw semanticError(pos, `'${name}' returns a single value; outitems/outchars are not valid`);
  if (out === 'bytes' && outItems) throw semanticError(pos, `'${name}' returns a string: use outchars instead of outitems`);
  if (out === 'bytes' && !outChars) throw semanticError(pos, `'${name}' returns a string: please specify maximum string length with outchars=`);
  if (out === 'array' && outChars) throw semanticError(pos, `'${name}' returns an array: use outitems instead of outchars`);
  if (out === 'array' && !outItems) throw semanticError(pos, `'${name}' returns an array: please specify maximum array length with outitems=`);

  let kind = 'call';
  const mode = kw.get('call');
  if (mode !== undefined) {
    if (isToken(mode, 'code')) kind = 'callcode';
    else if (isToken(mode, 'delegate')) kind = 'delegatecall';
    else throw semanticError(mode.pos, 'call= must be code or delegate');
  }
  const args = positional.map((a, i) => ({ value: L.lower(a), kind: argKind(fn.argTypes[i]!) }));
  const inner = (start: IR, size: IR): IR => {
    const gas = kw.has('gas') ? L.lower(kw.get('gas')!) : op('gas', [], pos);
    const to = L.lower(callee);
    const value = kw.has('value') ? L.lower(kw.get('value')!) : num(0, pos);
    const message = (outStart: IR, outSize: IR): IR =>
      op(kind, kind === 'delegatecall' ? [gas, to, start, size, outStart, outSize] : [gas, to, value, start, size, outStart, outSize], pos);
    if (outItems === undefined && outChars === undefined) {
      const t = L.temp('result');
      return seq([op('pop', [message({ k: 'ref', name: t, pos }, num(32, pos))], pos), get(t, pos)], pos);
    }
    const count = L.temp('outlen');
    const buf = L.temp('outbuf');
    const bytes = outItems !== undefined ? mul(num(32, pos), get(count, pos), pos) : get(count, pos);
    return withVar(
      count,
      L.lower(outItems ?? outChars!),
      withVar(
        buf,
        alloc(add(bytes, num(64, pos), pos), pos),
        seq([op('pop', [message(get(buf, pos), add(num(64, pos), bytes, pos))], pos), add(get(buf, pos), num(64, pos), pos)], pos),
        pos,
      ),
      pos,
    );
  };
  return packArguments(L, args, fn.selector, inner, pos);
}

/** log(topics..., data=arr) or ABI events: log(type=name, args...). */
export function lowerLog(L: Lowering, n: Ast): IR {
  const pos = n.pos;
  const topics: Node[] = [];
  let data: { node: Node; chars: boolean } | null = null;
  let type: string | null = null;
  for (const a of n.args) {
    const k = keywordName(a);
    if (k === null) topics.push(a);
    else if (k === 'data' || k === 'dataarr' || k === 'datastr') data = { node: (a as Ast).args[1]!, chars: k === 'datastr' };
    else if (k === 'type') {
      const t = (a as Ast).args[1]!;
      type = t.type === 'token' && isStringLiteral(t.val) ? t.val.slice(1, -1) : t.val;
    } else throw semanticError(a.pos, `unknown log keyword '${k}' (expected type, data or datastr)`);
  }
  if (type !== null) {
    const ev = L.info.events.get(type);
    if (ev === undefined) throw semanticError(pos, `unknown event '${type}'`);
    if (topics.length !== ev.argTypes.length) {
      throw semanticError(pos, `event '${type}' takes ${ev.argTypes.length} argument(s), got ${topics.length}`);
    }
    const serialized: PackedArg[] = [];
    const indexed: IR[] = [];
    topics.forEach((t, i) => {
      const kind = argKind(ev.argTypes[i]!);
      if (!ev.indexed[i]) serialized.push({ value: L.lower(t), kind });
      else if (kind === 'bytes') {
        // Indexed strings: the data carries the string, the topic its hash.
        const v = L.temp('logstr');
        serialized.push({ value: seq([set(v, L.lower(t), pos), get(v, pos)], pos), kind });
        indexed.push(
          lowerSha3(L, {
            type: 'ast',
            val: 'sha3',
            args: [
              {
                type: 'ast',
                val: ':',
                args: [
                  { type: 'token', val: v, pos },
                  { type: 'token', val: 'str', pos },
                ],
                pos,
              },
            ],
            pos,
          }),
        );
      } else indexed.push(L.lower(t));
    });
    return packArguments(L, serialized, null, (start, size) => op(`log${indexed.length + 1}`, [start, size, num(ev.topic, pos), ...indexed], pos), pos);
  }
  if (topics.length > 4) throw semanticError(pos, 'a log can have at most 4 topics');
  const lowered = topics.map((t) => L.lower(t));
  if (data === null) return op(`log${topics.length}`, [num(0, pos), num(0, pos), ...lowered], pos);
  const d = L.temp('logdata');
  const dv = get(d, pos);
  const length = mload(sub(dv, num(32, pos), pos), pos);
  return withVar(d, L.lower(data.node), op(`log${topics.length}`, [dv, data.chars ? length : mul(num(32, pos), length, pos), ...lowered], pos), pos);
}

/** send(to, value) / send(gas, to, value): a plain value transfer. */
export function lowerSend(L: Lowering, n: Ast): IR {
  const pos = n.pos;
  if (n.args.length !== 2 && n.args.length !== 3) throw semanticError(pos, `send() takes 2 or 3 arguments, got ${n.args.length}`);
  const [gas, to, value] = n.args.length === 3 ? n.args : [null, n.args[0]!, n.args[1]!];
  const z = (): IR => num(0, pos);
  return op('call', [gas === null ? z() : L.lower(gas), L.lower(to!), L.lower(value!), z(), z(), z(), z()], pos);
}

/** create(value, start, size) is the opcode; create("file") deploys a file. */
export function lowerCreate(L: Lowering, n: Ast): IR {
  const pos = n.pos;
  if (n.args.length === 3)
    return op(
      'create',
      n.args.map((a) => L.lower(a)),
      pos,
    );
  if (n.args.length !== 1 && n.args.length !== 2) throw semanticError(pos, `create() takes 1 to 3 arguments, got ${n.args.length}`);
  const file = n.args[n.args.length - 1]!;
  if (file.type !== 'token' || !isStringLiteral(file.val)) {
    throw semanticError(file.pos, 'create() expects a contract file name ("x.se") or (value, memstart, memsize)');
  }
  const program = L.compileFile(file.val.slice(1, -1), file.pos);
  const endowment = n.args.length === 2 ? L.lower(n.args[0]!) : num(0, pos);
  const m = L.temp('codeat');
  const mv = get(m, pos);
  return withVar(m, op('msize', [], pos), op('create', [endowment, mv, { k: 'code', unit: program, dest: mv, runtime: false, pos }], pos), pos);
}
