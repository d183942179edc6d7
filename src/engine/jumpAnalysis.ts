/**
 * The EVM analyses a contract's code (valid JUMPDESTs, PUSH values, opcode table) every
 * time it runs it: about 13% of an eth_call to a token. The analysis depends only on the
 * code and the opcode table of the hardfork, so it is kept per (table, code) pair. The
 * code arrays come from the state manager's code cache, so repeated runs pass the same
 * array; a weak map lets analyses go when their code does.
 *
 * @ethereumjs/evm does not export its Interpreter class, so its prototype is taken
 * from a running instance (interpreterPrototype); the version is pinned in package.json,
 * and test/engine/evmShortcuts.test.ts fails if the hook stops being used.
 */
import { createEVM } from '@ethereumjs/evm';

interface Analysis {
  readonly jumps: Uint8Array;
  readonly pushes: Record<number, bigint>;
  readonly opcodesCached: unknown[];
}

interface InterpreterPrototype {
  _getValidJumpDestinations(this: InterpreterLike, code: Uint8Array): Analysis;
}

interface InterpreterLike {
  readonly _evm: { readonly _opcodeMap: object };
}

interface OpcodeEntry {
  readonly opHandler: (runState: { readonly interpreter: object }, ...rest: unknown[]) => unknown;
}

let hits = 0;

/** How many analyses were served from the cache (for tests). */
export function jumpAnalysisCacheHits(): number {
  return hits;
}

export async function installJumpAnalysisCache(): Promise<void> {
  const prototype = await interpreterPrototype();
  const analyse = prototype._getValidJumpDestinations;
  if ((analyse as { cached?: true }).cached) return;
  const byTable = new WeakMap<object, WeakMap<Uint8Array, Analysis>>();
  const cachedAnalyse = function (this: InterpreterLike, code: Uint8Array): Analysis {
    const table = this._evm._opcodeMap;
    let byCode = byTable.get(table);
    if (!byCode) byTable.set(table, (byCode = new WeakMap()));
    let analysis = byCode.get(code);
    if (analysis) hits++;
    else byCode.set(code, (analysis = analyse.call(this, code)));
    return analysis;
  };
  prototype._getValidJumpDestinations = Object.assign(cachedAnalyse, { cached: true as const });
}

let found: Promise<InterpreterPrototype> | undefined;

/**
 * Every opcode handler receives the run state, which holds the interpreter: a scratch
 * EVM runs a lone STOP whose handler is wrapped to look at it (once per process; the
 * scratch EVM has its own opcode table and state, nothing else is touched).
 */
function interpreterPrototype(): Promise<InterpreterPrototype> {
  found ??= (async () => {
    const evm = await createEVM();
    const table = (evm as unknown as { _opcodeMap: OpcodeEntry[] })._opcodeMap;
    const stop = table[0x00]!;
    let prototype: InterpreterPrototype | undefined;
    table[0x00] = {
      ...stop,
      opHandler(runState, ...rest) {
        prototype = Object.getPrototypeOf(runState.interpreter) as InterpreterPrototype;
        return stop.opHandler(runState, ...rest);
      },
    };
    await evm.runCode({ code: new Uint8Array([0x00]), gasLimit: 100_000n });
    if (!prototype) throw new Error('@ethereumjs/evm changed: no interpreter seen in an opcode handler');
    return prototype;
  })();
  return found;
}
