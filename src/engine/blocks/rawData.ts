/**
 * Consensus encodings for debug_getRaw*: a receipt as go-ethereum's MarshalBinary writes it
 * (EIP-2718: the type byte before the RLP list for typed transactions; the status as 0x01
 * or empty, or the post-state root before Byzantium).
 */
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes } from '@ethereumjs/util';
import type { ReceiptRecord } from './blocks.js';

export function encodeReceiptRecord(receipt: ReceiptRecord): Uint8Array {
  const outcome = receipt.root ?? (receipt.status === 1 ? Uint8Array.of(1) : new Uint8Array());
  const logs = receipt.logs.map((log) => [log.address.bytes, [...log.topics], log.data]);
  const list = RLP.encode([outcome, bigIntToUnpaddedBytes(receipt.cumulativeGasUsed), receipt.logsBloom, logs]);
  if (receipt.type === 0) return list;
  const typed = new Uint8Array(list.length + 1);
  typed[0] = receipt.type;
  typed.set(list, 1);
  return typed;
}
