/**
 * Which node answers a request on a forked chain. Blocks, transactions, receipts and logs
 * up to the pinned block, and state at blocks before it, are the upstream's: those requests
 * are forwarded and their answers kept (they cannot change: the pinned block and its
 * ancestors are history). Everything after the pinned block is the local chain's; a log
 * query that straddles the pinned block is split and the two answers joined, oldest first.
 * The pinned block's own state is the local overlay (forkState.ts), so reads at it see the
 * prefunded accounts as every later block does.
 */
import type { Json } from '../rpc/json.js';
import type { RpcContext, RpcMethod } from '../rpc/method.js';
import type { MethodTable } from '../rpc/table.js';
import type { ForkSession } from './session.js';
import { traceRoutes } from './traceRoutes.js';

export type Ref = { kind: 'number'; number: bigint } | { kind: 'hash'; hash: string } | { kind: 'local' };

/** A block parameter as the request gives it; `local`: a tag that names the local head (or nothing). */
export function refOf(value: unknown): Ref {
  if (typeof value === 'string') {
    if (value === 'earliest') return { kind: 'number', number: 0n };
    if (/^0x[0-9a-fA-F]{1,16}$/.test(value)) return { kind: 'number', number: BigInt(value) };
    if (/^0x[0-9a-fA-F]{64}$/.test(value)) return { kind: 'hash', hash: value.toLowerCase() };
    return { kind: 'local' };
  }
  if (typeof value === 'object' && value !== null) {
    const { blockNumber, blockHash } = value as { blockNumber?: unknown; blockHash?: unknown };
    if (typeof blockHash === 'string') return refOf(blockHash);
    if (typeof blockNumber === 'string') return refOf(blockNumber);
  }
  return { kind: 'local' };
}

/** Whether the local chain holds the block a hash names, past the pinned block. */
function localAfterFork(ctx: RpcContext, session: ForkSession, hash: string): boolean {
  const block = ctx.chain.blocks.byHashHex(hash);
  return block !== undefined && block.number > session.number;
}

export function forward(session: ForkSession, method: string, params: readonly unknown[]): Promise<unknown> {
  const key = JSON.stringify([method, params]);
  if (session.answers.has(key)) return Promise.resolve(session.answers.get(key));
  return session.upstream.request(method, params, `${JSON.stringify(params).slice(1, -1)}`).then((answer) => {
    session.answers.set(key, answer);
    session.cache?.scheduleSave(session.state.fetched, session.answers);
    return answer;
  });
}

/** An upstream answer about a block after the pinned one is not part of this chain: null. */
export function pinnedOnly(session: ForkSession, answer: unknown): unknown {
  const number = (answer as { blockNumber?: unknown; number?: unknown } | null)?.blockNumber ?? (answer as { number?: unknown } | null)?.number;
  return typeof number === 'string' && BigInt(number) > session.number ? null : answer;
}

export type Route = (ctx: RpcContext, session: ForkSession, params: readonly unknown[], local: () => Promise<Json>, name: string) => Promise<unknown>;

/** State at a block: before the pinned block, the upstream's. */
const stateAt =
  (index: number): Route =>
  async (ctx, session, params, local, name) => {
    const ref = refOf(params[index]);
    if (ref.kind === 'number' && ref.number < session.number) return forward(session, name, params);
    if (ref.kind === 'hash' && !ctx.chain.blocks.byHashHex(ref.hash)) return forward(session, name, params);
    return local();
  };

/**
 * A block (or what is in it) by number: up to the pinned block, the upstream's. A tag naming
 * the head while the head is still the pinned block too (the local copy of the pinned block has
 * the upstream's hash but not its transactions or state root).
 */
export const blockByNumber: Route = async (ctx, session, params, local, name) => {
  const ref = refOf(params[0]);
  if (ref.kind === 'number' && ref.number <= session.number) return forward(session, name, params);
  const tag = params[0];
  if (ref.kind === 'local' && (tag === 'latest' || tag === 'safe' || tag === 'finalized' || tag === undefined) && ctx.chain.head.number === session.number) {
    return forward(session, name, [`0x${session.number.toString(16)}`, ...params.slice(1)]);
  }
  return local();
};

/** A block (or what is in it) by hash: the local chain's after the pinned block, else the upstream's up to it. */
export const blockByHash: Route = async (ctx, session, params, local, name) => {
  const ref = refOf(params[0]);
  if (ref.kind === 'hash' && !localAfterFork(ctx, session, ref.hash)) return pinnedOnly(session, await forward(session, name, params));
  return local();
};

const blockByEither: Route = async (ctx, session, params, local, name) =>
  refOf(params[0]).kind === 'hash' ? blockByHash(ctx, session, params, local, name) : blockByNumber(ctx, session, params, local, name);

/** A transaction or receipt: the local chain's, or else the upstream's if it is at or before the pinned block. */
const byTransaction: Route = async (_ctx, session, params, local, name) => {
  const mine = await local();
  if (mine !== null) return mine;
  return pinnedOnly(session, await forward(session, name, params));
};

