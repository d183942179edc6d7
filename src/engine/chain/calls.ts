/**
 * Execution that makes no transaction: calls, estimates, access lists, traces of calls and of
 * mined transactions, eth_simulateV1. Runs inside a queue task; whatever a run writes is undone
 * (a reverted checkpoint) or happens on a throwaway copy of the state.
 */
import type { Block } from '@ethereumjs/block';
import { toChecksumAddress } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import type { AccountRegistry } from '../accounts/accounts.js';
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
import { type SimulateOptions, type SimulatedBlock, simulate as simulateBlocks } from '../execution/simulate.js';
import type { ExecutionTracer, TracedRun } from '../tracers/tracing.js';
import { forkBlock } from '../rules/forkSchedule.js';
import { GETH_MINER_GAS_CEIL, type TestingBlock, type TestingBlockRequest, buildTestingBlock } from '../execution/testingBlock.js';
import { copyOf, stateRootOf } from './copies.js';
import type { ChainCore } from './core.js';
import type { BlockRef } from './types.js';

/** Where a call runs: a VM at the block's state, the block (or the pending header), the node's accounts. */
type CallContext = { readonly vm: VM; readonly block: Block; readonly accounts: AccountRegistry };

/** The state a read names: `pending` includes what the pool would do in the next block. */
export async function stateAt(core: ChainCore, ref: BlockRef): Promise<VM> {
  if ('tag' in ref && ref.tag === 'pending') return pendingState(core);
  return core.vmAt(core.resolve(ref));
}

export function call(core: ChainCore, request: CallRequest, ref: BlockRef, overrides?: CallOverrides): Promise<Uint8Array> {
  return inCallContext(core, ref, overrides, (ctx) => runCall(ctx, request, core.gasCap()));
}

export function createAccessList(core: ChainCore, request: CallRequest, ref: BlockRef, overrides?: CallOverrides): Promise<AccessListOutcome> {
  return inCallContext(core, ref, overrides, (ctx) => accessListOf(ctx, request, core.gasCap()));
}

export function estimate(core: ChainCore, request: CallRequest, ref: BlockRef, overrides?: CallOverrides): Promise<bigint> {
  return inCallContext(core, ref, overrides, async (ctx) => {
    const balance = request.from ? ((await ctx.vm.stateManager.getAccount(request.from))?.balance ?? 0n) : 0n;
    // An estimate runs the call many times: its console.log lines would print once per run.
    return core.consoleLines.mutedDuring(() => estimateGas(ctx, request, core.gasCap(), balance));
  });
}

/**
 * A call run with `tracer` attached (debug_traceCall), on a copy of the state it would run
 * on: a tracer that stops a run (too large) leaves its VM mid-transaction. The copy prints
 * no console.log lines.
 */
export async function traceCall(core: ChainCore, request: CallRequest, ref: BlockRef, tracer: ExecutionTracer, overrides?: CallOverrides): Promise<TracedRun> {
  const ctx = await plainExecutionContext(core, ref);
  const vm = await copyOf(ctx.vm);
  const block = hasOverrides(overrides) ? blockWithOverrides(ctx.block, overrides.block) : ctx.block;
  if (hasOverrides(overrides)) {
    // The copy is thrown away: the overrides need no undoing.
    core.alignVm(vm, block.header.number, block.header.timestamp);
    await applyStateOverrides(vm, overrides.state ?? [], (address) => toChecksumAddress(address.toString()));
  }
  const detach = tracer.attach({ vm, coinbase: block.header.coinbase });
  try {
    return { result: await executeCall({ vm, block }, request, core.gasCap()), logsBefore: 0 };
  } finally {
    detach();
  }
}

/** Calls run one after another on one copy of the state, each seeing the ones before (trace_callMany). */
export async function traceCalls(
  core: ChainCore,
  requests: readonly CallRequest[],
  ref: BlockRef,
  tracerFor: (index: number) => ExecutionTracer,
): Promise<TracedRun[]> {
  const ctx = await plainExecutionContext(core, ref);
  const vm = await copyOf(ctx.vm);
  const runs: TracedRun[] = [];
  for (let i = 0; i < requests.length; i++) {
    const detach = tracerFor(i).attach({ vm, coinbase: ctx.block.header.coinbase });
    try {
      runs.push({ result: await executeCallKeepingState({ vm, block: ctx.block }, requests[i]!, core.gasCap()), logsBefore: 0 });
    } finally {
      detach();
    }
  }
  return runs;
}

