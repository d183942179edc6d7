/**
 * Execution that makes no transaction: calls, estimates, access lists, traces of calls and of
 * mined transactions, eth_simulateV1. Each function runs inside a queue task; whatever a run
 * writes is undone (a reverted checkpoint) or happens on a throwaway copy of the state.
 *
 * Work on the past does not keep the queue (detached.ts): traces, eth_simulateV1 and calls at
 * an older block than the head pin what they need here (a VM of their own, the block) and
 * answer a DetachedWork, which the facade runs after the task. Its closures hold what was
 * pinned and values read here, never the core. Calls at the head and at `pending` run on the
 * live VM (or the pending block's) inside the task, as before.
 */
import type { Block } from '@ethereumjs/block';
import type { EVM } from '@ethereumjs/evm';
import { toChecksumAddress } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import type { AccountRegistry } from '../accounts/accounts.js';
import type { MinedBlock } from '../blocks/blocks.js';
import { type BlockToTrace, type TracedTransaction, planBlockTrace, tracedTransactions } from '../tracers/blockTrace.js';
import {
  type AccessListOutcome,
  type CallRequest,
  createAccessList as accessListOf,
  estimateGas,
  executeCall,
  executeCallKeepingState,
  runCall,
} from '../execution/execution.js';
import { replayBlock, replayTransaction } from '../execution/blockBuilder.js';
import { pendingHeaderBlock, pendingState } from '../mining/producer.js';
import { type CallOverrides, applyStateOverrides, applyStateOverridesReversibly, blockWithOverrides, hasOverrides } from '../state/overrides.js';
import { type SimulateOptions, type SimulatedBlock, type SimulationHost, simulate as simulateBlocks } from '../execution/simulate.js';
import type { ExecutionTracer, TracedRun } from '../tracers/tracing.js';
import { forkBlock } from '../rules/forkSchedule.js';
import { GETH_MINER_GAS_CEIL, type TestingBlock, type TestingBlockRequest, buildTestingBlock } from '../execution/testingBlock.js';
import { copyOf, stateRootOf } from './copies.js';
import type { ChainCore, VmAligner } from './core.js';
import { DetachedWork } from './detached.js';
import type { BlockRef } from './types.js';

/** Where a call runs: a VM at the block's state, the block (or the pending header), the node's accounts. */
type CallContext = { readonly vm: VM; readonly block: Block; readonly accounts: AccountRegistry };

/** An answer now, or work to run after the task on what it pinned. */
export type Answer<T> = T | DetachedWork<T>;

/** For a caller inside a task (a send's estimate, a reorg's): the answer, pinned work run here. */
export async function answerNow<T>(answer: Promise<Answer<T>>): Promise<T> {
  const outcome = await answer;
  return outcome instanceof DetachedWork ? (outcome as DetachedWork<T>).run() : outcome;
}

/** The state a read names: `pending` includes what the pool would do in the next block. */
export async function stateAt(core: ChainCore, ref: BlockRef): Promise<VM> {
  if ('tag' in ref && ref.tag === 'pending') return pendingState(core);
  return core.vmAt(core.resolve(ref));
}

export function call(core: ChainCore, request: CallRequest, ref: BlockRef, overrides?: CallOverrides): Promise<Answer<Uint8Array>> {
  const cap = core.gasCap();
  return inCallContext(core, ref, overrides, (ctx) => runCall(ctx, request, cap));
}

export function createAccessList(core: ChainCore, request: CallRequest, ref: BlockRef, overrides?: CallOverrides): Promise<Answer<AccessListOutcome>> {
  const cap = core.gasCap();
  return inCallContext(core, ref, overrides, (ctx) => accessListOf(ctx, request, cap));
}

export function estimate(core: ChainCore, request: CallRequest, ref: BlockRef, overrides?: CallOverrides): Promise<Answer<bigint>> {
  const cap = core.gasCap();
  const printer = core.consoleLines;
  return inCallContext(core, ref, overrides, async (ctx) => {
    const balance = request.from ? ((await ctx.vm.stateManager.getAccount(request.from))?.balance ?? 0n) : 0n;
    // An estimate runs the call many times: its console.log lines would print once per run.
    return printer.mutedDuring(ctx.vm.evm as EVM, () => estimateGas(ctx, request, cap, balance));
  });
}

/**
 * A call run with `tracer` attached (debug_traceCall), on a copy of the state it would run
 * on: a tracer that stops a run (too large) leaves its VM mid-transaction. The copy prints
 * no console.log lines. The copy is made here; the run happens after the task.
 */
