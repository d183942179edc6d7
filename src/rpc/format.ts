/** Block, transaction, receipt and log objects as go-ethereum writes them. */
import type { BlockHeader } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Capability } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import type { BlockRecord, LogRecord, MinedBlock, ReceiptRecord } from '../engine/blocks/blocks.js';
import { type LogPosition, logPosition } from '../engine/logs/logQuery.js';
import { effectiveGasPrice } from '../engine/execution/blockBuilder.js';
import { maxFeePerGas } from '../engine/transactions/validation.js';
import { encodeData, encodeQuantity } from './encode.js';
import type { Json, JsonObject } from './json.js';

/** Where a transaction sits, when it is mined. */
export interface TxPosition {
  readonly mined: BlockRecord;
  readonly index: number;
}

/** The header fields of a block object (blocks and uncles alike); pass the hash when it is known. */
export function formatHeader(h: BlockHeader, hashHex: string = encodeData(h.hash())): JsonObject {
  const out: JsonObject = {
    number: encodeQuantity(h.number),
    hash: hashHex,
    parentHash: encodeData(h.parentHash),
    nonce: encodeData(h.nonce),
    mixHash: encodeData(h.mixHash),
    sha3Uncles: encodeData(h.uncleHash),
    logsBloom: encodeData(h.logsBloom),
    transactionsRoot: encodeData(h.transactionsTrie),
    stateRoot: encodeData(h.stateRoot),
    receiptsRoot: encodeData(h.receiptTrie),
    miner: h.coinbase.toString(),
    difficulty: encodeQuantity(h.difficulty),
    extraData: encodeData(h.extraData),
    gasLimit: encodeQuantity(h.gasLimit),
    gasUsed: encodeQuantity(h.gasUsed),
    timestamp: encodeQuantity(h.timestamp),
  };
  if (h.baseFeePerGas !== undefined) out.baseFeePerGas = encodeQuantity(h.baseFeePerGas);
  if (h.withdrawalsRoot !== undefined) out.withdrawalsRoot = encodeData(h.withdrawalsRoot);
  if (h.blobGasUsed !== undefined) out.blobGasUsed = encodeQuantity(h.blobGasUsed);
  if (h.excessBlobGas !== undefined) out.excessBlobGas = encodeQuantity(h.excessBlobGas);
  if (h.parentBeaconBlockRoot !== undefined) out.parentBeaconBlockRoot = encodeData(h.parentBeaconBlockRoot);
  if (h.requestsHash !== undefined) out.requestsHash = encodeData(h.requestsHash);
  return out;
}

/** An uncle: its header as a block object without transactions (SPEC 2.2). */
export function formatUncle(h: BlockHeader): JsonObject {
  return { ...formatHeader(h), size: encodeQuantity(h.serialize().length), transactions: [], uncles: [] };
}

export function formatBlock(mined: BlockRecord, fullTransactions: boolean): JsonObject {
  const { block } = mined;
  const out: JsonObject = {
    ...formatHeader(block.header, mined.hashHex),
    totalDifficulty: encodeQuantity(mined.totalDifficulty),
    size: encodeQuantity(block.serialize().length),
    transactions: block.transactions.map((tx, index) =>
      fullTransactions ? formatTransaction(tx, mined.senders[index]!, { mined, index }) : encodeData(tx.hash()),
    ),
    uncles: block.uncleHeaders.map((u) => encodeData(u.hash())),
  };
  if (block.withdrawals !== undefined) {
    out.withdrawals = block.withdrawals.map((w) => ({
      index: encodeQuantity(w.index),
      validatorIndex: encodeQuantity(w.validatorIndex),
      address: w.address.toString(),
      amount: encodeQuantity(w.amount),
    }));
  }
  return out;
}

/**
 * The pending block (the next block as the pool would make it now), as go-ethereum marshals it:
 * no hash, nonce or miner, since the block is not sealed; its transactions have no block hash.
 */
export function formatPendingBlock(mined: BlockRecord, fullTransactions: boolean): JsonObject {
  const out = formatBlock(mined, fullTransactions);
  if (fullTransactions) out.transactions = (out.transactions as JsonObject[]).map(asInPendingBlock);
  return { ...out, hash: null, nonce: null, miner: null };
}

/** A transaction object of the pending block: that block has no hash yet. */
export function asInPendingBlock(tx: JsonObject): JsonObject {
  return { ...tx, blockHash: null };
}

