/**
 * Execution tracers for debug_traceTransaction / debug_traceCall, on the EVM's step and
 * message events: go-ethereum's struct logger (one record per opcode) and its callTracer
 * (the tree of calls). They collect engine values; the RPC layer writes them as
 * go-ethereum's JSON.
 */
import type { EVM, EVMResult, InterpreterStep, Message } from '@ethereumjs/evm';
import type { RunTxResult, VM } from '@ethereumjs/vm';
import { type Address, bigIntToBytes, createAddressFromBigInt, setLengthLeft } from '@ethereumjs/util';
import { executionErrorText, revertReason } from '../execution/revert.js';
import { TraceBudget, traceTooLarge } from './budget.js';
import { type StructLogFields, StructLogStore } from './structLogStore.js';

export { TraceBudget, traceTooLarge };

/** Where a traced transaction runs: its VM (events, state) and its block's coinbase. */
export interface TraceEnv {
  readonly vm: VM;
  readonly coinbase: Address;
}

export interface ExecutionTracer {
  /** Subscribes to the VM's and EVM's events; returns the unsubscribe function. */
  attach(env: TraceEnv): () => void;
}

/** A traced run: its result, and how many logs earlier transactions of its block emitted. */
export interface TracedRun {
  readonly result: RunTxResult;
  readonly logsBefore: number;
  /** Where the transaction is (none for a call): flatCallTracer and trace_* name it. */
  readonly location?: TxLocation;
}

export interface TxLocation {
  readonly blockHash: Uint8Array;
  readonly blockNumber: bigint;
  readonly index: number;
  readonly txHash: Uint8Array;
}

export type EvmListeners = {
  readonly step: (step: InterpreterStep, done?: (result?: unknown) => void) => void;
  readonly beforeMessage: (message: Message) => void;
  readonly afterMessage: (result: EVMResult) => void;
};

/** Subscribes to the EVM's step and message events; returns the unsubscribe function. */
export function listen(env: TraceEnv, listeners: EvmListeners): () => void {
  const events = (env.vm.evm as EVM).events!;
  events.on('step', listeners.step);
  events.on('beforeMessage', listeners.beforeMessage);
  events.on('afterMessage', listeners.afterMessage);
  return () => {
    events.off('step', listeners.step);
    events.off('beforeMessage', listeners.beforeMessage);
    events.off('afterMessage', listeners.afterMessage);
  };
}

// ---- struct logs ------------------------------------------------------------------------

export interface StructLogOptions {
  readonly disableStack: boolean;
  readonly disableStorage: boolean;
  readonly enableMemory: boolean;
  readonly enableReturnData: boolean;
  /**
   * go-ethereum's `limit` (since 1.14.13): once the records written so far take more than
   * this many bytes of output, no more are kept (0: no limit).
   */
  readonly limit: number;
  /** The size of a record as the answer writes it (the RPC layer knows the encoding); needed with a limit. */
  readonly measure?: (log: StructLog) => number;
}

export interface StructLog {
  readonly pc: number;
  readonly op: string;
  /** Gas left before the opcode. */
  readonly gas: bigint;
  /** What the opcode costs, gas passed to a callee included (as go-ethereum counts it). */
  gasCost: bigint;
  /** 1 for the transaction's own frame, as go-ethereum counts. */
  readonly depth: number;
  readonly refund: bigint;
  readonly stack?: readonly bigint[];
  /** The memory before the opcode (enableMemory). */
  readonly memory?: Uint8Array;
  /** enableReturnData: what the frame's last call or creation returned (empty: left out). */
  readonly returnData?: Uint8Array;
  /** After SLOAD and SSTORE: every slot of this contract read or written so far (32-byte hex keys and values). */
  readonly storage?: ReadonlyMap<string, string>;
  /** Why the frame halted at this opcode, when it failed other than by REVERT. */
  error?: string;
}

export class StructLogTracer implements ExecutionTracer {
  /** The records, in columns (structLogStore.ts): `logs.at(i)` makes one as a StructLog. */
  readonly logs = new StructLogStore();
  private outputBytes = 0;
  private readonly storage = new Map<string, Map<string, string>>();
  /** The index of the latest record of each open call depth (none yet: undefined), to mark the one where a frame failed. */
  private readonly lastAtDepth: Array<number | undefined> = [];
  /** Each open frame's return data buffer: what its last call or creation returned. */
  private readonly returnData: Uint8Array[] = [];
  private readonly createdDepths: boolean[] = [];

