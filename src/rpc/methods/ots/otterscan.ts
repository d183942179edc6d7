/**
 * Otterscan's ots_* methods (API level 8) and erigon_getHeaderByNumber, as Erigon's
 * Otterscan API specifies them, so the Otterscan explorer works against chain-sim. Searches
 * scan the chain's blocks (a local chain is short); call trees come from CallTracer.
 */
import type { Address } from '@ethereumjs/util';
import { type MinedBlock, type Chain, type CallFrame, CallTracer, TraceBudget, traceTooLarge, isPostMerge } from '../../../engine/index.js';
import { address, blockNumberOrTag, hash, pageSize, quantity } from '../../codec.js';
import { encodeData, encodeQuantity } from '../../encode.js';
import { invalidParams, serverError } from '../../errors.js';
import { formatBlock, formatReceipt, formatTransaction } from '../../format.js';
import type { Json, JsonObject } from '../../json.js';
import { defineMethod, param } from '../../method.js';

/** The call tree of a mined transaction, or null for an unknown hash. */
async function callTree(chain: Chain, txHash: string): Promise<{ root: CallFrame; failed: boolean; output: Uint8Array } | null> {
  const budget = new TraceBudget();
  const tracer = new CallTracer(false, budget);
  const run = await chain.traceTransaction(txHash, tracer);
  if (!run || !tracer.root) return null;
  if (budget.exceeded) throw traceTooLarge('call frames');
  const failure = run.result.execResult.exceptionError;
  return { root: tracer.root, failed: failure?.error === 'revert', output: run.result.execResult.returnValue };
}

function walk(frame: CallFrame, depth: number, visit: (frame: CallFrame, depth: number) => void): void {
  visit(frame, depth);
  for (const call of frame.calls) walk(call, depth + 1, visit);
}

const blockOf = (chain: Chain, ref: ReturnType<typeof blockNumberOrTag>): MinedBlock => {
  if ('tag' in ref && ref.tag === 'pending') throw invalidParams('invalid argument 0 (block): the pending block has no details');
  const mined = chain.find(ref);
  if (!mined) throw serverError('block not found');
  return mined;
};

/** The block without its transactions, as Otterscan's block page wants it (logsBloom left out, as Erigon does). */
function blockDetails(chain: Chain, mined: MinedBlock): JsonObject {
  const block = formatBlock(mined, false);
  delete block.transactions;
  block.logsBloom = null;
  block.transactionCount = mined.block.transactions.length;
  const { reward, uncleReward } = issuance(chain, mined);
  const totalFees = mined.receipts.reduce((sum, receipt) => sum + receipt.gasUsed * receipt.effectiveGasPrice, 0n);
  return {
    block,
    issuance: { blockReward: encodeQuantity(reward), uncleReward: encodeQuantity(uncleReward), issuance: encodeQuantity(reward + uncleReward) },
    totalFees: encodeQuantity(totalFees),
  };
}

/** The coinbase's reward (with 1/32 per uncle) and the uncles' (before the merge; none after). */
function issuance(chain: Chain, mined: MinedBlock): { reward: bigint; uncleReward: bigint } {
  if (isPostMerge(chain.common) || mined.number === 0n) return { reward: 0n, uncleReward: 0n };
  const base = chain.common.param('minerReward');
  const uncles = mined.block.uncleHeaders;
  const uncleReward = uncles.reduce((sum, uncle) => sum + ((uncle.number + 8n - mined.number) * base) / 8n, 0n);
  return { reward: base + (base / 32n) * BigInt(uncles.length), uncleReward };
}

function matchesAddress(mined: MinedBlock, i: number, who: Address): boolean {
  const receipt = mined.receipts[i]!;
  return receipt.from.equals(who) || (receipt.to?.equals(who) ?? false) || (receipt.contractAddress?.equals(who) ?? false);
}

