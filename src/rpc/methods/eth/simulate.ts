/** eth_simulateV1 (chain_simulateV1): go-ethereum's simulated blocks, decoded and written as go-ethereum writes them. */
import { bytesToHex } from '@ethereumjs/util';
import { minedBlock } from '../../../engine/blocks/blocks.js';
import type { SimLog } from '../../../engine/execution/simulateLogs.js';
import type { SimulateOptions, SimulatedBlock, SimulatedBlockSpec, SimulatedCall } from '../../../engine/execution/simulate.js';
import { type Decoder, arrayOf, blockRef, boolean, callRequest, fail, optional, record } from '../../codec.js';
import { encodeData, encodeQuantity } from '../../encode.js';
import { formatBlock } from '../../format.js';
import type { Json, JsonObject } from '../../json.js';
import { defineMethod, optionalParam, param } from '../../method.js';
import { blockOverrides, stateOverrides } from '../../overrides.js';

const BLOCK_FIELDS = new Set(['blockOverrides', 'stateOverrides', 'calls']);
const OPTION_FIELDS = new Set(['blockStateCalls', 'traceTransfers', 'validation', 'returnFullTransactions']);

const blockSpec: Decoder<SimulatedBlockSpec> = (value, path) => {
  const fields = record(value, path);
  for (const key of Object.keys(fields)) {
    if (!BLOCK_FIELDS.has(key)) fail(path, `unknown field "${key}" in block state call (want ${[...BLOCK_FIELDS].join(', ')})`);
  }
  return {
    blockOverrides: optional(blockOverrides)(fields.blockOverrides, `${path}.blockOverrides`),
    stateOverrides: optional(stateOverrides)(fields.stateOverrides, `${path}.stateOverrides`),
    // The limits (5000 per block, 10000 in all) are checked with go-ethereum's codes by the engine.
    calls: optional(arrayOf(callRequest, 1_000_000))(fields.calls, `${path}.calls`) ?? [],
  };
};

export type SimulateRequest = SimulateOptions & { readonly returnFullTransactions: boolean };

const simulateOptions: Decoder<SimulateRequest> = (value, path) => {
  const fields = record(value, path);
  for (const key of Object.keys(fields)) {
    if (!OPTION_FIELDS.has(key)) fail(path, `unknown field "${key}" (want ${[...OPTION_FIELDS].join(', ')})`);
  }
  return {
    blocks: optional(arrayOf(blockSpec, 1_000_000))(fields.blockStateCalls, `${path}.blockStateCalls`) ?? [],
    traceTransfers: optional(boolean)(fields.traceTransfers, `${path}.traceTransfers`) ?? false,
    validation: optional(boolean)(fields.validation, `${path}.validation`) ?? false,
    returnFullTransactions: optional(boolean)(fields.returnFullTransactions, `${path}.returnFullTransactions`) ?? false,
  };
};

function formatLog(log: SimLog, block: SimulatedBlock, txIndex: number, hashes: readonly string[]): JsonObject {
  return {
    address: log.address.toString(),
    topics: log.topics.map((topic) => bytesToHex(topic)),
    data: encodeData(log.data),
    blockNumber: encodeQuantity(block.block.header.number),
    transactionHash: hashes[txIndex]!,
    transactionIndex: encodeQuantity(txIndex),
    blockHash: bytesToHex(block.hash),
    blockTimestamp: encodeQuantity(block.block.header.timestamp),
    logIndex: encodeQuantity(log.index),
    removed: false,
  };
}

function formatCall(call: SimulatedCall, block: SimulatedBlock, index: number, hashes: readonly string[]): JsonObject {
  const out: JsonObject = {
    returnData: encodeData(call.returnData),
    logs: call.logs.map((log) => formatLog(log, block, index, hashes)),
    gasUsed: encodeQuantity(call.gasUsed),
    maxUsedGas: encodeQuantity(call.maxUsedGas),
    status: encodeQuantity(call.status),
  };
  if (call.error) {
    out.error = { message: call.error.message, code: call.error.code, ...(call.error.data === undefined ? {} : { data: encodeData(call.error.data) }) };
  }
  return out;
}

/** A simulated block as go-ethereum's RPCMarshalBlock writes it (no totalDifficulty), with its calls. */
export function formatSimulatedBlock(block: SimulatedBlock, fullTransactions: boolean): JsonObject {
  const mined = minedBlock(block.block, block.senders, [], 0n);
  const { totalDifficulty: _omitted, ...json } = formatBlock(mined, fullTransactions);
  const timestamp = encodeQuantity(block.block.header.timestamp);
  if (fullTransactions) json.transactions = (json.transactions as JsonObject[]).map((tx) => ({ ...tx, blockTimestamp: timestamp }));
  const hashes = block.block.transactions.map((tx) => bytesToHex(tx.hash()));
  return { ...json, calls: block.calls.map((call, i) => formatCall(call, block, i, hashes)) as Json };
}

export const simulateMethods = [
  defineMethod(
    { name: 'chain_simulateV1', aliases: ['eth_simulateV1'] },
    [param('options', simulateOptions), optionalParam('block', blockRef)],
    async ({ chain }, options, ref) => {
      const blocks = await chain.simulate(options, ref ?? { tag: 'latest' });
      return blocks.map((block) => formatSimulatedBlock(block, options.returnFullTransactions));
    },
  ),
];
