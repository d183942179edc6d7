/**
 * @ethereumjs/evm does not export its Interpreter class; two engine shortcuts and a fix
 * change its prototype (jumpAnalysis.ts, stepLoop.ts, revertTraceGuard.ts). This is the part
 * of it they rely on; the version is pinned in package.json, and tests fail if any of them
 * stops being used (test/engine/evmShortcuts.test.ts, test/integration/tracing.test.ts).
 */
import { createEVM } from '@ethereumjs/evm';

export interface JumpAnalysis {
  readonly jumps: Uint8Array;
  readonly pushes: Record<number, bigint>;
  readonly opcodesCached: OpcodeEntry[];
}

export interface OpcodeInfo {
  readonly code: number;
  readonly feeBigInt: bigint;
  readonly dynamicGas: boolean;
  readonly isAsync: boolean;
  readonly isInvalid: boolean;
}

/** One row of the EVM's opcode table. */
export interface OpcodeEntry {
  readonly opcodeInfo: OpcodeInfo;
  readonly opHandler: (runState: RunState, common: unknown) => unknown;
}

export interface RunState {
  memory: { read(offset: number, size: number): Uint8Array; readonly _store: Uint8Array };
  readonly stack: { peek(count: number): bigint[] };
  programCounter: number;
  opCode: number;
  readonly gasLeft: bigint;
  code: Uint8Array;
  validJumps: Uint8Array;
  cachedPushes: Record<number, bigint>;
  shouldDoJumpAnalysis: boolean;
  readonly interpreter: object;
}

export interface RunResult {
  readonly runState: RunState;
  readonly exceptionError?: unknown;
}

export interface Interpreter {
  readonly _evm: {
    readonly _opcodeMap: object;
    readonly DEBUG: boolean;
    readonly events: { listenerCount(event: string): number };
  };
  readonly _runState: RunState;
  /** The frame's result so far: its logs, and those of its children that succeeded. */
  readonly _result: { readonly logs: readonly object[] };
  readonly common: { isActivatedEIP(eip: number): boolean; param(name: string): bigint };
  readonly profilerOpts?: { readonly enabled?: boolean };
  run(code: Uint8Array, opts?: { pc?: number }): Promise<RunResult>;
  runStep(entry?: OpcodeEntry): Promise<void>;
  lookupOpInfo(opCode: number): OpcodeEntry;
  useGas(amount: bigint, context?: OpcodeInfo): void;
  _getValidJumpDestinations(code: Uint8Array): JumpAnalysis;
}

/** The prototype's methods, called with an interpreter as `this`. */
export interface InterpreterPrototype {
  run(this: Interpreter, code: Uint8Array, opts?: { pc?: number }): Promise<RunResult>;
  /** One step of the library's loop (and of stepLoop.ts's for steps that may wait). */
  runStep(this: Interpreter, entry?: OpcodeEntry): Promise<void>;
  /** Emits the step event to listeners (tracers). */
  _runStepHook(this: Interpreter, dynamicFee: bigint, gasLeft: bigint, memoryWordCount: bigint): Promise<void>;
  _getValidJumpDestinations(this: Interpreter, code: Uint8Array): JumpAnalysis;
  /** LOG0..LOG4: appends [address, topics, data] to the frame's result logs. */
  log(this: Interpreter, data: Uint8Array, numberOfTopics: number, topics: Uint8Array[]): void;
}

let found: Promise<InterpreterPrototype> | undefined;

/**
 * Every opcode handler receives the run state, which holds the interpreter: a scratch
 * EVM runs a lone STOP whose handler is wrapped to look at it (once per process; the
 * scratch EVM has its own opcode table and state, nothing else is touched).
 */
export function interpreterPrototype(): Promise<InterpreterPrototype> {
  found ??= (async () => {
    const evm = await createEVM();
    const table = (evm as unknown as { _opcodeMap: OpcodeEntry[] })._opcodeMap;
    const stop = table[0x00]!;
    let prototype: InterpreterPrototype | undefined;
    table[0x00] = {
      ...stop,
      opHandler(runState, common) {
        prototype = Object.getPrototypeOf(runState.interpreter) as InterpreterPrototype;
        return stop.opHandler(runState, common);
      },
    };
    await evm.runCode({ code: new Uint8Array([0x00]), gasLimit: 100_000n });
    if (!prototype) throw new Error('@ethereumjs/evm changed: no interpreter seen in an opcode handler');
    return prototype;
  })();
  return found;
}

type PrototypeMethod = keyof InterpreterPrototype;

/**
 * Replaces one of the interpreter's methods, once per process: the replacement is marked,
 * so a second copy of this module (the bundled CLI and dist/ in one process) leaves it be.
 */
export async function replaceInterpreterMethod<K extends PrototypeMethod>(
  name: K,
  make: (original: InterpreterPrototype[K]) => InterpreterPrototype[K],
): Promise<void> {
  const prototype = await interpreterPrototype();
  const original = prototype[name];
  if ((original as { byChainSim?: true }).byChainSim) return;
  prototype[name] = Object.assign(make(original), { byChainSim: true as const });
}