/**
 * A mined transaction run again with `tracer` attached (debug_traceTransaction), on a copy
 * of the state its block started from, after the transactions before it; undefined for an
 * unknown hash. The copy prints no console.log lines (they were printed when it was mined).
 */
export async function traceTransaction(core: ChainCore, hashHex: string, tracer: ExecutionTracer): Promise<TracedRun | undefined> {
  const found = core.blocks.transaction(hashHex);
  if (!found) return undefined;
  const { mined, index } = found;
  const parent = core.blocks.byNumber(mined.number - 1n)!;
  const vm = await core.copyAt(parent, mined.preStateRoot ?? stateRootOf(parent));
  core.alignVm(vm, mined.number, mined.block.header.timestamp);
  const result = await replayTransaction(vm, parent, mined, index, tracer);
  const location = { blockHash: mined.hash, blockNumber: mined.number, index, txHash: mined.block.transactions[index]!.hash() };
  return { result, logsBefore: mined.receipts.slice(0, index).reduce((sum, receipt) => sum + receipt.logs.length, 0), location };
}

/**
 * Every transaction of a block run again, each with the tracer `tracerFor` gives it
 * (debug_traceBlock*), on a copy of the state the block started from (blockTrace.ts).
 */
export async function traceBlock(core: ChainCore, target: BlockToTrace, tracerFor: (index: number) => ExecutionTracer): Promise<TracedTransaction[]> {
  const scratch = await copyOf(core.vm); // only its Common is used, to decode an RLP block at its fork
  const plan = planBlockTrace(target, core.blocks, scratch.common, (number, timestamp) => core.alignVm(scratch, number, timestamp));
  const { header } = plan.replayed.block;
  const vm = await core.copyAt(plan.parent, plan.preStateRoot ?? stateRootOf(plan.parent));
  core.alignVm(vm, header.number, header.timestamp);
  const results = await replayBlock(vm, plan.parent, plan.replayed, plan.replayed.block.transactions.length, tracerFor);
  return tracedTransactions(plan.replayed.block, results);
}

/** eth_simulateV1 on a throwaway copy of the state at `ref` (simulate.ts). */
export async function simulate(core: ChainCore, options: SimulateOptions, ref: BlockRef): Promise<SimulatedBlock[]> {
  const ctx = await plainExecutionContext(core, ref);
  const vm = await copyOf(ctx.vm);
  return simulateBlocks(
    {
      vm,
      base: ctx.block,
      chainId: core.chainId,
      align: (target, number, timestamp) => core.alignVm(target, number, timestamp),
      canonicalHash: (number) => core.blocks.byNumber(number)?.hash,
      checksum: (address) => toChecksumAddress(address.toString()),
      accounts: core.accounts,
    },
    options,
  );
}

/**
 * Run `body` where a call runs (plainExecutionContext), with `overrides` applied: block overrides on
 * a copy of the header, state overrides inside a checkpoint of the state that is always
 * reverted (overrides.ts), so nothing leaks.
 */
async function inCallContext<T>(core: ChainCore, ref: BlockRef, overrides: CallOverrides | undefined, body: (ctx: CallContext) => Promise<T>): Promise<T> {
  const ctx = await plainExecutionContext(core, ref);
  if (!hasOverrides(overrides)) return body(ctx);
  const block = blockWithOverrides(ctx.block, overrides.block);
  core.alignVm(ctx.vm, block.header.number, block.header.timestamp);
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
 */
async function plainExecutionContext(core: ChainCore, ref: BlockRef): Promise<CallContext> {
  if ('tag' in ref && ref.tag === 'pending') {
    const vm = await pendingState(core);
    // With an empty pool that is the live VM: it runs under the next block's fork.
    const header = pendingHeaderBlock(core);
    core.alignVm(vm, header.header.number, header.header.timestamp);
    return { vm, block: header, accounts: core.accounts };
  }
  const mined = core.resolve(ref);
  const vm = await core.vmAt(mined);
  core.alignVm(vm, mined.number, mined.block.header.timestamp);
  return { vm, block: mined.block, accounts: core.accounts };
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
