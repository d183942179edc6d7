/**
 * A forked chain's history up to the pinned block, read from the upstream: what the engine's
 * block store asks for at or below the pinned block (engine/blocks/remoteHistory.ts). Blocks
 * come with their transactions (eth_getBlockByNumber / eth_getBlockByHash with full
 * transactions; uncles by eth_getUncleByBlockHashAndIndex), receipts when asked for
 * (eth_getBlockReceipts, or each transaction's from an upstream without it), transactions by
 * hash (eth_getTransactionByHash, then their block) and logs (eth_getLogs).
 *
 * The upstream's JSON is decoded here into the engine's types: ethereumjs blocks and
 * transactions under the rules of the block's own header (or of the known network's
 * schedule), with the upstream's hashes; receipts and logs as the engine records them. Each
 * answer is kept (answers.ts, and on disk) and each decoded block too: history at or below the
 * pinned block never changes.
 */
import { type Block, type JSONRPCBlock, createBlockFromRPC } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { type Address, bytesToHex, createAddressFromString } from '@ethereumjs/util';
import type { BlockRecord, LogRecord, MinedBlock, ReceiptRecord, TransactionLocation } from '../engine/blocks/blocks.js';
import type { RemoteHistory } from '../engine/blocks/remoteHistory.js';
import type { FoundLog, LogCriteria } from '../engine/logs/logQuery.js';
import { type ForkSchedule, forkAt } from '../engine/rules/forkSchedule.js';
import { createChainCommon } from '../engine/rules/hardforks.js';
import type { UpstreamAnswers } from './answers.js';
import { hardforkOfFields } from './headerRules.js';
import { UpstreamError } from './upstream.js';

/** The upstream chain's identity, for decoding its blocks: its chain id, and a known network's schedule. */
export interface UpstreamChain {
  readonly chainId: bigint;
  readonly schedule?: ForkSchedule;
}

type JsonObject = Record<string, unknown>;

export class UpstreamHistory implements RemoteHistory {
  /** Decoded blocks by `n:<number>` and `h:<hash>`; a failed fetch is forgotten, so the next read asks again. */
  private readonly blocks = new Map<string, Promise<BlockRecord | undefined>>();
  private readonly receipts = new Map<string, Promise<MinedBlock>>();
  /** One Common per hardfork the upstream's blocks follow. */
  private readonly commons = new Map<string, Common>();

  constructor(
    readonly pinned: bigint,
    private readonly answers: UpstreamAnswers,
    private readonly chain: UpstreamChain,
  ) {}

  blockByNumber(number: bigint): Promise<BlockRecord | undefined> {
    if (number > this.pinned || number < 0n) return Promise.resolve(undefined);
    return this.once(this.blocks, `n:${number}`, () => this.fetchBlock('eth_getBlockByNumber', [quantityHex(number), true], `block ${number}`));
  }

  blockByHash(hashHex: string): Promise<BlockRecord | undefined> {
    return this.once(this.blocks, `h:${hashHex}`, () => this.fetchBlock('eth_getBlockByHash', [hashHex, true], `block ${hashHex}`));
  }

  withReceipts(block: BlockRecord): Promise<MinedBlock> {
    return this.once(this.receipts, block.hashHex, () => this.fetchReceipts(block));
  }

  async transaction(hashHex: string): Promise<TransactionLocation<BlockRecord> | undefined> {
    const what = `transaction ${hashHex}`;
    const answer = await this.answers.ask('eth_getTransactionByHash', [hashHex], what);
    if (answer === null) return undefined;
    const json = this.object(answer, 'eth_getTransactionByHash', what);
    // Still pending at the upstream, or mined after the pinned block: not this chain's history.
    if (json.blockHash === null || json.blockHash === undefined || json.blockNumber === null || json.blockNumber === undefined) return undefined;
    if (this.quantity(json.blockNumber, 'eth_getTransactionByHash', `${what} (blockNumber)`) > this.pinned) return undefined;
    const block = await this.blockByHash(this.hash(json.blockHash, 'eth_getTransactionByHash', `${what} (blockHash)`));
    const index = block?.block.transactions.findIndex((tx) => bytesToHex(tx.hash()) === hashHex) ?? -1;
    return block && index >= 0 ? { mined: block, index } : undefined;
  }

  async logs(criteria: LogCriteria, first: bigint, last: bigint): Promise<FoundLog[]> {
    const filter: JsonObject = { fromBlock: quantityHex(first), toBlock: quantityHex(last) };
    if (criteria.addresses.length > 0) filter.address = criteria.addresses.map((a) => a.toString());
    if (criteria.topics.length > 0) filter.topics = criteria.topics.map((options) => (options.length === 0 ? null : options.map((t) => bytesToHex(t))));
    const what = `logs of blocks ${first}..${last}`;
    const answer = await this.answers.ask('eth_getLogs', [filter], what);
    if (!Array.isArray(answer)) throw this.malformed('eth_getLogs', what, 'expected an array of logs');
    return answer.map((item, i) => this.decodeLog(item, `${what} (log ${i})`));
  }

