/**
 * Blocks and receipts in the `--state` file, so a restarted node keeps serving the chain
 * it had: each block as its RLP, with the senders (impersonated transactions cannot be
 * recovered from their placeholder signatures), receipts, total difficulty and the contracts
 * its transactions created (internal ones included, which receipts do not show).
 */
import { createBlockFromRLP } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { bytesToHex, createAddressFromString, hexToBytes } from '@ethereumjs/util';
import {
  type ChainSegment,
  type DeploymentRecord,
  deploymentsFromReceipts,
  type LogRecord,
  type MinedBlock,
  type ReceiptRecord,
  minedBlock,
  MAX_TIMESTAMP,
  ReservedBlocks,
  reserveEmptyBlocks,
  PRELOADED_PARAMS,
  toHex,
} from '../engine/index.js';
import { encodeQuantity as q } from '../rpc/encode.js';
import type { Json, JsonObject } from '../rpc/json.js';
import { StateFileError } from './stateFile.js';

function encodeReceipt(r: ReceiptRecord): JsonObject {
  const out: JsonObject = {
    type: q(r.type),
    from: r.from.toString(),
    gasUsed: q(r.gasUsed),
    cumulativeGasUsed: q(r.cumulativeGasUsed),
    logsBloom: bytesToHex(r.logsBloom),
    effectiveGasPrice: q(r.effectiveGasPrice),
    logs: r.logs.map((log) => ({
      address: log.address.toString(),
      topics: log.topics.map((t) => bytesToHex(t)),
      data: bytesToHex(log.data),
      logIndex: q(log.logIndex),
    })),
  };
  if (r.to) out.to = r.to.toString();
  if (r.contractAddress) out.contractAddress = r.contractAddress.toString();
  if (r.status !== undefined) out.status = q(r.status);
  if (r.root) out.root = bytesToHex(r.root);
  if (r.blobGasUsed !== undefined) out.blobGasUsed = q(r.blobGasUsed);
  if (r.blobGasPrice !== undefined) out.blobGasPrice = q(r.blobGasPrice);
  return out;
}

export function encodeBlocks(blocks: readonly MinedBlock[]): Json[] {
  return blocks.map((mined) => ({
    rlp: bytesToHex(mined.block.serialize()),
    senders: mined.senders.map((s) => s.toString()),
    totalDifficulty: q(mined.totalDifficulty),
    receipts: mined.receipts.map(encodeReceipt),
    deployments: (mined.deployments ?? []).map((d) => ({ address: d.address.toString(), creator: d.creator.toString(), transaction: q(d.transaction) })),
  }));
}

/** Field readers that name where a malformed file is wrong. */
function field(object: unknown, key: string, where: string): unknown {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) throw new StateFileError(where, 'expected an object');
  return (object as Record<string, unknown>)[key];
}
function text(value: unknown, where: string): string {
  if (typeof value !== 'string' || !value.startsWith('0x')) throw new StateFileError(where, 'expected a 0x-prefixed string');
  return value;
}
const big = (value: unknown, where: string) => BigInt(text(value, where));
const bytesOf = (value: unknown, where: string) => hexToBytes(text(value, where) as `0x${string}`);
const addressOf = (value: unknown, where: string) => createAddressFromString(text(value, where));
function list(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw new StateFileError(where, 'expected an array');
  return value;
}