/** Transactions with their receipts (Otterscan's search pages), newest first; each receipt has its block's timestamp. */
function page(found: Array<{ mined: MinedBlock; index: number }>): { txs: JsonObject[]; receipts: JsonObject[] } {
  return {
    txs: found.map(({ mined, index: i }) => formatTransaction(mined.block.transactions[i]!, mined.senders[i]!, { mined, index: i })),
    receipts: found.map(({ mined, index: i }) => ({ ...formatReceipt(mined, i), timestamp: encodeQuantity(mined.block.header.timestamp) })),
  };
}

/** Whole blocks are collected until the page holds at least `size` transactions (Erigon's paging). */
function search(
  chain: Chain,
  who: Address,
  from: bigint,
  step: 1n | -1n,
  size: number,
): { found: Array<{ mined: MinedBlock; index: number }>; exhausted: boolean } {
  const found: Array<{ mined: MinedBlock; index: number }> = [];
  let n = from;
  for (; n >= 0n && n <= chain.head.number && found.length < size; n += step) {
    const mined = chain.find({ number: n })!;
    const inBlock = mined.block.transactions.map((_, i) => i).filter((i) => matchesAddress(mined, i, who));
    if (step < 0n) inBlock.reverse();
    found.push(...inBlock.map((i) => ({ mined, index: i })));
  }
  return { found, exhausted: n < 0n || n > chain.head.number };
}

const number = (value: unknown, path: string): bigint =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : quantity(64)(value, path);