  /** A fetch per key at a time, kept once it succeeds. */
  private once<T>(map: Map<string, Promise<T>>, key: string, fetch: () => Promise<T>): Promise<T> {
    let found = map.get(key);
    if (!found) {
      found = fetch();
      map.set(key, found);
      found.catch(() => map.delete(key));
    }
    return found;
  }

  private async fetchBlock(method: string, params: readonly unknown[], what: string): Promise<BlockRecord | undefined> {
    const answer = await this.answers.ask(method, params, what);
    if (answer === null) return undefined;
    const json = this.object(answer, method, what);
    const number = this.quantity(json.number, method, `${what} (number)`);
    // The upstream's block after the pinned one is not part of this chain.
    if (number > this.pinned) return undefined;
    const hashHex = this.hash(json.hash, method, `${what} (hash)`);
    const uncleHashes = Array.isArray(json.uncles) ? json.uncles : [];
    const uncles = await Promise.all(
      uncleHashes.map(async (_, i) =>
        this.object(
          await this.answers.ask('eth_getUncleByBlockHashAndIndex', [hashHex, quantityHex(BigInt(i))], `uncle ${i} of ${what}`),
          'eth_getUncleByBlockHashAndIndex',
          `uncle ${i} of ${what}`,
        ),
      ),
    );
    const record = this.decodeBlock(json, uncles, number, hashHex, method, what);
    this.blocks.set(`n:${number}`, Promise.resolve(record));
    this.blocks.set(`h:${hashHex}`, Promise.resolve(record));
    return record;
  }

  private decodeBlock(json: JsonObject, uncles: JsonObject[], number: bigint, hashHex: string, method: string, what: string): BlockRecord {
    const transactions = json.transactions;
    if (!Array.isArray(transactions) || transactions.some((tx) => typeof tx !== 'object' || tx === null))
      throw this.malformed(method, what, 'expected the transactions as objects');
    const merged = this.quantity(json.difficulty ?? '0x0', method, `${what} (difficulty)`) === 0n;
    const timestamp = this.quantity(json.timestamp, method, `${what} (timestamp)`);
    const hardfork = this.chain.schedule ? forkAt(this.chain.schedule, number, timestamp) : hardforkOfFields(json, merged);
    let block: Block;
    try {
      block = createBlockFromRPC(json as unknown as JSONRPCBlock, uncles, { common: this.common(hardfork), skipConsensusFormatValidation: true });
    } catch (error) {
      throw this.malformed(
        method,
        what,
        `not a ${hardfork} block the engine can read: ${error instanceof Error ? error.message.replace(/\s*\(.*$/s, '') : String(error)}`,
      );
    }
    // The upstream's hashes: headers and transactions are frozen, their hash caches are not.
    const hash = hexBytes(hashHex);
    (block.header as unknown as { cache: { hash?: Uint8Array } }).cache.hash = hash;
    const senders: Address[] = transactions.map((tx, i) => {
      const { from, hash: txHash } = tx as JsonObject;
      (block.transactions[i] as unknown as { cache: { hash?: Uint8Array } }).cache.hash = hexBytes(
        this.hash(txHash, method, `${what} (transaction ${i} hash)`),
      );
      return this.address(from, method, `${what} (transaction ${i} from)`);
    });
    const totalDifficulty =
      json.totalDifficulty === undefined || json.totalDifficulty === null ? 0n : this.quantity(json.totalDifficulty, method, `${what} (totalDifficulty)`);
    return { block, hash, hashHex, number, senders, totalDifficulty };
  }

  private async fetchReceipts(block: BlockRecord): Promise<MinedBlock> {
    const { transactions } = block.block;
    if (transactions.length === 0) return { ...block, receipts: [] };
    const what = `block ${block.number}`;
    let answers: unknown[];
    try {
      const all = await this.answers.ask('eth_getBlockReceipts', [quantityHex(block.number)], `the receipts of ${what}`);
      if (!Array.isArray(all)) throw this.malformed('eth_getBlockReceipts', `the receipts of ${what}`, 'expected an array of receipts');
      answers = all;
    } catch (error) {
      // An upstream that refused eth_getBlockReceipts (it need not serve it): each transaction's receipt, in one batch.
      if (!(error instanceof UpstreamError) || error.upstreamCode === undefined) throw error;
      answers = await Promise.all(
        transactions.map((tx) => {
          const hashHex = bytesToHex(tx.hash());
          return this.answers.ask('eth_getTransactionReceipt', [hashHex], `the receipt of transaction ${hashHex}`);
        }),
      );
    }
    if (answers.length !== transactions.length)
      throw this.malformed('eth_getBlockReceipts', `the receipts of ${what}`, `${answers.length} receipts for ${transactions.length} transactions`);
    const receipts = answers.map((answer, i) => {
      const where = `the receipt of transaction ${i} of ${what}`;
      const json = this.object(answer, 'eth_getBlockReceipts', where);
      if (json.transactionHash !== bytesToHex(transactions[i]!.hash())) throw this.malformed('eth_getBlockReceipts', where, "not that transaction's receipt");
      return this.decodeReceipt(json, where);
    });
    return { ...block, receipts };
  }