function decodeReceipt(json: unknown, where: string): ReceiptRecord {
  const get = (key: string) => field(json, key, where);
  const optional = <T>(key: string, read: (v: unknown, w: string) => T) => (get(key) === undefined ? undefined : read(get(key), `${where}.${key}`));
  const logs: LogRecord[] = list(get('logs'), `${where}.logs`).map((log, i) => {
    const at = `${where}.logs[${i}]`;
    return {
      address: addressOf(field(log, 'address', at), `${at}.address`),
      topics: list(field(log, 'topics', at), `${at}.topics`).map((t, j) => bytesOf(t, `${at}.topics[${j}]`)),
      data: bytesOf(field(log, 'data', at), `${at}.data`),
      logIndex: Number(big(field(log, 'logIndex', at), `${at}.logIndex`)),
    };
  });
  const status = optional('status', big);
  return {
    type: Number(big(get('type'), `${where}.type`)),
    from: addressOf(get('from'), `${where}.from`),
    to: optional('to', addressOf),
    contractAddress: optional('contractAddress', addressOf),
    gasUsed: big(get('gasUsed'), `${where}.gasUsed`),
    cumulativeGasUsed: big(get('cumulativeGasUsed'), `${where}.cumulativeGasUsed`),
    status: status === undefined ? undefined : status === 1n ? 1 : 0,
    root: optional('root', bytesOf),
    logs,
    logsBloom: bytesOf(get('logsBloom'), `${where}.logsBloom`),
    effectiveGasPrice: big(get('effectiveGasPrice'), `${where}.effectiveGasPrice`),
    blobGasUsed: optional('blobGasUsed', big),
    blobGasPrice: optional('blobGasPrice', big),
  };
}

function deployment(json: unknown, where: string, transactions: number): DeploymentRecord {
  const transaction = big(field(json, 'transaction', where), `${where}.transaction`);
  if (transaction >= BigInt(transactions)) throw new StateFileError(`${where}.transaction`, `the block has ${transactions} transactions`);
  return {
    address: addressOf(field(json, 'address', where), `${where}.address`),
    creator: addressOf(field(json, 'creator', where), `${where}.creator`),
    transaction: Number(transaction),
  };
}

/** The most blocks one saved run may hold: a run is one chain_mine call's reservation. */
const MAX_RUN = 1_000_000n;

/**
 * Rebuilds saved blocks on `common` one entry at a time, so a stream never holds more than
 * one entry's JSON: numbers must run 0, 1, 2, ... with matching parent hashes. A run of
 * empty blocks (`{ "emptyRun": ... }`) comes back as a reservation (emptyRanges.ts), its
 * hashes computed when first read, as they were before the save.
 */
export class SavedBlockDecoder {
  private parent: MinedBlock | undefined;
  private next = 0n;
  private index = 0;

  constructor(
    private readonly common: Common,
    private readonly where = 'state.blocks',
    /** The block the saved ones follow (a fork's pinned block); undefined: they start at block 0. */
    after?: MinedBlock,
  ) {
    this.parent = after;
    this.next = after ? after.number + 1n : 0n;
  }

  /** The head so far, undefined before the first entry. */
  get head(): MinedBlock | undefined {
    return this.parent;
  }

  decode(entry: unknown): MinedBlock | ReservedBlocks {
    const at = `${this.where}[${this.index++}]`;
    const run = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? (entry as Record<string, unknown>).emptyRun : undefined;
    const out = run === undefined ? this.block(entry, at) : this.run(run, `${at}.emptyRun`);
    this.parent = out instanceof ReservedBlocks ? out.head : out;
    this.next += out instanceof ReservedBlocks ? BigInt(out.count) : 1n;
    return out;
  }

