/**
 * What a forked chain leaves to its upstream, declared on the method record (defineMethod's
 * `forwardOnFork`), never decided by a method's name. History (blocks, transactions, receipts,
 * logs) is not forwarded: the engine's block store reads the upstream's below the pinned block
 * (engine/blocks/remoteHistory.ts) and every history method answers from it. What the chain does
 * not hold is forwarded, as Anvil does for blocks that predate its fork:
 * - state at a block before the pinned one (the chain's state starts at the pinned block): the
 *   state reads, calls and estimates at such a block;
 * - traces of the upstream's blocks and transactions (the chain cannot replay them: it has no
 *   state before the pinned block); a range of blocks is split at the pinned block.
 * The arguments are decoded first (bad input gets this node's error, not the upstream's); the
 * request goes to the upstream as it was sent, a tag naming one of its blocks replaced by the
 * block's number. Its answer is kept (fork/answers.ts): none of it can change.
 */
import type { BlockRef } from '../engine/chain.js';
import type { Json } from './json.js';
import type { RpcContext } from './method.js';

/** Asks the fork's upstream (its answers are kept). */
export type UpstreamAsk = (method: string, params: readonly unknown[]) => Promise<unknown>;

/** What a request's arguments name that the upstream may hold; undefined: nothing of its. */
export type ForkTarget =
  /** State at a block: the upstream's at blocks before the pinned one. */
  | { readonly stateAt: BlockRef | undefined }
  /** A block (its traces): the upstream's at or below the pinned block; `param`: where the block is among the params. */
  | { readonly block: BlockRef; readonly param: number }
  /** A transaction (its traces): the upstream's for one of its transactions at or below the pinned block. */
  | { readonly transaction: string }
  /**
   * Blocks `from`..`to` (trace_filter): the part at or below the pinned block is the upstream's,
   * the rest this node's; `params` asks for a part, `join` puts the two answers together.
   */
  | {
      readonly range: { readonly from: bigint; readonly to: bigint };
      readonly params: (from: bigint, to: bigint) => unknown[];
      readonly join: (older: Json, newer: Json | undefined) => Json;
    }
  | undefined;

/** A method's forwarding on a fork, on its record. */
export interface ForkForwarding<A extends readonly unknown[]> {
  /** The upstream's name for the method (the record's own may be chain-sim's), or how to ask it for the answer. */
  readonly upstream: string | ((ask: UpstreamAsk, params: readonly unknown[]) => Promise<unknown>);
  /** What the arguments name: `args` decoded, `params` as sent. */
  readonly target: (ctx: RpcContext, args: A, params: readonly unknown[]) => ForkTarget;
}

/** State at the block of argument `index` (optional: the head when left out) is the upstream's before the pinned block. */
export function stateAtArgument(upstream: ForkForwarding<readonly unknown[]>['upstream'], index: number): ForkForwarding<readonly unknown[]> {
  return { upstream, target: (_ctx, args) => ({ stateAt: args[index] as BlockRef | undefined }) };
}

/** The block of argument (and param) `index` (a reference, or a block hash) is the upstream's at or below the pinned block. */
export function blockArgument(upstream: string, index: number): ForkForwarding<readonly unknown[]> {
  return {
    upstream,
    target: (_ctx, args) => {
      const block = args[index] as BlockRef | string;
      return { block: typeof block === 'string' ? { hash: block } : block, param: index };
    },
  };
}

/** The transaction hash of argument `index` is the upstream's if it is one of its transactions up to the pinned block. */
export function transactionArgument(upstream: string, index: number): ForkForwarding<readonly unknown[]> {
  return { upstream, target: (_ctx, args) => ({ transaction: args[index] as string }) };
}

/**
 * The upstream's answer when the arguments name what it holds; undefined: this node answers.
 * `local` answers other params here (the newer part of a range).
 */
export async function forwardOnFork<A extends readonly unknown[]>(
  ctx: RpcContext,
  forwarding: ForkForwarding<A>,
  args: A,
  params: readonly unknown[],
  local: (params: readonly unknown[]) => Promise<Json>,
): Promise<{ readonly answer: Json } | undefined> {
  const session = ctx.fork?.session;
  const target = session && forwarding.target(ctx, args, params);
  if (!session || !target) return undefined;
  const pinned = session.number;
  const ask: UpstreamAsk = (method, sent) => session.answers.ask(method, sent);
  const forward = async (sent: readonly unknown[]): Promise<{ answer: Json }> => {
    const { upstream } = forwarding;
    return { answer: (await (typeof upstream === 'string' ? ask(upstream, sent) : upstream(ask, sent))) as Json };
  };
  const { chain } = ctx;
  if ('stateAt' in target) {
    const ref = target.stateAt;
    if (ref === undefined) return undefined;
    if ('number' in ref) return ref.number < pinned ? forward(params) : undefined;
    if ('tag' in ref) return ref.tag === 'earliest' && pinned > 0n ? forward(params) : undefined;
    // A hash: the chain's own blocks (the pinned one among them) hold their state.
    if (chain.find(ref)) return undefined;
    const older = await chain.findHistory(ref);
    return older && older.number < pinned ? forward(params) : undefined;
  }
  if ('block' in target) {
    const ref = target.block;
    if ('number' in ref) return ref.number <= pinned ? forward(params) : undefined;
    if ('hash' in ref) {
      const ours = chain.find(ref);
      if (ours && ours.number > pinned) return undefined;
      return (await chain.findHistory(ref)) ? forward(params) : undefined;
    }
    // A tag ('latest' while the head is the pinned block) is sent as the number it names here.
    const number = ref.tag === 'earliest' ? 0n : ref.tag === 'pending' ? undefined : chain.find(ref)?.number;
    if (number === undefined || number > pinned) return undefined;
    const sent = [...params];
    sent[target.param] = `0x${number.toString(16)}`;
    return forward(sent);
  }
  if ('transaction' in target) {
    if (chain.transaction(target.transaction) || chain.pool.get(target.transaction)) return undefined;
    return (await chain.historyTransaction(target.transaction)) ? forward(params) : undefined;
  }
  const { from, to } = target.range;
  if (from > pinned) return undefined;
  const older = await forward(target.params(from, to < pinned ? to : pinned));
  const newer = to > pinned ? await local(target.params(pinned + 1n, to)) : undefined;
  return { answer: target.join(older.answer, newer) };
}