  constructor(
    private readonly options: StructLogOptions,
    readonly budget = new TraceBudget(),
  ) {}

  /** Set when the records passed the budget: the trace is too large to answer. */
  get tooLarge(): boolean {
    return this.budget.exceeded;
  }

  attach(env: TraceEnv): () => void {
    return listen(env, {
      // Two arguments: the EVM waits for `done`, so SLOAD's value can be read from state first.
      step: (step, done) => {
        // Not an EVM error: the EVM stops the whole run instead of failing one frame.
        if (this.tooLarge) throw traceTooLarge();
        this.record(step).then(
          () => done?.(),
          () => done?.(),
        );
      },
      beforeMessage: (message) => {
        this.returnData.push(new Uint8Array());
        this.createdDepths.push(message.to === undefined);
        // ethereumjs charges a callee's gas apart from the CALL or CREATE that passes it;
        // go-ethereum counts it in the opcode's cost (without the stipend a value transfer adds).
        const caller = this.lastAtDepth[this.lastAtDepth.length - 1];
        if (caller !== undefined) {
          const op = this.logs.opAt(caller);
          this.logs.addGasCost(caller, message.gasLimit - (op !== 'CREATE' && op !== 'CREATE2' && message.value > 0n ? CALL_STIPEND : 0n));
        }
        this.lastAtDepth.push(undefined);
      },
      afterMessage: (result) => {
        const failure = result.execResult.exceptionError;
        const last = this.lastAtDepth.pop();
        if (failure && failure.error !== 'revert' && last !== undefined) this.logs.setError(last, executionErrorText(failure.error));
        this.returnData.pop();
        const created = this.createdDepths.pop();
        // The caller's RETURNDATA: a call's output, a creation's only when it reverted.
        const kept = failure
          ? failure.error === 'revert'
            ? result.execResult.returnValue
            : new Uint8Array()
          : created
            ? new Uint8Array()
            : result.execResult.returnValue;
        if (this.returnData.length > 0) this.returnData[this.returnData.length - 1] = kept.slice();
      },
    });
  }

  private async record(step: InterpreterStep): Promise<void> {
    const { limit, measure } = this.options;
    // go-ethereum stops recording (and tracking storage) once the output passed the limit;
    // the records kept are final (no callee's gas or failure is added to them later).
    if (limit > 0 && this.outputBytes > limit) {
      this.lastAtDepth[this.lastAtDepth.length - 1] = undefined;
      return;
    }
    const op = step.opcode.name;
    let storage: ReadonlyMap<string, string> | undefined;
    if (!this.options.disableStorage && (op === 'SLOAD' || op === 'SSTORE') && step.stack.length >= (op === 'SLOAD' ? 1 : 2)) {
      const slot = step.stack[step.stack.length - 1]!;
      const key = word(slot);
      const contract = step.address.toString();
      let slots = this.storage.get(contract);
      if (!slots) this.storage.set(contract, (slots = new Map()));
      if (op === 'SLOAD') {
        const value = await step.stateManager.getStorage(step.address, setLengthLeft(bigIntToBytes(slot), 32));
        slots.set(key, Buffer.from(setLengthLeft(value, 32)).toString('hex'));
      } else {
        slots.set(key, word(step.stack[step.stack.length - 2]!));
      }
      storage = new Map(slots);
    }
    const fields: StructLogFields = {
      pc: step.pc,
      op,
      gas: step.gasLeft,
      gasCost: BigInt(step.opcode.dynamicFee ?? step.opcode.fee),
      depth: step.depth + 1,
      refund: step.gasRefund,
      // The interpreter's own array: the store copies its words (no array kept per record).
      stack: this.options.disableStack ? undefined : step.stack,
      memory: this.options.enableMemory ? step.memory.slice() : undefined,
      returnData: this.options.enableReturnData ? this.returnData[this.returnData.length - 1] : undefined,
      storage,
    };
    const bytes = 100 + 40 * (fields.stack?.length ?? 0) + (fields.memory?.length ?? 0) + (fields.returnData?.length ?? 0) + 140 * (storage?.size ?? 0);
    if (!this.budget.take(bytes)) {
      // Past the budget the trace is refused (tooLarge); nothing more is kept.
      this.lastAtDepth[this.lastAtDepth.length - 1] = undefined;
      return;
    }
    const index = this.logs.push(fields);
    if (limit > 0) this.outputBytes += measure ? measure(this.logs.at(index)) : bytes;
    this.lastAtDepth[this.lastAtDepth.length - 1] = index;
  }
}