export const otterscanMethods = [
  defineMethod('ots_getApiLevel', [], () => 8),
  defineMethod(
    'ots_hasCode',
    [param('address', address), param('block', blockNumberOrTag)],
    async ({ chain }, who, ref) => (await chain.getCode(who, ref)).length > 0,
  ),
  defineMethod('ots_getInternalOperations', [param('transactionHash', hash)], async ({ chain }, txHash) => {
    const tree = await callTree(chain, txHash);
    if (!tree) return null;
    const operations: JsonObject[] = [];
    walk(tree.root, 0, (frame, depth) => {
      // Erigon records each call as it starts (failed ones too), below the transaction's own.
      if (depth === 0) return;
      const type =
        frame.type === 'CREATE'
          ? 2
          : frame.type === 'CREATE2'
            ? 3
            : frame.type === 'SELFDESTRUCT'
              ? 1
              : (frame.value ?? 0n) > 0n && frame.type === 'CALL'
                ? 0
                : undefined;
      const to = frame.to ?? frame.createAddress;
      if (type !== undefined) operations.push({ type, from: frame.from.toString(), to: to?.toString() ?? null, value: encodeQuantity(frame.value ?? 0n) });
    });
    return operations;
  }),
  defineMethod('ots_getTransactionError', [param('transactionHash', hash)], async ({ chain }, txHash) => {
    const tree = await callTree(chain, txHash);
    if (!tree) return null;
    return encodeData(tree.failed ? tree.output : new Uint8Array());
  }),
  defineMethod('ots_traceTransaction', [param('transactionHash', hash)], async ({ chain }, txHash) => {
    const tree = await callTree(chain, txHash);
    if (!tree) return null;
    const entries: JsonObject[] = [];
    walk(tree.root, 0, (frame, depth) => {
      entries.push({
        type: frame.type,
        depth,
        from: frame.from.toString(),
        to: frame.to?.toString() ?? null,
        value: encodeQuantity(frame.value ?? 0n),
        input: encodeData(frame.input),
        output: encodeData(frame.output),
      });
    });
    return entries;
  }),
  defineMethod('ots_getBlockDetails', [param('block', blockNumberOrTag)], ({ chain }, ref) => blockDetails(chain, blockOf(chain, ref))),
  defineMethod('ots_getBlockDetailsByHash', [param('blockHash', hash)], ({ chain }, blockHash) => {
    const mined = chain.find({ hash: blockHash });
    if (!mined) throw serverError('block not found');
    return blockDetails(chain, mined);
  }),
  defineMethod(
    'ots_getBlockTransactions',
    [param('block', (v, p) => ({ number: number(v, p) })), param('pageNumber', (v, p) => Number(number(v, p))), param('pageSize', pageSize)],
    ({ chain }, ref, pageNumber, size) => {
      const mined = blockOf(chain, ref);
      const indexes = mined.block.transactions.map((_, i) => i).slice(pageNumber * size, (pageNumber + 1) * size);
      const full = formatBlock(mined, false);
      full.logsBloom = null;
      full.transactionCount = mined.block.transactions.length;
      // Erigon sends the first 4 bytes of each input (the selector): the page lists methods, not calldata.
      full.transactions = indexes.map((i) => ({
        ...formatTransaction(mined.block.transactions[i]!, mined.senders[i]!, { mined, index: i }),
        input: encodeData(mined.block.transactions[i]!.data.subarray(0, 4)),
      }));
      return { fullblock: full, receipts: indexes.map((i) => ({ ...formatReceipt(mined, i), logs: null, logsBloom: null })) };
    },
  ),
  defineMethod(
    'ots_searchTransactionsBefore',
    [param('address', address), param('blockNumber', number), param('pageSize', pageSize)],
    ({ chain }, who, before, size) => {
      const start = before === 0n ? chain.head.number : before - 1n;
      const { found, exhausted } = search(chain, who, start, -1n, size);
      return { ...page(found), firstPage: before === 0n, lastPage: exhausted };
    },
  ),
  defineMethod(
    'ots_searchTransactionsAfter',
    [param('address', address), param('blockNumber', number), param('pageSize', pageSize)],
    ({ chain }, who, after, size) => {
      const { found, exhausted } = search(chain, who, after + 1n, 1n, size);
      return { ...page(found.reverse()), firstPage: exhausted, lastPage: after === 0n };
    },
  ),
  defineMethod('ots_getTransactionBySenderAndNonce', [param('address', address), param('nonce', number)], ({ chain }, who, nonce): Json => {
    for (let n = 1n; n <= chain.head.number; n++) {
      const mined = chain.find({ number: n })!;
      const i = mined.block.transactions.findIndex((tx, j) => tx.nonce === nonce && mined.senders[j]!.equals(who));
      if (i >= 0) return encodeData(mined.block.transactions[i]!.hash());
    }
    return null;
  }),
  defineMethod('ots_getContractCreator', [param('address', address)], async ({ chain }, who) => {
    if ((await chain.getCode(who, { tag: 'latest' })).length === 0) return null;
    // The first block with its code (binary search), then the transaction whose call tree created it.
    let low = 0n;
    let high = chain.head.number;
    while (low < high) {
      const mid = (low + high) / 2n;
      if ((await chain.getCode(who, { number: mid })).length > 0) high = mid;
      else low = mid + 1n;
    }
    if (low === 0n) return null; // in the genesis state: no creator
    const budget = new TraceBudget();
    const tracers: CallTracer[] = [];
    const runs = await chain.traceBlock({ number: low }, (i) => (tracers[i] = new CallTracer(false, budget)));
    for (let i = 0; i < runs.length; i++) {
      let creator: Address | undefined;
      if (tracers[i]!.root)
        walk(tracers[i]!.root!, 0, (frame) => {
          if ((frame.type === 'CREATE' || frame.type === 'CREATE2') && frame.to?.equals(who) && frame.error === undefined) creator = frame.from;
        });
      if (creator) return { hash: encodeData(runs[i]!.hash), creator: creator.toString() };
    }
    return null; // code set by a state setter (chain_setCode), not created
  }),
  defineMethod('erigon_getHeaderByNumber', [param('block', blockNumberOrTag)], ({ chain }, ref) => {
    const mined = chain.find(ref);
    if (!mined) return null;
    const header = formatBlock(mined, false);
    for (const key of ['transactions', 'uncles', 'size', 'withdrawals', 'totalDifficulty']) delete header[key];
    return header;
  }),
];
