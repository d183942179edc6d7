/**
 * Parity's vmTrace (trace_replay*, trace_call*: the "vmTrace" trace type), as OpenEthereum
 * and Erigon write it: per frame its code and one record per opcode, with what the opcode
 * cost, the gas left after it (`used`, OpenEthereum's name), the values it pushed, the
 * memory it wrote, the slot it stored, and the frame it opened (`sub`).
 *
 * An opcode's effects are only visible once it has run, so its record is completed at the
 * next step of its own frame (the stack and memory then are those it left), as Erigon's
 * tracer does; a CALL or CREATE's record after its callee returned.
 */
import type { InterpreterStep, Message } from '@ethereumjs/evm';
import { type ExecutionTracer, type TraceBudget, type TraceEnv, listen, traceTooLarge } from './tracing.js';

export interface VmOp {
  readonly pc: number;
  readonly op: string;
  /** The opcode's gas; a CALL's or CREATE's includes the gas it gave its callee (less a value call's stipend). */
  cost: bigint;
  /** null when the opcode could not pay for itself (it ran out of gas). */
  ex: VmExecuted | null;
  /** The frame a CALL, CALLCODE, DELEGATECALL, STATICCALL, CREATE or CREATE2 opened. */
  sub: VmFrame | null;
  /** Erigon's navigation index: the calling ops' indexes and this one's, joined by "-". */
  readonly idx: string;
}

export interface VmExecuted {
  /** Gas left after the opcode (after its callee returned, for a call). */
  used: bigint;
  /** What the opcode left on the stack: its result, or for DUPn/SWAPn the n+1 words it moved. */
  push: bigint[];
  /** The memory it wrote (MSTORE, MSTORE8, MLOAD, *COPY, a call's output area), as it was after. */
  mem: { readonly off: number; readonly data: Uint8Array } | null;
  /** SSTORE's slot and value. */
  store: { readonly key: bigint; readonly val: bigint } | null;
}

export interface VmFrame {
  /** The code that ran: the callee's, or a creation's init code. */
  code: Uint8Array;
  readonly ops: VmOp[];
}

/** Opcodes that push nothing (all others push one word, but DUPn and SWAPn, which show n+1). */
const PUSH_NOTHING: ReadonlySet<string> = new Set([
  'STOP',
  'POP',
  'MSTORE',
  'MSTORE8',
  'SSTORE',
  'TSTORE',
  'JUMP',
  'JUMPI',
  'JUMPDEST',
  'CALLDATACOPY',
  'CODECOPY',
  'EXTCODECOPY',
  'RETURNDATACOPY',
  'MCOPY',
  'RETURN',
  'REVERT',
  'INVALID',
  'SELFDESTRUCT',
  'LOG0',
  'LOG1',
  'LOG2',
  'LOG3',
  'LOG4',
]);

const CALLS: ReadonlySet<string> = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL']);
const CREATES: ReadonlySet<string> = new Set(['CREATE', 'CREATE2']);
const CALL_STIPEND = 2300n;
/** A memory area past this is not a real write (the opcode failed on its memory cost). */
const MAX_MEMORY_AREA = 64n * 1024n * 1024n;

function pushCount(op: string): number {
  if (op.startsWith('DUP') || op.startsWith('SWAP')) return Number(op.slice(op.startsWith('DUP') ? 3 : 4)) + 1;
  return PUSH_NOTHING.has(op) ? 0 : 1;
}

/** [offset, length] of the memory `op` writes, read from the stack before it runs. */
function writtenArea(op: string, stack: readonly bigint[]): readonly [bigint, bigint] | undefined {
  const top = (n: number): bigint | undefined => stack[stack.length - 1 - n];
  const area = (off: bigint | undefined, len: bigint | undefined) => (off === undefined || len === undefined ? undefined : ([off, len] as const));
  switch (op) {
    case 'MSTORE':
    case 'MLOAD':
      return area(top(0), 32n);
    case 'MSTORE8':
      return area(top(0), 1n);
    case 'CALLDATACOPY':
    case 'CODECOPY':
    case 'RETURNDATACOPY':
    case 'MCOPY':
      return area(top(0), top(2));
    case 'EXTCODECOPY':
      return area(top(1), top(3));
    case 'CALL':
    case 'CALLCODE':
      return area(top(5), top(6));
    case 'DELEGATECALL':
    case 'STATICCALL':
      return area(top(4), top(5));
    default:
      return undefined;
  }
}