/** Gas a value-moving call adds for its callee, beyond what the caller passes. */
const CALL_STIPEND = 2300n;

/** A storage word as go-ethereum keys it: 64 hex digits, no prefix. */
function word(value: bigint): string {
  return value.toString(16).padStart(64, '0');
}

// ---- call tree -----------------------------------------------------------------------------

export type CallType = 'CALL' | 'CALLCODE' | 'DELEGATECALL' | 'STATICCALL' | 'CREATE' | 'CREATE2' | 'SELFDESTRUCT';

export interface CallLog {
  readonly address: Address;
  readonly topics: readonly Uint8Array[];
  readonly data: Uint8Array;
  /** How many calls of the frame came before it. */
  readonly position: number;
  /** Its index among the logs the transaction kept (set when the run ends). */
  index: number;
  /** Emission order within the run. */
  readonly sequence: number;
}

export interface CallFrame {
  readonly type: CallType;
  readonly from: Address;
  to: Address | undefined;
  /** Absent for DELEGATECALL and STATICCALL, which move no value. */
  readonly value: bigint | undefined;
  readonly gas: bigint;
  gasUsed: bigint;
  input: Uint8Array;
  output: Uint8Array;
  error?: string;
  revertReason?: string;
  readonly calls: CallFrame[];
  /** withLog: the frame's logs (none once it failed: reverted logs did not happen). */
  logs: CallLog[];
  /**
   * withLog: the logs a failed frame emitted before it (or a caller) failed, which the chain
   * discarded; kept aside so named traces can show them as forge does. Never in `logs`.
   */
  revertedLogs?: CallLog[];
  /** A call to a precompile (flatCallTracer and 4byteTracer leave these out). */
  readonly precompile: boolean;
  /** CREATE/CREATE2: the address it created, or would have (Otterscan lists failed creations too). */
  createAddress?: Address;
  /** withCode: the code the frame ran (a creation's init code), to tell which contract it was. */
  code?: Uint8Array;
}

/** Memory a LOG could reach within a block's gas (about 6 MiB at 30M gas), with room to spare. */
const MAX_LOG_BYTES = 64 * 1024 * 1024;

const CALL_OPCODES: ReadonlySet<string> = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2']);

/** go-ethereum's callTracer: one frame per message, typed by the opcode that made it. */
export class CallTracer implements ExecutionTracer {
  /** The transaction's own frame, once it has run. */
  root: CallFrame | undefined;
  private readonly open: CallFrame[] = [];
  /** The open frames' messages: the EVM loads a call's code into its message after beforeMessage. */
  private readonly messages: Message[] = [];
  private lastOpcode = '';
  private logsEmitted = 0;
  private evm: EVM | undefined;

  /** The whole tree is kept even for onlyTopCall: log indexes count the callees' logs too. */
  constructor(
    private readonly withLog: boolean,
    readonly budget = new TraceBudget(),
    /** Keep each frame's code (the contract it ran, for naming it); a reference, not a copy. */
    private readonly withCode = false,
  ) {}

  attach(env: TraceEnv): () => void {
    this.evm = env.vm.evm as EVM;
    return listen(env, {
      step: (step) => {
        const op = step.opcode.name;
        if (CALL_OPCODES.has(op)) this.lastOpcode = op;
        else if (op === 'SELFDESTRUCT') this.selfdestruct(step);
        else if (this.withLog && op.startsWith('LOG')) this.log(step);
      },
      beforeMessage: (message) => this.enter(message),
      afterMessage: (result) => this.exit(result),
    });
  }

  private enter(message: Message): void {
    const top = this.open.length === 0;
    const type: CallType = top ? (message.to ? 'CALL' : 'CREATE') : (this.lastOpcode as CallType);
    // go-ethereum's view: a DELEGATECALL is made by the delegating contract to the code it
    // borrows (and carries its value); a CALLCODE goes to the code it borrows.
    const borrowsCode = type === 'DELEGATECALL' || type === 'CALLCODE';
    const frame: CallFrame = {
      type,
      from: type === 'DELEGATECALL' ? message.to! : message.caller,
      to: borrowsCode ? message.codeAddress : message.to,
      value: type === 'STATICCALL' ? undefined : message.value,
      gas: message.gasLimit,
      gasUsed: 0n,
      input: message.data.slice(), // a copy: the EVM reuses the buffer (a creation's init code too)
      output: new Uint8Array(),
      calls: [],
      logs: [],
      precompile: message.to !== undefined && this.evm?.getPrecompile(message.codeAddress) !== undefined,
    };
    // Past the budget the frame is still tracked (the tree must stay whole) but its data is not kept.
    if (!this.budget.take(200 + frame.input.length)) frame.input = new Uint8Array();
    if (top) this.root = frame;
    else this.open[this.open.length - 1]!.calls.push(frame);
    this.open.push(frame);
    if (this.withCode) this.messages.push(message);
  }

