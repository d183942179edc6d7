/** Fee suggestions and history: gasPrice, maxPriorityFeePerGas, feeHistory, blobBaseFee, baseFee. */
import type { MinedBlock } from '../../../engine/blocks/blocks.js';
import { effectiveGasPrice } from '../../../engine/execution/blockBuilder.js';
import { blockNumberOrTag } from '../../codec.js';
import { encodeQuantity } from '../../encode.js';
import { invalidParams } from '../../errors.js';
import type { Json } from '../../json.js';
import { defineMethod, optionalParam, param } from '../../method.js';

/** go-ethereum's cap on feeHistory's block count. */
const MAX_FEE_HISTORY_BLOCKS = 1024;

/** feeHistory's block count: go-ethereum accepts a decimal number or a hex QUANTITY. */
const blockCount = (value: unknown, path: string): number => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^0x[0-9a-fA-F]+$/.test(value) ? Number.parseInt(value, 16) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw invalidParams(`invalid argument ${path}: expected a block count (number or hex quantity)`);
  return Math.min(n, MAX_FEE_HISTORY_BLOCKS);
};

const percentiles = (value: unknown, path: string): number[] => {
  if (!Array.isArray(value)) throw invalidParams(`invalid argument ${path}: expected an array of percentiles`);
  if (value.length > 100) throw invalidParams(`invalid argument ${path}: at most 100 percentiles`);
  let previous = -1;
  return value.map((p, i) => {
    if (typeof p !== 'number' || p < 0 || p > 100) throw invalidParams(`invalid argument ${path}[${i}]: percentile must be a number in [0, 100]`);
    if (p < previous) throw invalidParams(`invalid argument ${path}: percentiles must be ascending`);
    previous = p;
    return p;
  });
};

/** The tips paid in a block at the given percentiles of gas used, as go-ethereum's oracle computes them. */
function rewardsAt(mined: MinedBlock, wanted: readonly number[]): string[] {
  const baseFee = mined.block.header.baseFeePerGas ?? 0n;
  const txs = mined.block.transactions.map((tx, i) => ({
    tip: effectiveGasPrice(tx, baseFee) - baseFee,
    gas: mined.receipts[i]!.gasUsed,
  }));
  if (txs.length === 0) return wanted.map(() => encodeQuantity(0));
  txs.sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0));
  const gasUsed = mined.block.header.gasUsed;
  let index = 0;
  let sum = txs[0]!.gas;
  return wanted.map((percentile) => {
    const threshold = (Number(gasUsed) * percentile) / 100;
    while (sum < threshold && index < txs.length - 1) sum += txs[++index]!.gas;
    return encodeQuantity(txs[index]!.tip);
  });
}

export const feeMethods = [
  defineMethod({ name: 'chain_gasPrice', aliases: ['eth_gasPrice'] }, [], ({ chain }) =>
    encodeQuantity(chain.gasPrice ?? (chain.nextBaseFee() ?? 0n) + chain.suggestedTip),
  ),
  defineMethod({ name: 'chain_maxPriorityFeePerGas', aliases: ['eth_maxPriorityFeePerGas'] }, [], ({ chain }) => encodeQuantity(chain.suggestedTip)),
  defineMethod({ name: 'chain_blobBaseFee', aliases: ['eth_blobBaseFee'] }, [], ({ chain }) => {
    const common = chain.nextBlockCommon();
    if (!common.isActivatedEIP(4844)) return encodeQuantity(0);
    return encodeQuantity(chain.head.block.header.calcNextBlobGasPrice(common));
  }),
  defineMethod(
    { name: 'chain_feeHistory', aliases: ['eth_feeHistory'] },
    [param('blockCount', blockCount), param('newestBlock', blockNumberOrTag), optionalParam('rewardPercentiles', percentiles)],
    ({ chain }, count, ref, wanted) => {
      const newest = chain.resolve(ref);
      // A fork holds no blocks before its pinned one: the history starts there.
      const oldest = count === 0 ? newest.number + 1n : BigInt(Math.max(Number(chain.blocks.firstNumber), Number(newest.number) - count + 1));
      const blocks: MinedBlock[] = [];
      for (let n = oldest; n <= newest.number; n++) blocks.push(chain.blocks.byNumber(n)!);
      const baseFees: string[] = blocks.map((b) => encodeQuantity(b.block.header.baseFeePerGas ?? 0n));
      const next = newest.block.header.baseFeePerGas !== undefined ? newest.block.header.calcNextBaseFee() : 0n;
      if (blocks.length > 0) baseFees.push(encodeQuantity(newest === chain.head ? (chain.nextBaseFee() ?? 0n) : next));
      const result: { [key: string]: Json } = {
        oldestBlock: encodeQuantity(oldest),
        baseFeePerGas: baseFees,
        gasUsedRatio: blocks.map((b) => Number(b.block.header.gasUsed) / Number(b.block.header.gasLimit)),
      };
      const common = chain.nextBlockCommon();
      if (common.isActivatedEIP(4844)) {
        // Blocks from before Cancun (a fork schedule) have no blob fee: 0, as go-ethereum reports.
        const blobFees = blocks.map((b) => encodeQuantity(b.block.header.excessBlobGas === undefined ? 0n : b.block.header.getBlobGasPrice()));
        if (blocks.length > 0) blobFees.push(encodeQuantity(newest.block.header.calcNextBlobGasPrice(common)));
        result.baseFeePerBlobGas = blobFees;
        const maxBlobGas = Number(common.getBlobGasSchedule().maxBlobGasPerBlock);
        result.blobGasUsedRatio = blocks.map((b) => Number(b.block.header.blobGasUsed ?? 0n) / maxBlobGas);
      }
      if (wanted) result.reward = blocks.map((b) => rewardsAt(b, wanted));
      return result;
    },
  ),
  // The next block's base fee, as go-ethereum answers it; null before London.
  defineMethod({ name: 'chain_baseFee', aliases: ['eth_baseFee'] }, [], ({ chain }) => {
    const fee = chain.nextBaseFee();
    return fee === undefined ? null : encodeQuantity(fee);
  }),
];