interface OpenFrame {
  readonly trace: VmFrame;
  readonly message: Message;
  /** The frame's latest op, completed at the frame's next step, and the area it writes. */
  last?: { readonly op: VmOp; readonly area?: readonly [bigint, bigint]; readonly opened: boolean };
}

export class VmTracer implements ExecutionTracer {
  /** The transaction's own frame, once it started. */
  root: VmFrame | undefined;
  private readonly open: OpenFrame[] = [];

  constructor(readonly budget: TraceBudget) {}

  attach(env: TraceEnv): () => void {
    return listen(env, {
      step: (step) => this.step(step),
      beforeMessage: (message) => this.enter(message),
      afterMessage: () => this.exit(),
    });
  }

  private step(step: InterpreterStep): void {
    // Past the budget the run is stopped (not an EVM error: the whole run ends), as the struct logger's.
    if (this.budget.exceeded) throw traceTooLarge('traces');
    const frame = this.open[this.open.length - 1];
    if (!frame) return;
    if (frame.last) this.complete(frame.last, step);
    const op = step.opcode.name;
    const cost = BigInt(step.opcode.dynamicFee ?? step.opcode.fee);
    const used = step.gasLeft - cost;
    const stack = step.stack;
    const record: VmOp = {
      pc: step.pc,
      op,
      cost,
      ex:
        used < 0n
          ? null
          : {
              used,
              push: [],
              mem: null,
              store: op === 'SSTORE' && stack.length >= 2 ? { key: stack[stack.length - 1]!, val: stack[stack.length - 2]! } : null,
            },
      sub: null,
      idx: `${this.prefix()}${frame.trace.ops.length}`,
    };
    if (!this.budget.take(120 + 40 * pushCount(op))) return;
    frame.trace.ops.push(record);
    frame.last = { op: record, area: writtenArea(op, stack), opened: false };
  }

  /** The previous op of the frame, from the state it left: its pushes, the memory it wrote, its callee's gas. */
  private complete(last: NonNullable<OpenFrame['last']>, step: InterpreterStep): void {
    const { op, area, opened } = last;
    if (!op.ex) return;
    const count = pushCount(op.op);
    op.ex.push = step.stack.slice(Math.max(0, step.stack.length - count));
    if (opened) op.ex.used = step.gasLeft;
    // A creation's memory is not written back; a call writes its output area.
    if (area && area[1] > 0n && area[1] <= MAX_MEMORY_AREA && !CREATES.has(op.op)) {
      const [off, len] = [Number(area[0]), Number(area[1])];
      const data = new Uint8Array(len);
      data.set(step.memory.subarray(off, off + len));
      if (this.budget.take(data.length)) op.ex.mem = { off, data };
    }
  }

  private enter(message: Message): void {
    const trace: VmFrame = { code: new Uint8Array(), ops: [] };
    const parent = this.open[this.open.length - 1];
    if (!parent) this.root = trace;
    else if (parent.last && (CALLS.has(parent.last.op.op) || CREATES.has(parent.last.op.op))) {
      const caller = parent.last.op;
      caller.sub = trace;
      // As go-ethereum (and so Erigon) count a call's cost: with the gas it passes on, without the stipend a value transfer adds.
      caller.cost += message.gasLimit - (CALLS.has(caller.op) && message.value > 0n ? CALL_STIPEND : 0n);
      parent.last = { ...parent.last, opened: true };
    }
    this.open.push({ trace, message });
  }

  private exit(): void {
    const frame = this.open.pop();
    if (!frame) return;
    // The code is loaded once the message runs (a precompile's is a function: no code).
    const { code, to, data } = frame.message;
    frame.trace.code = to === undefined ? data.slice() : code instanceof Uint8Array ? code.slice() : new Uint8Array();
    this.budget.take(frame.trace.code.length);
  }

  /** Erigon's idx prefix: the index of each open call's op in its frame. */
  private prefix(): string {
    let out = '';
    for (let i = 0; i < this.open.length - 1; i++) out += `${this.open[i]!.trace.ops.length - 1}-`;
    return out;
  }
}