  private exit(result: EVMResult): void {
    const frame = this.open.pop();
    if (!frame) return;
    if (this.withCode) {
      const code = this.messages.pop()?.code;
      // Precompiles' code is a function: they are named by their address.
      if (code instanceof Uint8Array) frame.code = code;
    }
    const { execResult } = result;
    frame.gasUsed = execResult.executionGasUsed;
    frame.output = this.budget.take(execResult.returnValue.length) ? execResult.returnValue.slice() : new Uint8Array();
    const failure = execResult.exceptionError;
    // A failed creation created nothing: go-ethereum (and Anvil) name no address.
    if (frame.type === 'CREATE' || frame.type === 'CREATE2') {
      frame.createAddress = result.createdAddress;
      frame.to = failure ? undefined : result.createdAddress;
    }
    if (failure) {
      frame.error = executionErrorText(failure.error);
      clearLogs(frame);
      if (failure.error === 'revert') frame.revertReason = revertReason(execResult.returnValue);
      // A failed creation deploys nothing; go-ethereum reports no output then, unless it reverted.
      else frame.output = new Uint8Array();
    }
  }

  /**
   * go-ethereum's SELFDESTRUCT frame: the contract sends its balance to the beneficiary, a
   * call of no gas and no input, listed among the frame's calls.
   */
  private selfdestruct(step: InterpreterStep): void {
    const frame = this.open[this.open.length - 1];
    if (!frame || step.stack.length < 1) return;
    const beneficiary = createAddressFromBigInt(step.stack[step.stack.length - 1]! & ((1n << 160n) - 1n));
    frame.calls.push({
      type: 'SELFDESTRUCT',
      from: step.address,
      to: beneficiary,
      value: step.account.balance,
      gas: 0n,
      gasUsed: 0n,
      input: new Uint8Array(),
      output: new Uint8Array(),
      calls: [],
      logs: [],
      precompile: false,
    });
  }

  /** LOGn before it runs: its data is in memory (zeros past its end, which the opcode would allocate). */
  private log(step: InterpreterStep): void {
    const frame = this.open[this.open.length - 1];
    if (!frame) return;
    const stack = step.stack;
    const count = Number(step.opcode.name.slice('LOG'.length));
    if (stack.length < 2 + count) return; // the opcode fails on its own
    const offset = Number(stack[stack.length - 1]!);
    const size = Number(stack[stack.length - 2]!);
    if (offset + size > MAX_LOG_BYTES) return; // far more memory than any gas limit pays for: the opcode fails
    const data = new Uint8Array(size);
    data.set(step.memory.subarray(offset, offset + size));
    const topics = Array.from({ length: count }, (_, i) => setLengthLeft(bigIntToBytes(stack[stack.length - 3 - i]!), 32));
    frame.logs.push({ address: step.address, topics, data, position: frame.calls.length, index: 0, sequence: this.logsEmitted++ });
  }

  /**
   * Numbers the logs the transaction kept, in the order they were emitted, after `before`
   * logs of earlier transactions in the block (go-ethereum's log index).
   */
  numberLogs(before: number): void {
    const kept: CallLog[] = [];
    const collect = (frame: CallFrame): void => {
      kept.push(...frame.logs);
      frame.calls.forEach(collect);
    };
    if (this.root) collect(this.root);
    kept.sort((a, b) => a.sequence - b.sequence).forEach((log, i) => (log.index = before + i));
  }
}

/** A failed frame's logs, and those of its calls, were rolled back: set aside as revertedLogs. */
function clearLogs(frame: CallFrame): void {
  if (frame.logs.length > 0) frame.revertedLogs = [...(frame.revertedLogs ?? []), ...frame.logs];
  frame.logs = [];
  for (const call of frame.calls) clearLogs(call);
}
