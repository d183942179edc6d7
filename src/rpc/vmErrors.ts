/**
 * Ganache's vmErrorsOnRPCResponse: a send whose transaction is mined and fails answers an
 * error instead of the hash, in Ganache 7's shape (-32000, "VM Exception while processing
 * transaction: revert <reason>", data { hash, programCounter, result, reason, message }).
 * The transaction stays mined, as in Ganache. Without automine (interval or manual mining)
 * the transaction is not mined when the send answers, so the hash is answered as usual.
 */
import { bytesToHex } from '@ethereumjs/util';
import type { Chain } from '../engine/chain.js';
import { revertReason } from '../engine/execution/revert.js';
import { TransactionFailedError } from '../engine/util/errors.js';
import type { ExecutionTracer, TraceEnv } from '../engine/tracers/tracing.js';
import { ErrorCode, RpcError } from './errors.js';
import type { RpcMethod } from './method.js';

/**
 * The names whose send answers Ganache's error: Ganache's own sending methods. chain-sim's
 * chain_ names answer the hash whatever the options; eth_sendUnsignedTransaction is Anvil's.
 */
export const SENDING_METHODS: readonly string[] = ['eth_sendTransaction', 'eth_sendRawTransaction', 'personal_sendTransaction'];

/**
 * `method`, answering Ganache's error when the transaction it sent was mined and failed. An
 * explicit vmErrorsOnRPCResponse is the node's, for every client: a send that answered Hardhat's
 * error (a Hardhat client's) answers Ganache's instead.
 */
export function rejectingFailedSends(method: RpcMethod): RpcMethod {
  return {
    ...method,
    async invoke(ctx, params) {
      const hash = await method.invoke(ctx, params).catch((error: unknown) => {
        if (error instanceof TransactionFailedError) return error.hashHex;
        throw error;
      });
      if (typeof hash !== 'string') return hash;
      await ctx.chain.settling;
      await failure(ctx.chain, hash);
      return hash;
    },
  };
}

/** Throws Ganache's error if `hash` is mined with status 0. */
async function failure(chain: Chain, hash: string): Promise<void> {
  const location = chain.transaction(hash);
  if (!location || location.mined.receipts[location.index]!.status !== 0) return;
  // Run again to learn what failed and where: only failed sends pay for it.
  const pc = new LastTopLevelPc();
  const run = await chain.traceTransaction(hash, pc);
  const failed = ganacheFailure(run?.result.execResult);
  throw new RpcError(ErrorCode.server, failed.text, {
    hash,
    programCounter: pc.counterFor(failed.kind),
    result: hash,
    reason: failed.reason,
    message: failed.kind,
  });
}

/** Ganache's words for a failed execution: "VM Exception while processing transaction: revert <reason>"; the reason only from Error(string). */
export function ganacheFailure(exec: { exceptionError?: { error: string }; returnValue: Uint8Array } | undefined): {
  text: string;
  kind: string;
  reason: string | null;
  output: Uint8Array;
} {
  const kind = exec?.exceptionError?.error ?? 'revert';
  const output = exec?.returnValue ?? new Uint8Array();
  const reason = kind === 'revert' && bytesToHex(output.subarray(0, 4)) === '0x08c379a0' ? (revertReason(output) ?? null) : null;
  return { text: `VM Exception while processing transaction: ${reason === null ? kind : `${kind} ${reason}`}`, kind, reason, output };
}

/** The program counter of the last opcode the outermost call frame ran. */
export class LastTopLevelPc implements ExecutionTracer {
  value = 0;
  /** Ganache's programCounter: after a REVERT, the failing opcode's own counter otherwise (invalid opcode, out of gas: checked with ganache 7.9.2). */
  counterFor(kind: string): number {
    return kind === 'revert' ? this.value : Math.max(0, this.value - 1);
  }
  attach({ vm }: TraceEnv): () => void {
    const events = vm.evm.events!;
    const step = (data: { depth: number; pc: number }, done?: () => void) => {
      // Ganache reports the counter after the failing opcode.
      if (data.depth === 0) this.value = data.pc + 1;
      done?.();
    };
    events.on('step', step);
    return () => events.off('step', step);
  }
}
