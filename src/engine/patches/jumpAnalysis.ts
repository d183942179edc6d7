/**
 * The EVM analyses a contract's code (valid JUMPDESTs, PUSH values, opcode table) every
 * time it runs it: about 13% of an eth_call to a token. The analysis depends only on the
 * code and the opcode table of the hardfork, so it is kept per (table, code) pair. The
 * code arrays come from the state manager's code cache, so repeated runs pass the same
 * array; a weak map lets analyses go when their code does.
 */
import { type Interpreter, type JumpAnalysis, replaceInterpreterMethod } from './interpreterPrototype.js';

let hits = 0;

/** How many analyses were served from the cache (for tests). */
export function jumpAnalysisCacheHits(): number {
  return hits;
}

export function installJumpAnalysisCache(): Promise<void> {
  return replaceInterpreterMethod('_getValidJumpDestinations', (analyse) => {
    const byTable = new WeakMap<object, WeakMap<Uint8Array, JumpAnalysis>>();
    return function (this: Interpreter, code: Uint8Array): JumpAnalysis {
      const table = this._evm._opcodeMap;
      let byCode = byTable.get(table);
      if (!byCode) byTable.set(table, (byCode = new WeakMap()));
      let analysis = byCode.get(code);
      if (analysis) hits++;
      else byCode.set(code, (analysis = analyse.call(this, code)));
      return analysis;
    };
  });
}
