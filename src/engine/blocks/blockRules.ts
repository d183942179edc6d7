/**
 * The checks an imported block must pass before it is executed: does its header fit its
 * parent, and does its body match its header? Each returns go-ethereum's reason for a
 * refusal (as `problem` strings, without the block number the caller adds), or undefined.
 * Proof-of-work seals and difficulty are trusted, not verified (see README, --import).
 */
import type { Block, BlockHeader } from '@ethereumjs/block';
import { genWithdrawalsTrieRoot } from '@ethereumjs/block';
import { Hardfork } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { KECCAK256_RLP, KECCAK256_RLP_ARRAY, equalsBytes } from '@ethereumjs/util';
import type { BlockStore } from './blocks.js';
import { toHex } from '../util/hex.js';
import { keccak256 } from '../util/keccak256.js';

/** go-ethereum's params.MaxGasLimit and MinGasLimit. */
const MAX_GAS_LIMIT = 2n ** 63n - 1n;
const MIN_GAS_LIMIT = 5000n;
/** go-ethereum: an uncle must be at most 6 generations older than the block including it, and at most 2 per block. */
const MAX_UNCLE_DEPTH = 6n;
const MAX_UNCLES = 2;

/** Header fields that follow from the parent: number, timestamp, gas limit, base fee, excess blob gas. */
export function headerProblem(header: BlockHeader, parent: BlockHeader): string | undefined {
  const common = header.common;
  if (header.timestamp <= parent.timestamp) {
    return `timestamp ${header.timestamp} is not after the parent's timestamp ${parent.timestamp}`;
  }
  if (header.gasLimit > MAX_GAS_LIMIT) return `invalid gas limit: have ${header.gasLimit}, max ${MAX_GAS_LIMIT}`;
  if (header.gasUsed > header.gasLimit) return `invalid gas used: have ${header.gasUsed}, gas limit ${header.gasLimit}`;
  // On the London block the gas target doubles: the parent's limit counts times the elasticity.
  const londonStart = common.isActivatedEIP(1559) && parent.baseFeePerGas === undefined;
  const parentLimit = londonStart ? parent.gasLimit * common.param('elasticityMultiplier') : parent.gasLimit;
  const bound = parentLimit / common.param('gasLimitBoundDivisor');
  const diff = header.gasLimit > parentLimit ? header.gasLimit - parentLimit : parentLimit - header.gasLimit;
  if (diff >= bound) return `invalid gas limit: have ${header.gasLimit}, want ${parentLimit} +-= ${bound - 1n}`;
  if (header.gasLimit < MIN_GAS_LIMIT) return `invalid gas limit below ${MIN_GAS_LIMIT}`;
  if (common.isActivatedEIP(1559)) {
    const want = londonStart ? common.param('initialBaseFee') : parent.calcNextBaseFee();
    if (header.baseFeePerGas !== want) {
      return `invalid baseFee: have ${header.baseFeePerGas}, want ${want}, parentBaseFee ${parent.baseFeePerGas}, parentGasUsed ${parent.gasUsed}`;
    }
  }
  if (common.isActivatedEIP(4844)) {
    const want = parent.excessBlobGas === undefined ? 0n : parent.calcNextExcessBlobGas(common);
    if (header.excessBlobGas !== want) {
      return `invalid excessBlobGas: have ${header.excessBlobGas}, want ${want}, parent.excessBlobGas ${parent.excessBlobGas}, parent.blobGasUsed ${parent.blobGasUsed}`;
    }
  }
  return undefined;
}