  private decodeReceipt(json: JsonObject, what: string): ReceiptRecord {
    const method = 'eth_getBlockReceipts';
    const q = (field: string) => this.quantity(json[field], method, `${what} (${field})`);
    const optional = (field: string) => (json[field] === undefined || json[field] === null ? undefined : q(field));
    const status = optional('status');
    if (!Array.isArray(json.logs)) throw this.malformed(method, what, 'expected its logs as an array');
    return {
      type: Number(optional('type') ?? 0n),
      from: this.address(json.from, method, `${what} (from)`),
      to: json.to === null || json.to === undefined ? undefined : this.address(json.to, method, `${what} (to)`),
      contractAddress:
        json.contractAddress === null || json.contractAddress === undefined
          ? undefined
          : this.address(json.contractAddress, method, `${what} (contractAddress)`),
      gasUsed: q('gasUsed'),
      cumulativeGasUsed: q('cumulativeGasUsed'),
      status: status === undefined ? undefined : status === 0n ? 0 : 1,
      root: json.root === null || json.root === undefined ? undefined : hexBytes(this.data(json.root, method, `${what} (root)`)),
      logs: json.logs.map((log, i) => this.decodeLogRecord(this.object(log, method, `${what} (log ${i})`), method, `${what} (log ${i})`)),
      logsBloom: hexBytes(this.data(json.logsBloom, method, `${what} (logsBloom)`)),
      effectiveGasPrice: optional('effectiveGasPrice') ?? 0n,
      blobGasUsed: optional('blobGasUsed'),
      blobGasPrice: optional('blobGasPrice'),
    };
  }

  private decodeLog(item: unknown, what: string): FoundLog {
    const method = 'eth_getLogs';
    const json = this.object(item, method, what);
    const timestamp = json.blockTimestamp;
    return {
      log: this.decodeLogRecord(json, method, what),
      position: {
        blockNumber: this.quantity(json.blockNumber, method, `${what} (blockNumber)`),
        blockHashHex: this.hash(json.blockHash, method, `${what} (blockHash)`),
        blockTimestamp: timestamp === undefined || timestamp === null ? undefined : this.quantity(timestamp, method, `${what} (blockTimestamp)`),
        transactionHash: hexBytes(this.hash(json.transactionHash, method, `${what} (transactionHash)`)),
        transactionIndex: Number(this.quantity(json.transactionIndex, method, `${what} (transactionIndex)`)),
      },
      removed: false,
    };
  }

  private decodeLogRecord(json: JsonObject, method: string, what: string): LogRecord {
    if (!Array.isArray(json.topics)) throw this.malformed(method, what, 'expected its topics as an array');
    return {
      address: this.address(json.address, method, `${what} (address)`),
      topics: json.topics.map((topic, i) => hexBytes(this.hash(topic, method, `${what} (topic ${i})`))),
      data: hexBytes(this.data(json.data, method, `${what} (data)`)),
      logIndex: Number(this.quantity(json.logIndex, method, `${what} (logIndex)`)),
    };
  }

  private common(hardfork: string): Common {
    let common = this.commons.get(hardfork);
    if (!common) this.commons.set(hardfork, (common = createChainCommon(this.chain.chainId, hardfork)));
    return common;
  }

  private malformed(method: string, what: string, detail: string): UpstreamError {
    return new UpstreamError(`fork upstream ${this.answers.upstreamName}: ${method} for ${what} failed: malformed answer (${detail})`);
  }

  private object(value: unknown, method: string, what: string): JsonObject {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw this.malformed(method, what, 'expected an object');
    return value as JsonObject;
  }

  private quantity(value: unknown, method: string, what: string): bigint {
    if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value))
      throw this.malformed(method, what, `expected a quantity, got ${JSON.stringify(value)?.slice(0, 40)}`);
    return BigInt(value);
  }

  private data(value: unknown, method: string, what: string): string {
    if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value))
      throw this.malformed(method, what, `expected hex data, got ${JSON.stringify(value)?.slice(0, 40)}`);
    return value.toLowerCase();
  }

  private hash(value: unknown, method: string, what: string): string {
    const hex = this.data(value, method, what);
    if (hex.length !== 66) throw this.malformed(method, what, 'expected a 32-byte hash');
    return hex;
  }

  private address(value: unknown, method: string, what: string): Address {
    const hex = this.data(value, method, what);
    if (hex.length !== 42) throw this.malformed(method, what, 'expected a 20-byte address');
    return createAddressFromString(hex);
  }
}

function quantityHex(value: bigint): string {
  return `0x${value.toString(16)}`;
}

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));
}
