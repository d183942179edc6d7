/** testing_buildBlockV1 (execution-apis src/testing): a payload built on the head, never added to the chain. */
import type { TestingBlockRequest } from '../../engine/index.js';
import { type Decoder, address, arrayOf, data, fail, fixedData, record, uint64 } from '../codec.js';
import { encodeData, encodeQuantity } from '../encode.js';
import type { Json } from '../json.js';
import { defineMethod, optionalParam, param } from '../method.js';
import { withdrawal } from '../overrides.js';

type Attributes = Omit<TestingBlockRequest, 'parentHash' | 'transactions' | 'extraData'>;

const ATTRIBUTE_FIELDS = new Set(['timestamp', 'prevRandao', 'suggestedFeeRecipient', 'withdrawals', 'parentBeaconBlockRoot']);

/** PayloadAttributesV3: timestamp, prevRandao and suggestedFeeRecipient required, as go-ethereum decodes them. */
const payloadAttributes: Decoder<Attributes> = (value, path) => {
  const fields = record(value, path);
  for (const key of Object.keys(fields)) {
    if (!ATTRIBUTE_FIELDS.has(key)) fail(path, `unknown field "${key}" in payload attributes (want ${[...ATTRIBUTE_FIELDS].join(', ')})`);
  }
  const need = <T>(key: string, decode: Decoder<T>): T => {
    if (fields[key] === undefined || fields[key] === null) fail(path, `missing required field '${key}' for PayloadAttributes`);
    return decode(fields[key], `${path}.${key}`);
  };
  const present = (key: string) => fields[key] !== undefined && fields[key] !== null;
  return {
    timestamp: need('timestamp', uint64),
    prevRandao: need('prevRandao', fixedData(32)),
    feeRecipient: need('suggestedFeeRecipient', address),
    ...(present('withdrawals') ? { withdrawals: arrayOf(withdrawal)(fields.withdrawals, `${path}.withdrawals`) } : {}),
    ...(present('parentBeaconBlockRoot') ? { parentBeaconBlockRoot: fixedData(32)(fields.parentBeaconBlockRoot, `${path}.parentBeaconBlockRoot`) } : {}),
  };
};

export const testingMethods = [
  defineMethod(
    'testing_buildBlockV1',
    [
      param('parentHash', fixedData(32)),
      param('payloadAttributes', payloadAttributes),
      // null (or absent): the pool's transactions; [] an empty block; otherwise exactly these, in order.
      optionalParam('transactions', arrayOf(data)),
      optionalParam('extraData', data),
    ],
    async ({ chain }, parentHash, attributes, transactions, extraData) => {
      const built = await chain.buildTestingBlock({ ...attributes, parentHash, transactions, extraData: extraData ?? new Uint8Array() });
      const { header } = built.block;
      const executionPayload: Record<string, Json> = {
        parentHash: encodeData(header.parentHash),
        feeRecipient: header.coinbase.toString(),
        stateRoot: encodeData(header.stateRoot),
        receiptsRoot: encodeData(header.receiptTrie),
        logsBloom: encodeData(header.logsBloom),
        prevRandao: encodeData(header.mixHash),
        blockNumber: encodeQuantity(header.number),
        gasLimit: encodeQuantity(header.gasLimit),
        gasUsed: encodeQuantity(header.gasUsed),
        timestamp: encodeQuantity(header.timestamp),
        extraData: encodeData(header.extraData),
        baseFeePerGas: encodeQuantity(header.baseFeePerGas ?? 0n),
        blockHash: encodeData(built.block.hash()),
        transactions: built.block.transactions.map((tx) => encodeData(tx.serialize())),
        withdrawals: built.block.withdrawals
          ? built.block.withdrawals.map((w) => ({
              index: encodeQuantity(w.index),
              validatorIndex: encodeQuantity(w.validatorIndex),
              address: w.address.toString(),
              amount: encodeQuantity(w.amount),
            }))
          : null,
        blobGasUsed: header.blobGasUsed === undefined ? null : encodeQuantity(header.blobGasUsed),
        excessBlobGas: header.excessBlobGas === undefined ? null : encodeQuantity(header.excessBlobGas),
      };
      return {
        executionPayload,
        blockValue: encodeQuantity(built.blockValue),
        // Blob transactions arrive without their blobs here (the network form is refused), so the bundle is always empty.
        blobsBundle: { commitments: [], proofs: [], blobs: [] },
        executionRequests: built.requests ? built.requests.map(encodeData) : null,
        shouldOverrideBuilder: false,
      };
    },
  ),
];