/** Logs: split at the pinned block; `getLogs` is the local method, asked for the part after it. */
const logsRoute =
  (getLogs: RpcMethod): Route =>
  async (ctx, session, params, local, name) => {
    const filter = params[0];
    if (typeof filter !== 'object' || filter === null) return local();
    const { blockHash, fromBlock, toBlock } = filter as { blockHash?: unknown; fromBlock?: unknown; toBlock?: unknown };
    if (typeof blockHash === 'string') {
      return localAfterFork(ctx, session, blockHash.toLowerCase()) ? local() : forward(session, name, params);
    }
    const head = ctx.chain.head.number;
    const bound = (value: unknown): bigint => {
      const ref = refOf(value ?? 'latest');
      return ref.kind === 'number' ? ref.number : head;
    };
    const from = bound(fromBlock);
    const to = bound(toBlock);
    if (from > session.number || from > to) return local();
    const hex = (n: bigint) => `0x${n.toString(16)}`;
    if (to <= session.number) return forward(session, name, [{ ...filter, fromBlock: hex(from), toBlock: hex(to) }]);
    const older = await forward(session, name, [{ ...filter, fromBlock: hex(from), toBlock: hex(session.number) }]);
    const newer = await getLogs.invoke(ctx, [{ ...filter, fromBlock: hex(session.number + 1n), toBlock: hex(to) }]);
    return [...(older as unknown[]), ...(newer as unknown[])];
  };

/**
 * Anvil's eth_getAccountInfo at a block before the pinned one: the upstream's balance, nonce and
 * code, asked one by one (as Anvil does it: upstreams need not serve eth_getAccountInfo).
 */
const accountInfo: Route = async (ctx, session, params, local) => {
  const ref = refOf(params[1]);
  const upstream = (ref.kind === 'number' && ref.number < session.number) || (ref.kind === 'hash' && !ctx.chain.blocks.byHashHex(ref.hash));
  if (!upstream) return local();
  const [balance, nonce, code] = await Promise.all(
    ['eth_getBalance', 'eth_getTransactionCount', 'eth_getCode'].map((method) => forward(session, method, [params[0], params[1]])),
  );
  return { balance, nonce, code };
};

const ROUTES: Readonly<Record<string, Route>> = {
  getAccountInfo: accountInfo,
  getBalance: stateAt(1),
  getTransactionCount: stateAt(1),
  getCode: stateAt(1),
  getStorageAt: stateAt(2),
  getProof: stateAt(2),
  call: stateAt(1),
  estimateGas: stateAt(1),
  createAccessList: stateAt(1),
  getBlockByNumber: blockByNumber,
  getBlockTransactionCountByNumber: blockByNumber,
  getTransactionByBlockNumberAndIndex: blockByNumber,
  getUncleByBlockNumberAndIndex: blockByNumber,
  getUncleCountByBlockNumber: blockByNumber,
  getBlockByHash: blockByHash,
  getBlockTransactionCountByHash: blockByHash,
  getTransactionByBlockHashAndIndex: blockByHash,
  getUncleByBlockHashAndIndex: blockByHash,
  getUncleCountByBlockHash: blockByHash,
  getBlockReceipts: blockByEither,
  getTransactionByHash: byTransaction,
  getTransactionReceipt: byTransaction,
};

/** A trace of a transaction the local chain does not have: the upstream's, if the transaction is at or before the pinned block. */
const traceTransaction: Route = async (_ctx, session, params, local) => {
  try {
    return await local();
  } catch (error) {
    if (!(error instanceof Error) || !/transaction not found/.test(error.message)) throw error;
    const found = pinnedOnly(session, await forward(session, 'eth_getTransactionByHash', [params[0]]));
    if (found === null) throw error;
    return forward(session, 'debug_traceTransaction', params);
  }
};

/** The table with the history methods routed by block when a fork session is open (ctx.fork). */
export function routeForkHistory(table: MethodTable): MethodTable {
  const routed = new Map(table);
  const getLogs = table.get('eth_getLogs');
  const routes: Record<string, Route> = { ...ROUTES, ...(getLogs ? { getLogs: logsRoute(getLogs) } : {}) };
  for (const name of ['debug_traceTransaction', 'chain_traceTransaction']) {
    const original = table.get(name);
    if (original) routed.set(name, withRoute(original, traceTransaction, 'debug_traceTransaction'));
  }
  for (const [name, route] of Object.entries(traceRoutes(table))) {
    const original = table.get(name);
    if (original) routed.set(name, withRoute(original, route, name));
  }
  for (const [suffix, route] of Object.entries(routes)) {
    for (const name of [`eth_${suffix}`, `chain_${suffix}`]) {
      const original = table.get(name);
      if (original) routed.set(name, withRoute(original, route, `eth_${suffix}`));
    }
  }
  return routed;
}

/** `original`, routed while a fork session is open; `upstreamName` is the method asked of the upstream. */
function withRoute(original: RpcMethod, route: Route, upstreamName: string): RpcMethod {
  return {
    name: original.name,
    params: original.params,
    async invoke(ctx, params) {
      const session = ctx.fork?.session;
      if (!session) return original.invoke(ctx, params);
      return (await route(ctx, session, params, () => original.invoke(ctx, params), upstreamName)) as Json;
    },
  };
}
