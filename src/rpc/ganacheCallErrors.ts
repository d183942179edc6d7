/**
 * Ganache 7's errors for an eth_call or eth_estimateGas whose execution fails (compat
 * 'ganache'): code -32000, "VM Exception while processing transaction: <revert reason |
 * invalid opcode | out of gas ...>"; eth_call's data is the revert payload, eth_estimateGas's
 * { hash: null, programCounter, result, reason, message } as for a failed send. chain-sim's
 * own answers (go-ethereum's: 3 "execution reverted", "gas required exceeds allowance") stay
 * everywhere else. Truffle-era suites compare these messages word for word.
 */
import { bytesToHex } from '@ethereumjs/util';
import type { BlockRef } from '../engine/chain/types.js';
import type { CallRequest } from '../engine/execution/execution.js';
import type { BlockOverrides, StateOverride } from '../engine/state/overrides.js';
import { EngineError, RevertError } from '../engine/util/errors.js';
import { ErrorCode, RpcError } from './errors.js';
import type { RpcContext, RpcMethod } from './method.js';
import { ESTIMATE_DEFAULT_BLOCK } from './methods/eth/execution.js';
import { callOverrides } from './overrides.js';
import { LastTopLevelPc, ganacheFailure } from './vmErrors.js';

/** The canonical names whose failures Ganache words its own way. */
export const GANACHE_CALL_METHODS: ReadonlySet<string> = new Set(['chain_call', 'chain_estimateGas']);

export function ganacheCallErrors(method: RpcMethod): RpcMethod {
  return {
    ...method,
    async invoke(ctx, params) {
      try {
        return await method.invoke(ctx, params);
      } catch (error) {
        // A revert (RevertError) or an EVM failure (an engine error); a bad parameter is answered as it is.
        const failedInEvm = error instanceof RevertError || (error instanceof EngineError && error.kind !== 'invalidInput');
        if (!failedInEvm) throw error;
        throw (await inGanacheWords(ctx, method, params)) ?? error;
      }
    },
  };
}

/** Runs the call again, traced, to learn how it failed; undefined if it did not fail in the EVM (then the first error stands). */
async function inGanacheWords(ctx: RpcContext, method: RpcMethod, params: readonly unknown[]): Promise<RpcError | undefined> {
  // The parameters decoded already once (the first run got this far), so they decode again.
  const [request, ref, state, block] = method.params.map((p, i) => p.decode(params[i], `params[${i}]`)) as [
    CallRequest | undefined,
    BlockRef | undefined,
    StateOverride[] | undefined,
    BlockOverrides | undefined,
  ];
  const pc = new LastTopLevelPc();
  let exec: Parameters<typeof ganacheFailure>[0];
  try {
    // The same block the method ran at when none was named.
    const at = ref ?? (method.name === 'chain_estimateGas' ? ESTIMATE_DEFAULT_BLOCK : { tag: 'latest' });
    exec = (await ctx.chain.traceCall(request ?? {}, at, pc, callOverrides(state, block))).result.execResult;
  } catch {
    return undefined;
  }
  if (exec?.exceptionError === undefined) return undefined;
  const failed = ganacheFailure(exec);
  const result = bytesToHex(failed.output);
  if (method.name === 'chain_call') return new RpcError(ErrorCode.server, failed.text, result);
  return new RpcError(ErrorCode.server, failed.text, {
    hash: null,
    programCounter: pc.counterFor(failed.kind),
    result,
    reason: failed.reason,
    message: failed.kind,
  });
}
