/**
 * The EVM analyses a contract's code (valid JUMPDESTs, PUSH values, opcode table) every
 * time it runs it: about 13% of an eth_call to a token. The analysis depends only on the
 * code and the opcode table of the hardfork, so it is kept per (table, code) pair. The
 * code arrays come from the state manager's code cache, so repeated runs pass the same
 * array; a weak map lets analyses go when their code does.
 *
 * @ethereumjs/evm does not export its Interpreter class, so its prototype is reached
 * through the package's own module file; the version is pinned in package.json, and
 * test/engine/jumpAnalysis.test.ts fails if the hook stops being used.
 */
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

let hits = 0;

/** How many analyses were served from the cache (for tests). */
export function jumpAnalysisCacheHits(): number {
  return hits;
}

export async function installJumpAnalysisCache(): Promise<void> {
  const evmEntry = import.meta.resolve('@ethereumjs/evm');
  const module = (await import(new URL('./interpreter.js', evmEntry).href)) as { Interpreter: { prototype: InterpreterPrototype } };
  const prototype = module.Interpreter.prototype;
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
