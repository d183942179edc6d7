/**
 * @ethereumjs/evm's runInterpreter ends every frame (each call, each estimate run, each
 * transaction and each CALL inside them) by copying the frame's run state, its result and
 * its environment, some fifty fields, into one new object, the result's `runState`, which
 * nothing in the library or in chain-sim reads (EVM.runCode's callers may). Building it was
 * a tenth of an eth_call's CPU time. Here the frame runs as the library runs it, and that
 * object is made when first read, from the same three objects.
 *
 * Frames without a block (EVM.runCode with none) run the library's method. The replacement
 * is tested against it in test/engine/stepLoop.test.ts, whose reference runs use the
 * library's, on random programs, comparing run states too.
 */
import { EVM, EVMError } from '@ethereumjs/evm';
import { Account, createZeroAddress } from '@ethereumjs/util';
import { interpreterPrototype } from './interpreterPrototype.js';

/** Tests turn it off to compare with the library's method. */
export const LAZY_RUN_STATE = { enabled: true };

type Message = Record<string, unknown> & {
  readonly to?: { readonly bytes: Uint8Array };
  readonly caller?: unknown;
  readonly data?: Uint8Array;
  readonly value?: bigint;
  readonly code?: Uint8Array;
  readonly isStatic?: boolean;
  readonly isCreate?: boolean;
  readonly depth?: number;
  readonly codeAddress?: unknown;
  readonly gasRefund?: bigint;
  readonly gasLimit: bigint;
  readonly chargeCodeAccesses?: boolean;
  readonly blobVersionedHashes?: unknown[];
  readonly accessWitness?: { commit(): void };
  readonly createdAddresses?: Set<string>;
  readonly selfdestruct?: Map<string, Uint8Array>;
};

interface FrameInterpreter {
  readonly _env: object;
  _result: Record<string, unknown> & { returnValue?: Uint8Array };
  run(
    code: Uint8Array | undefined,
    opts: object,
  ): Promise<{ runState: { gasLeft: bigint; gasRefund: bigint; stateGasSpilled?: bigint }; exceptionError?: EVMError }>;
}

type InterpreterClass = new (...args: unknown[]) => FrameInterpreter;

interface EvmInternals {
  readonly stateManager: { getAccount(address: unknown): Promise<Account | undefined> };
  readonly blockchain: unknown;
  readonly journal: unknown;
  readonly performanceLogger: unknown;
  readonly _optsCached: { readonly profiler?: unknown };
  readonly _tx: { readonly gasPrice: bigint; readonly origin?: unknown };
  readonly _block?: unknown;
}

type RunInterpreter = (this: EvmInternals, message: Message, opts?: { initialLogs?: unknown[]; pc?: number }) => Promise<Record<string, unknown>>;

const KEEPS_GAS = new Set<string>([EVMError.errorMessages.REVERT, EVMError.errorMessages.INVALID_EOF_FORMAT]);

export async function installLazyRunState(): Promise<void> {
  const prototype = EVM.prototype as unknown as { runInterpreter: RunInterpreter & { byChainSim?: true } };
  const library = prototype.runInterpreter;
  if (library.byChainSim) return;
  const Interpreter = (await interpreterPrototype()).constructor as unknown as InterpreterClass;
  const replacement: RunInterpreter = async function (this: EvmInternals, message, opts = {}) {
    if (!LAZY_RUN_STATE.enabled || this._block === undefined) return library.call(this, message, opts);
    const contract = (await this.stateManager.getAccount(message.to ?? createZeroAddress())) ?? new Account();
    const env = {
      address: message.to ?? createZeroAddress(),
      caller: message.caller ?? createZeroAddress(),
      callData: message.data ?? Uint8Array.from([0]),
      callValue: message.value ?? 0n,
      code: message.code,
      isStatic: message.isStatic ?? false,
      isCreate: message.isCreate ?? false,
      depth: message.depth ?? 0,
      gasPrice: this._tx.gasPrice,
      origin: this._tx.origin ?? message.caller ?? createZeroAddress(),
      block: this._block,
      contract,
      codeAddress: message.codeAddress,
      gasRefund: message.gasRefund,
      chargeCodeAccesses: message.chargeCodeAccesses,
      blobVersionedHashes: message.blobVersionedHashes ?? [],
      accessWitness: message.accessWitness,
      createdAddresses: message.createdAddresses,
      initialLogs: opts.initialLogs,
    };
    const interpreter = new Interpreter(
      this,
      this.stateManager,
      this.blockchain,
      env,
      message.gasLimit,
      this.journal,
      this.performanceLogger,
      this._optsCached.profiler,
    );
    if (message.selfdestruct) interpreter._result.selfdestruct = message.selfdestruct;
    if (message.createdAddresses) interpreter._result.createdAddresses = message.createdAddresses;
    const ran = await interpreter.run(message.code, opts);
    let result = interpreter._result;
    let gasUsed = message.gasLimit - ran.runState.gasLeft;
    if (ran.exceptionError) {
      if (!KEEPS_GAS.has(ran.exceptionError.error)) gasUsed = message.gasLimit;
      result = { ...result, logs: [], selfdestruct: new Map(), createdAddresses: new Set() };
    }
    message.accessWitness?.commit();
    const frame: Record<string, unknown> = {
      ...result,
      runState: undefined,
      exceptionError: ran.exceptionError,
      gas: ran.runState.gasLeft,
      executionGasUsed: gasUsed,
      gasRefund: ran.runState.gasRefund,
      stateGasSpilled: ran.runState.stateGasSpilled,
      returnValue: result.returnValue ?? new Uint8Array(0),
    };
    // In the library's place among the keys; made from the same objects when first read.
    let merged: unknown;
    const final = result;
    Object.defineProperty(frame, 'runState', {
      enumerable: true,
      configurable: true,
      get: () => (merged ??= { ...ran.runState, ...final, ...interpreter._env }),
      set: (value: unknown) => {
        merged = value;
      },
    });
    return frame;
  };
  prototype.runInterpreter = Object.assign(replacement, { byChainSim: true as const });
}