  private block(entry: unknown, at: string): MinedBlock {
    let block: ReturnType<typeof createBlockFromRLP>;
    try {
      block = createBlockFromRLP(bytesOf(field(entry, 'rlp', at), `${at}.rlp`), {
        common: this.common,
        skipConsensusFormatValidation: true,
        params: PRELOADED_PARAMS,
      });
    } catch (error) {
      if (error instanceof StateFileError) throw error;
      throw new StateFileError(`${at}.rlp`, `not a block for this chain: ${(error as Error).message.replace(/\s*\(.*$/s, '')}`);
    }
    if (block.header.number !== this.next) throw new StateFileError(at, `block number ${block.header.number}, expected ${this.next}`);
    const parent = this.parent;
    if (parent && toHex(block.header.parentHash) !== parent.hashHex) throw new StateFileError(at, 'parent hash does not match the previous block');
    const senders = list(field(entry, 'senders', at), `${at}.senders`).map((s, j) => addressOf(s, `${at}.senders[${j}]`));
    const receipts = list(field(entry, 'receipts', at), `${at}.receipts`).map((r, j) => decodeReceipt(r, `${at}.receipts[${j}]`));
    if (senders.length !== block.transactions.length || receipts.length !== block.transactions.length) {
      throw new StateFileError(at, "senders and receipts must match the block's transactions");
    }
    const saved = field(entry, 'deployments', at);
    // A file saved before the field was: its blocks' top-level creations, from their receipts.
    const deployments =
      saved === undefined
        ? deploymentsFromReceipts(receipts)
        : list(saved, `${at}.deployments`).map((d, j) => deployment(d, `${at}.deployments[${j}]`, receipts.length));
    return minedBlock(block, senders, receipts, big(field(entry, 'totalDifficulty', at), `${at}.totalDifficulty`), undefined, deployments);
  }

  private run(json: unknown, at: string): ReservedBlocks {
    const parent = this.parent;
    if (!parent) throw new StateFileError(at, 'a run of empty blocks cannot start the chain');
    const get = (key: string) => field(json, key, at);
    let template: ReturnType<typeof createBlockFromRLP>;
    try {
      template = createBlockFromRLP(bytesOf(get('template'), `${at}.template`), {
        common: this.common,
        skipConsensusFormatValidation: true,
        params: PRELOADED_PARAMS,
      });
    } catch (error) {
      if (error instanceof StateFileError) throw error;
      throw new StateFileError(`${at}.template`, `not a block for this chain: ${(error as Error).message.replace(/\s*\(.*$/s, '')}`);
    }
    if (template.transactions.length > 0 || template.uncleHeaders.length > 0 || (template.withdrawals?.length ?? 0) > 0) {
      throw new StateFileError(`${at}.template`, 'not an empty block');
    }
    const count = big(get('count'), `${at}.count`);
    if (count < 1n || count > MAX_RUN) throw new StateFileError(`${at}.count`, `expected 1 to ${MAX_RUN} blocks`);
    const firstTimestamp = big(get('firstTimestamp'), `${at}.firstTimestamp`);
    const step = big(get('step'), `${at}.step`);
    if (firstTimestamp + (count - 1n) * step > MAX_TIMESTAMP) throw new StateFileError(at, 'its last block would be past timestamp 2^64-1');
    const baseFee = get('firstBaseFee');
    const firstBaseFee = baseFee === undefined ? undefined : big(baseFee, `${at}.firstBaseFee`);
    if ((firstBaseFee === undefined) !== (template.header.baseFeePerGas === undefined)) {
      throw new StateFileError(
        `${at}.firstBaseFee`,
        template.header.baseFeePerGas === undefined ? 'the template has no base fee' : 'missing (the template has a base fee)',
      );
    }
    return reserveEmptyBlocks({ parent, template, count: Number(count), firstTimestamp, step, firstBaseFee });
  }
}

/** Rebuild saved blocks on `common` (the whole-file form; streams use SavedBlockDecoder). */
export function decodeBlocks(json: readonly Json[], common: Common, where = 'state.blocks'): (MinedBlock | ReservedBlocks)[] {
  const decoder = new SavedBlockDecoder(common, where);
  return json.map((entry) => decoder.decode(entry));
}

/** One saved entry: a block, or a run of empty blocks in a few fields (its blocks follow from them). */
export function encodeSegment(segment: ChainSegment): Json {
  if (!('run' in segment)) return encodeBlocks([segment])[0]!;
  const { run, count } = segment;
  const out: JsonObject = {
    template: bytesToHex(run.spec.template.serialize()),
    count: q(count),
    firstTimestamp: q(run.timestampAt(0)),
    step: q(run.spec.step),
  };
  const baseFee = run.baseFeeAt(0);
  if (baseFee !== undefined) out.firstBaseFee = q(baseFee);
  return { emptyRun: out };
}