/** The body against the header: transactions (signatures, fees), their root, uncles, withdrawals, blob gas. */
export async function bodyProblem(block: Block, store: BlockStore): Promise<string | undefined> {
  const { header } = block;
  const txErrors = block.getTransactionsValidationErrors();
  if (txErrors.length > 0) return `invalid transactions: ${txErrors.join('; ')}`;
  const unsigned = block.transactions.findIndex((tx) => !tx.isSigned());
  if (unsigned >= 0) return `transaction ${unsigned} is not signed`;
  const txRoot = block.transactions.length === 0 ? KECCAK256_RLP : await block.genTxTrie();
  if (!equalsBytes(txRoot, header.transactionsTrie)) {
    return `transactions root mismatch: have ${toHex(txRoot)}, want ${toHex(header.transactionsTrie)}`;
  }
  const uncles = uncleProblem(block, store);
  if (uncles) return uncles;
  if (block.common.isActivatedEIP(4895)) {
    const root = await genWithdrawalsTrieRoot(block.withdrawals ?? []);
    if (!equalsBytes(root, header.withdrawalsRoot!)) {
      return `withdrawals root mismatch: have ${toHex(root)}, want ${toHex(header.withdrawalsRoot!)}`;
    }
  }
  if (block.common.isActivatedEIP(4844)) {
    const perBlob = block.common.param('blobGasPerBlob');
    let blobGas = 0n;
    for (const tx of block.transactions) {
      const hashes = (tx as { blobVersionedHashes?: readonly Uint8Array[] }).blobVersionedHashes;
      if (!hashes) continue;
      blobGas += BigInt(hashes.length) * perBlob;
      const price = header.getBlobGasPrice();
      const cap = (tx as { maxFeePerBlobGas: bigint }).maxFeePerBlobGas;
      if (cap < price) return `blob transaction ${toHex(tx.hash())}: max fee per blob gas ${cap} is below the block's blob gas price ${price}`;
    }
    const max = block.common.getBlobGasSchedule().maxBlobGasPerBlock;
    if (blobGas > max) return `blob gas used ${blobGas} exceeds the maximum ${max}`;
    if (header.blobGasUsed !== blobGas) return `blob gas used mismatch: have ${blobGas}, want ${header.blobGasUsed}`;
  }
  return undefined;
}

/**
 * Uncles, as go-ethereum's ethash VerifyUncles: the hash in the header, at most two, none
 * after the merge, each a child of a recent ancestor (not a sibling), neither itself an
 * ancestor nor included before.
 */
function uncleProblem(block: Block, store: BlockStore): string | undefined {
  const { header, uncleHeaders } = block;
  const listed = uncleHeaders.length === 0 ? KECCAK256_RLP_ARRAY : keccak256(RLP.encode(uncleHeaders.map((uncle) => uncle.raw())));
  if (!equalsBytes(listed, header.uncleHash)) {
    return `uncle root hash mismatch: have ${toHex(listed)}, want ${toHex(header.uncleHash)}`;
  }
  if (uncleHeaders.length === 0) return undefined;
  if (block.common.gteHardfork(Hardfork.Paris)) return 'uncles are not allowed after the merge';
  if (uncleHeaders.length > MAX_UNCLES) return `too many uncles: ${uncleHeaders.length}, at most ${MAX_UNCLES}`;
  const ancestors = new Set<string>();
  const included = new Set<string>();
  for (let n = header.number - 1n; n >= 0n && n >= header.number - 1n - MAX_UNCLE_DEPTH; n--) {
    const mined = store.byNumber(n);
    if (!mined) break;
    ancestors.add(mined.hashHex);
    for (const uncle of mined.block.uncleHeaders) included.add(toHex(uncle.hash()));
  }
  const parentHash = toHex(header.parentHash);
  for (const uncle of uncleHeaders) {
    const hash = toHex(uncle.hash());
    if (included.has(hash)) return `duplicate uncle ${hash}`;
    included.add(hash);
    if (ancestors.has(hash)) return `uncle ${hash} is an ancestor`;
    const uncleParent = toHex(uncle.parentHash);
    if (!ancestors.has(uncleParent) || uncleParent === parentHash) return `dangling uncle ${hash}: its parent is not a recent ancestor`;
  }
  return undefined;
}