export async function traceCall(
  core: ChainCore,
  request: CallRequest,
  ref: BlockRef,
  tracer: ExecutionTracer,
  overrides?: CallOverrides,
): Promise<DetachedWork<TracedRun>> {
  const { ctx, at } = await plainExecutionContext(core, ref);
  const vm = await copyOf(ctx.vm);
  const block = hasOverrides(overrides) ? blockWithOverrides(ctx.block, overrides.block) : ctx.block;
  if (hasOverrides(overrides)) core.alignVm(vm, block.header.number, block.header.timestamp);
  const cap = core.gasCap();
  return core.detach(at, async () => {
    // The copy is thrown away: the overrides need no undoing.
    if (hasOverrides(overrides)) await applyStateOverrides(vm, overrides.state ?? [], (address) => toChecksumAddress(address.toString()));
    const detach = tracer.attach({ vm, coinbase: block.header.coinbase });
    try {
      return { result: await executeCall({ vm, block }, request, cap), logsBefore: 0 };
    } finally {
      detach();
    }
  });
}

/** Calls run one after another on one copy of the state, each seeing the ones before (trace_callMany). */
export async function traceCalls(
  core: ChainCore,
  requests: readonly CallRequest[],
  ref: BlockRef,
  tracerFor: (index: number) => ExecutionTracer,
): Promise<DetachedWork<TracedRun[]>> {
  const { ctx, at } = await plainExecutionContext(core, ref);
  const vm = await copyOf(ctx.vm);
  const cap = core.gasCap();
  return core.detach(at, async () => {
    const runs: TracedRun[] = [];
    for (let i = 0; i < requests.length; i++) {
      const detach = tracerFor(i).attach({ vm, coinbase: ctx.block.header.coinbase });
      try {
        runs.push({ result: await executeCallKeepingState({ vm, block: ctx.block }, requests[i]!, cap), logsBefore: 0 });
      } finally {
        detach();
      }
    }
    return runs;
  });
}

/**
 * A mined transaction run again with `tracer` attached (debug_traceTransaction), on a copy
 * of the state its block started from, after the transactions before it; undefined for an
 * unknown hash. The copy prints no console.log lines (they were printed when it was mined).
 */
export async function traceTransaction(core: ChainCore, hashHex: string, tracer: ExecutionTracer): Promise<Answer<TracedRun | undefined>> {
  const found = core.blocks.transaction(hashHex);
  if (!found) return undefined;
  const { mined, index } = found;
  const parent = core.blocks.byNumber(mined.number - 1n)!;
  const vm = await core.copyAt(parent, mined.preStateRoot ?? stateRootOf(parent));
  core.alignVm(vm, mined.number, mined.block.header.timestamp);
  return core.detach(mined, async () => {
    const result = await replayTransaction(vm, parent, mined, index, tracer);
    const location = { blockHash: mined.hash, blockNumber: mined.number, index, txHash: mined.block.transactions[index]!.hash() };
    return { result, logsBefore: mined.receipts.slice(0, index).reduce((sum, receipt) => sum + receipt.logs.length, 0), location };
  });
}

/**
 * Every transaction of a block run again, each with the tracer `tracerFor` gives it
 * (debug_traceBlock*), on a copy of the state the block started from (blockTrace.ts). A
 * mined block without transactions is answered at once: nothing to replay (trace_filter
 * over a long run of empty blocks).
 */
export async function traceBlock(core: ChainCore, target: BlockToTrace, tracerFor: (index: number) => ExecutionTracer): Promise<Answer<TracedTransaction[]>> {
  if (await nothingToReplay(core, target)) return [];
  // Only an RLP block needs a Common of its own (to decode it at its fork): a scratch VM's.
  const scratch = 'rlp' in target ? await copyOf(core.vm) : undefined;
  const plan = planBlockTrace(target, core.blocks, scratch?.common ?? core.common, (number, timestamp) => {
    if (scratch) core.alignVm(scratch, number, timestamp);
  });
  const { header } = plan.replayed.block;
  const vm = await core.copyAt(plan.parent, plan.preStateRoot ?? stateRootOf(plan.parent));
  core.alignVm(vm, header.number, header.timestamp);
  // The answer depends on the block's place in the chain (BLOCKHASH), an RLP block's on its parent's.
  return core.detach(plan.mined ?? plan.parent, async () => {
    const results = await replayBlock(vm, plan.parent, plan.replayed, plan.replayed.block.transactions.length, tracerFor);
    return tracedTransactions(plan.replayed.block, results);
  });
}

/**
 * True for a mined block without transactions that traceBlock's plan would accept: its
 * answer is the empty list, with nothing built or replayed (a reserved block stays unbuilt).
 * Anything else (genesis, a missing parent, a state not kept) goes through the plan, which
 * answers those errors.
 */