/** A transaction object; `position` is absent while it is pending. */
export function formatTransaction(tx: TypedTransaction, from: Address, position: TxPosition | undefined): JsonObject {
  const json = tx.toJSON();
  const out: JsonObject = {
    blockHash: position ? position.mined.hashHex : null,
    blockNumber: position ? encodeQuantity(position.mined.number) : null,
    // go-ethereum (1.16+) names the block's time in mined transactions, as in logs.
    ...(position ? { blockTimestamp: encodeQuantity(position.mined.block.header.timestamp) } : {}),
    from: from.toString(),
    gas: encodeQuantity(tx.gasLimit),
    gasPrice: encodeQuantity(position ? effectiveGasPrice(tx, position.mined.block.header.baseFeePerGas) : maxFeePerGas(tx)),
    hash: encodeData(tx.hash()),
    input: encodeData(tx.data),
    nonce: encodeQuantity(tx.nonce),
    to: tx.to ? tx.to.toString() : null,
    transactionIndex: position ? encodeQuantity(position.index) : null,
    value: encodeQuantity(tx.value),
    type: encodeQuantity(tx.type),
  };
  if (tx.supports(Capability.EIP1559FeeMarket)) {
    out.maxFeePerGas = json.maxFeePerGas ?? null;
    out.maxPriorityFeePerGas = json.maxPriorityFeePerGas ?? null;
  }
  if (tx.supports(Capability.EIP2930AccessLists)) out.accessList = (json.accessList ?? []) as Json;
  if (json.maxFeePerBlobGas !== undefined) out.maxFeePerBlobGas = json.maxFeePerBlobGas;
  if (json.blobVersionedHashes !== undefined) out.blobVersionedHashes = json.blobVersionedHashes as Json;
  // ethereumjs writes the tuple's bytes ("0x" for 0, "0x0c..." with a leading zero): go-ethereum's quantities.
  if (json.authorizationList !== undefined) {
    const quantity = (hex: string) => encodeQuantity(hex === '0x' ? 0n : BigInt(hex));
    out.authorizationList = json.authorizationList.map((item) => ({
      chainId: quantity(item.chainId),
      address: item.address,
      nonce: quantity(item.nonce),
      yParity: quantity(item.yParity),
      r: quantity(item.r),
      s: quantity(item.s),
    }));
  }
  // go-ethereum omits chainId only for unprotected legacy transactions.
  const chainId = (tx as TypedTransaction & { chainId?: bigint }).chainId ?? legacyChainId(tx);
  if (chainId !== undefined) out.chainId = encodeQuantity(chainId);
  out.v = encodeQuantity(tx.v ?? 0n);
  out.r = encodeQuantity(tx.r ?? 0n);
  out.s = encodeQuantity(tx.s ?? 0n);
  if (tx.type !== 0) out.yParity = encodeQuantity(tx.v ?? 0n);
  return out;
}

function legacyChainId(tx: TypedTransaction): bigint | undefined {
  if (tx.type !== 0 || tx.v === undefined || tx.v === 27n || tx.v === 28n) return undefined;
  return (tx.v - 35n) / 2n;
}

export function formatLog(log: LogRecord, position: LogPosition, removed = false): JsonObject {
  return {
    address: log.address.toString(),
    topics: log.topics.map(encodeData),
    data: encodeData(log.data),
    blockNumber: encodeQuantity(position.blockNumber),
    transactionHash: encodeData(position.transactionHash),
    transactionIndex: encodeQuantity(position.transactionIndex),
    blockHash: position.blockHashHex,
    // A fork's upstream log without the block's time is answered as the upstream wrote it.
    ...(position.blockTimestamp === undefined ? {} : { blockTimestamp: encodeQuantity(position.blockTimestamp) }),
    logIndex: encodeQuantity(log.logIndex),
    removed,
  };
}

export function formatReceipt(mined: MinedBlock, index: number): JsonObject {
  const receipt: ReceiptRecord = mined.receipts[index]!;
  const tx = mined.block.transactions[index]!;
  const position = logPosition(mined, index);
  const out: JsonObject = {
    type: encodeQuantity(receipt.type),
    transactionHash: encodeData(tx.hash()),
    transactionIndex: encodeQuantity(index),
    blockHash: mined.hashHex,
    blockNumber: encodeQuantity(mined.number),
    from: receipt.from.toString(),
    to: receipt.to ? receipt.to.toString() : null,
    cumulativeGasUsed: encodeQuantity(receipt.cumulativeGasUsed),
    gasUsed: encodeQuantity(receipt.gasUsed),
    effectiveGasPrice: encodeQuantity(receipt.effectiveGasPrice),
    contractAddress: receipt.contractAddress ? receipt.contractAddress.toString() : null,
    logs: receipt.logs.map((log) => formatLog(log, position)),
    logsBloom: encodeData(receipt.logsBloom),
  };
  if (receipt.status !== undefined) out.status = encodeQuantity(receipt.status);
  else if (receipt.root) out.root = encodeData(receipt.root);
  if (receipt.blobGasUsed !== undefined) out.blobGasUsed = encodeQuantity(receipt.blobGasUsed);
  if (receipt.blobGasPrice !== undefined) out.blobGasPrice = encodeQuantity(receipt.blobGasPrice);
  return out;
}
