/**
 * Tracing on a forked chain: blocks and transactions up to the pinned block are the
 * upstream's history, so their traces are the upstream's (asked of it, as
 * debug_traceTransaction's are in router.ts); the local chain traces what came after. A
 * trace_filter range that straddles the pinned block is split, the two parts joined oldest
 * first, and `after`/`count` applied to the whole. An upstream that does not serve a method
 * answers with its own error.
 */
import type { Json } from '../rpc/json.js';
import type { RpcMethod } from '../rpc/method.js';
import type { MethodTable } from '../rpc/table.js';
import { type Route, blockByHash, blockByNumber, forward, pinnedOnly, refOf } from './router.js';

/** A transaction's trace: the local chain's, or the upstream's if the transaction is at or before the pinned block. */
const byTransaction: Route = async (_ctx, session, params, local, name) => {
  let failure: unknown;
  try {
    const mine = await local();
    if (mine !== null) return mine;
  } catch (error) {
    if (!(error instanceof Error) || !/transaction not found/.test(error.message)) throw error;
    failure = error;
  }
  const found = pinnedOnly(session, await forward(session, 'eth_getTransactionByHash', [params[0]]));
  if (found === null) {
    if (failure) throw failure;
    return null;
  }
  return forward(session, name, params);
};

const traceFilter =
  (method: RpcMethod): Route =>
  async (ctx, session, params, local, name) => {
    const filter = params[0];
    if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) return local();
    const { fromBlock, toBlock, after, count, ...rest } = filter as Record<string, unknown>;
    const bound = (value: unknown, fallback: bigint): bigint => {
      const ref = refOf(value ?? `0x${fallback.toString(16)}`);
      return ref.kind === 'number' ? ref.number : ctx.chain.head.number;
    };
    const from = bound(fromBlock, 0n);
    const to = bound(toBlock, ctx.chain.head.number);
    if (from > session.number || from > to || (typeof toBlock === 'string' && toBlock === 'pending')) return local();
    const hex = (n: bigint) => `0x${n.toString(16)}`;
    const older = (await forward(session, name, [{ ...rest, fromBlock: hex(from), toBlock: hex(to < session.number ? to : session.number) }])) as Json[];
    const newer = to > session.number ? ((await method.invoke(ctx, [{ ...rest, fromBlock: hex(session.number + 1n), toBlock: hex(to) }])) as Json[]) : [];
    const skip = typeof after === 'number' ? after : typeof after === 'string' ? Number(after) : 0;
    const take = typeof count === 'number' ? count : typeof count === 'string' ? Number(count) : undefined;
    const all = [...older, ...newer];
    return all.slice(skip, take === undefined ? undefined : skip + take);
  };

const blockByEither: Route = (ctx, session, params, local, name) =>
  refOf(params[0]).kind === 'hash' ? blockByHash(ctx, session, params, local, name) : blockByNumber(ctx, session, params, local, name);

/** The tracing methods routed on a fork (debug_traceTransaction is router.ts's). */
export function traceRoutes(table: MethodTable): Record<string, Route> {
  const filter = table.get('trace_filter');
  return {
    debug_traceBlockByNumber: blockByNumber,
    debug_traceBlockByHash: blockByHash,
    trace_block: blockByNumber,
    trace_replayBlockTransactions: blockByEither,
    trace_transaction: byTransaction,
    trace_get: byTransaction,
    trace_replayTransaction: byTransaction,
    ...(filter ? { trace_filter: traceFilter(filter) } : {}),
  };
}