async function nothingToReplay(core: ChainCore, target: BlockToTrace): Promise<boolean> {
  if ('rlp' in target) return false;
  const mined = 'number' in target ? core.blocks.byNumber(target.number) : core.blocks.byHashHex(target.hash);
  if (!mined || mined.number === 0n || mined.senders.length > 0) return false;
  const parent = core.blocks.byNumber(mined.number - 1n);
  if (!parent) return false;
  return core.state.hasStateRoot(mined.preStateRoot ?? stateRootOf(parent));
}

/** eth_simulateV1 on a throwaway copy of the state at `ref` (simulate.ts), made here and run after the task. */
export async function simulate(core: ChainCore, options: SimulateOptions, ref: BlockRef): Promise<DetachedWork<SimulatedBlock[]>> {
  const { ctx, at } = await plainExecutionContext(core, ref);
  const vm = await copyOf(ctx.vm);
  const blocks = core.blocks;
  const host: SimulationHost = {
    vm,
    base: ctx.block,
    chainId: core.chainId,
    align: core.aligner(),
    canonicalHash: (number) => blocks.byNumber(number)?.hash,
    checksum: (address) => toChecksumAddress(address.toString()),
    accounts: core.accounts,
  };
  return core.detach(at, () => simulateBlocks(host, options));
}

/**
 * Run `body` where a call runs (plainExecutionContext), with `overrides` applied: block
 * overrides on a copy of the header, state overrides inside a checkpoint of the state that is
 * always reverted (overrides.ts), so nothing leaks. At a block older than the head it runs
 * after the task, on a historical VM lent to it alone.
 */
async function inCallContext<T>(
  core: ChainCore,
  ref: BlockRef,
  overrides: CallOverrides | undefined,
  body: (ctx: CallContext) => Promise<T>,
): Promise<Answer<T>> {
  const align = core.aligner();
  const past = pastBlock(core, ref);
  if (!past) return withOverrides((await plainExecutionContext(core, ref)).ctx, overrides, align, body);
  const lent = await core.lendVmAt(past);
  align(lent.vm, past.number, past.block.header.timestamp);
  const ctx: CallContext = { vm: lent.vm, block: past.block, accounts: core.accounts };
  return core.detach(past, () => withOverrides(ctx, overrides, align, body), lent.giveBack);
}

/** The block `ref` names when it is older than the head (undefined: the head or `pending`). */
function pastBlock(core: ChainCore, ref: BlockRef): MinedBlock | undefined {
  if ('tag' in ref && ref.tag === 'pending') return undefined;
  const mined = core.resolve(ref);
  return mined === core.head ? undefined : mined;
}

async function withOverrides<T>(ctx: CallContext, overrides: CallOverrides | undefined, align: VmAligner, body: (ctx: CallContext) => Promise<T>): Promise<T> {
  if (!hasOverrides(overrides)) return body(ctx);
  const block = blockWithOverrides(ctx.block, overrides.block);
  align(ctx.vm, block.header.number, block.header.timestamp);
  const restore = await applyStateOverridesReversibly(ctx.vm, overrides.state ?? [], (address) => toChecksumAddress(address.toString()));
  try {
    return await body({ ...ctx, block });
  } finally {
    await restore();
  }
}

/**
 * Where a call runs: the state and header of the named block, or for `pending` the
 * head's state in the context of the next block (its number, timestamp with time
 * travel applied, base fee), so a call sees what a transaction sent now would see.
 * `at`: the block whose state it is (the head for `pending`).
 */
async function plainExecutionContext(core: ChainCore, ref: BlockRef): Promise<{ ctx: CallContext; at: MinedBlock }> {
  if ('tag' in ref && ref.tag === 'pending') {
    await core.hashHead();
    const at = core.head;
    const vm = await pendingState(core);
    // With an empty pool that is the live VM: it runs under the next block's fork.
    const header = pendingHeaderBlock(core);
    core.alignVm(vm, header.header.number, header.header.timestamp);
    return { ctx: { vm, block: header, accounts: core.accounts }, at };
  }
  const mined = core.resolve(ref);
  const vm = await core.vmAt(mined);
  core.alignVm(vm, mined.number, mined.block.header.timestamp);
  return { ctx: { vm, block: mined.block, accounts: core.accounts }, at: mined };
}

/** testing_buildBlockV1: a block on the head, on a throwaway copy of the state; the chain does not change (testingBlock.ts). */
export async function buildTestingBlockOnHead(core: ChainCore, request: TestingBlockRequest): Promise<TestingBlock> {
  const vm = await copyOf(core.vm);
  const london = core.schedule ? forkBlock(core.schedule, 'london') : undefined;
  return buildTestingBlock(
    {
      vm,
      head: core.head,
      align: (number, timestamp) => core.alignVm(vm, number, timestamp),
      targetGasLimit: GETH_MINER_GAS_CEIL,
      isLondonBlock: (number) => number > 0n && number === london,
      pooled: () => core.executable(),
    },
    request,
  );
}
