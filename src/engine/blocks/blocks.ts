import type { Block } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import type { Address } from '@ethereumjs/util';
import { toHex } from '../util/hex.js';
import { RangeBlock, type ReservedBlocks } from './emptyRanges.js';
import type { RemoteHistory } from './remoteHistory.js';
import type { DeploymentRecord } from '../execution/deployments.js';

export interface LogRecord {
  readonly address: Address;
  readonly topics: readonly Uint8Array[];
  readonly data: Uint8Array;
  /** Position of the log in its block (block-wide, as go-ethereum counts). */
  readonly logIndex: number;
}

export interface ReceiptRecord {
  readonly type: number;
  readonly from: Address;
  readonly to: Address | undefined;
  readonly contractAddress: Address | undefined;
  readonly gasUsed: bigint;
  readonly cumulativeGasUsed: bigint;
  /** 1 success, 0 failure; undefined before Byzantium, where `root` is set instead. */
  readonly status: 0 | 1 | undefined;
  readonly root: Uint8Array | undefined;
  readonly logs: readonly LogRecord[];
  readonly logsBloom: Uint8Array;
  readonly effectiveGasPrice: bigint;
  readonly blobGasUsed: bigint | undefined;
  readonly blobGasPrice: bigint | undefined;
}

/**
 * A block as reads of history see it: the block and who sent each transaction. Its receipts
 * are read apart (`BlockStore.withReceipts`): a fork's upstream sends them only when asked.
 */
export interface BlockRecord {
  readonly block: Block;
  readonly hash: Uint8Array;
  readonly hashHex: string;
  readonly number: bigint;
  readonly senders: readonly Address[];
  readonly totalDifficulty: bigint;
}

/** A block as the node keeps it: the block, who sent each transaction, and its receipts. */
export interface MinedBlock extends BlockRecord {
  readonly receipts: readonly ReceiptRecord[];
  /**
   * The state its transactions ran on, for blocks mined here: state setters between blocks
   * (chain_setBalance and the like) change it without a block, so it may differ from the
   * parent's state root. Tracing replays the block from it.
   */
  readonly preStateRoot?: Uint8Array;
  /** The contracts its transactions created, top level and internal (deployments.ts); none for the genesis. */
  readonly deployments?: readonly DeploymentRecord[];
}

/** A block with what the store keeps beside it (its hash is computed here, once). */
export function minedBlock(
  block: Block,
  senders: readonly Address[],
  receipts: readonly ReceiptRecord[],
  totalDifficulty: bigint,
  preStateRoot?: Uint8Array,
  deployments?: readonly DeploymentRecord[],
): MinedBlock {
  const hash = block.hash();
  const mined = { block, hash, hashHex: toHex(hash), number: block.header.number, senders, receipts, totalDifficulty, preStateRoot };
  // Only blocks that created something carry the field (most blocks: a transfer, a call).
  return deployments && deployments.length > 0 ? { ...mined, deployments } : mined;
}

/** A contract created by one of the chain's blocks, as the store lists them (deployedContracts). */
export interface DeployedContract extends DeploymentRecord {
  readonly mined: MinedBlock;
}

/** A page of deployed contracts, newest first, and where the next (older) page starts. */
export interface DeployedContractsPage {
  readonly contracts: readonly DeployedContract[];
  /** How many contracts the chain's blocks created in all. */
  readonly total: number;
  /** Give it as `before` for the next page; undefined: this page reached the oldest. */
  readonly next: number | undefined;
}

/** The first `count` blocks of a run of empty blocks (emptyRanges.ts). */
export interface RunSegment {
  readonly run: RangeBlock['run'];
  readonly count: number;
}

/** A stretch of the chain as a save writes it: one block, or a run of empty ones. */
export type ChainSegment = MinedBlock | RunSegment;

export interface TransactionLocation<B extends BlockRecord = MinedBlock> {
  readonly mined: B;
  readonly index: number;
}

/** Whether a block of history came with its receipts (the store's own blocks do). */
export function hasReceipts(block: BlockRecord): block is MinedBlock {
  return 'receipts' in block;
}

/**
 * A stretch of the chain: blocks mined one at a time, or a run of reserved empty blocks
 * (which stays a run: its blocks are never copied out into objects and index entries).
 */
type Stretch = { readonly first: number; readonly blocks: MinedBlock[] } | { readonly first: number; range: ReservedBlocks };

/**
 * The canonical chain in memory: blocks by number and hash, and a
 * transaction-hash index. Appends and truncations are synchronous, so a
 * reader never sees a half-added block.
 *
 * Runs of reserved empty blocks (emptyRanges.ts) are appended in O(1) and keep their blocks'
 * hashes in one flat buffer: a read by number computes the run's hashes up to it, a by-hash
 * miss computes every run and searches their buffers, a real block appended after a run
 * needs its parent's hash anyway. Block numbers, timestamps and base fees of the head are
 * known without computing anything.
 */
export class BlockStore {
  /** Oldest first; consecutive blocks mined one at a time share one stretch. */
  private readonly stretches: Stretch[] = [];
  /** Blocks mined one at a time, by hash (a run's blocks are found in its hash buffer). */
  private readonly byHash = new Map<string, MinedBlock>();
  private readonly txIndex = new Map<string, TransactionLocation>();
  /**
   * Every contract the held blocks created, oldest first: a block's are appended with it and
   * dropped with it (revert, reset, reorg), so listing them never scans blocks.
   */
  private readonly deployed: DeployedContract[] = [];
  /** The number the next appended block must have. */
  private length = 0;
  /**
   * The first block's number: 0, or a forked chain's pinned upstream block (fork/): the
   * blocks before it are the upstream's, read through `history`.
   */
  private base = 0;
  /** With a fork: the hashes of the upstream's blocks before `base`, for BLOCKHASH. */
  olderHash: ((number: bigint) => Promise<Uint8Array>) | undefined;
  /**
   * With a fork: the upstream's history up to the pinned block. The copy of the pinned block
   * held here stands for the fork's state (its state root is the local overlay's), so reads of
   * history at or below the pinned block go to `history`, its transactions and receipts included.
   */
  history: RemoteHistory | undefined;

  get head(): MinedBlock {
    const last = this.stretches[this.stretches.length - 1];
    if (!last) throw new Error('block store is empty: genesis not added');
    return 'range' in last ? last.range.head : last.blocks[last.blocks.length - 1]!;
  }

  get headNumber(): bigint {
    return BigInt(this.length - 1);
  }

  /** The head's timestamp, without computing a reserved head. */
  get headTimestamp(): bigint {
    const head = this.head;
    return head instanceof RangeBlock ? head.timestamp : head.block.header.timestamp;
  }

  /** The head's base fee (undefined before London), without computing a reserved head. */
  get headBaseFee(): bigint | undefined {
    const head = this.head;
    return head instanceof RangeBlock ? head.baseFee : head.block.header.baseFeePerGas;
  }

  /**
   * Blocks above this number are reserved empty blocks not computed yet: no transactions, no
   * logs. Runs are computed oldest first, so everything below the first incomplete run is.
   */
  get lastUnreserved(): bigint {
    for (const stretch of this.runs()) {
      const done = Math.min(stretch.range.run.materialized, stretch.range.count);
      if (done < stretch.range.count) return BigInt(stretch.first + done - 1);
    }
    return this.headNumber;
  }

  /** The first block's number (a fork's pinned block; 0 otherwise). */
  get firstNumber(): bigint {
    return BigInt(this.base);
  }

  /** Start an empty store at block `number` (a fork's pinned block). */
  startAt(number: bigint): void {
    if (this.stretches.length > 0) throw new Error('startAt: the block store is not empty');
    this.base = Number(number);
    this.length = this.base;
  }

  append(mined: MinedBlock): void {
    if (mined.number !== BigInt(this.length)) {
      throw new Error(`block ${mined.number} does not follow head ${this.length - 1}`);
    }
    const last = this.stretches[this.stretches.length - 1];
    if (last && 'blocks' in last) {
      last.blocks.push(mined);
    } else {
      // Its parent hash is the run's last block's: computing it computes the runs before too.
      if (last) last.range.run.materializeThrough(last.range.count - 1);
      this.stretches.push({ first: this.length, blocks: [mined] });
    }
    this.length++;
    this.byHash.set(mined.hashHex, mined);
    if (mined.deployments) for (const record of mined.deployments) this.deployed.push({ ...record, mined });
    // Empty blocks may be built lazily: do not make them materialise their body.
    if (mined.senders.length === 0) return;
    mined.block.transactions.forEach((tx: TypedTransaction, index: number) => {
      this.txIndex.set(toHex(tx.hash()), { mined, index });
    });
  }

  /** Append a reservation of empty blocks following the head: O(1). */
  reserve(range: ReservedBlocks): void {
    if (range.start !== 0 || range.first !== BigInt(this.length)) throw new Error(`reservation from ${range.first} does not follow head ${this.length - 1}`);
    this.stretches.push({ first: this.length, range });
    this.length += range.count;
  }

  /** Grow the head's reservation to `range`, a longer part of the same run from its start (the next turn of a long chain_mine): O(1). */
  extendReservation(range: ReservedBlocks): void {
    const last = this.stretches.at(-1);
    if (!last || !('range' in last) || last.range.run !== range.run || range.start !== 0 || last.first + last.range.count !== this.length) {
      throw new Error('extendReservation: the head is not the end of that run');
    }
    last.range = range;
    this.length = last.first + range.count;
  }

  /** Drop every block above `number`; returns the dropped blocks mined one at a time (the ones with logs), oldest first. */
  truncateAbove(number: bigint): MinedBlock[] {
    const keep = Math.max(this.base, Math.min(this.length, Number(number) + 1));
    const dropped: MinedBlock[][] = [];
    // Whole stretches above the cut go without computing anything; the one it falls inside is cut.
    for (let last = this.stretches.at(-1); last && last.first >= keep; last = this.stretches.at(-1)) {
      this.stretches.pop();
      if ('blocks' in last) dropped.unshift(last.blocks);
    }
    const cut = this.stretches.at(-1);
    if (cut && 'blocks' in cut && cut.first + cut.blocks.length > keep) dropped.unshift(cut.blocks.splice(keep - cut.first));
    if (cut && 'range' in cut && cut.first + cut.range.count > keep) cut.range = cut.range.prefix(keep - cut.first);
    this.length = keep;
    while ((this.deployed.at(-1)?.mined.number ?? -1n) >= BigInt(keep)) this.deployed.pop();
    const blocks = dropped.flat();
    for (const mined of blocks) {
      this.byHash.delete(mined.hashHex);
      if (mined.senders.length === 0) continue;
      for (const tx of mined.block.transactions) this.txIndex.delete(toHex(tx.hash()));
    }
    return blocks;
  }

  /**
   * The chain from genesis to the head as it is held, for a save: blocks, and runs of
   * reserved empty blocks as one entry each, without computing anything.
   * A copy: later appends and reverts do not change it.
   */
  segments(): ChainSegment[] {
    return this.stretches.flatMap((stretch): ChainSegment[] =>
      'range' in stretch ? [{ run: stretch.range.run, count: stretch.range.count }] : stretch.blocks,
    );
  }

  byNumber(number: bigint): MinedBlock | undefined {
    if (number < BigInt(this.base) || number >= BigInt(this.length)) return undefined;
    const n = Number(number);
    const stretch = this.stretchOf(n);
    if ('blocks' in stretch) return stretch.blocks[n - stretch.first];
    // Computes the run's hashes up to the block (each needs its parent's).
    const index = n - stretch.first;
    stretch.range.run.materializeThrough(index);
    return stretch.range.run.blockAt(index);
  }

  /**
   * True while `mined` is still this chain's block at its number (work outside the queue
   * checks that its block was not reverted away). A reserved block is the same block while
   * its run is: runs are never re-used after a cut.
   */
  holds(mined: MinedBlock): boolean {
    const n = Number(mined.number);
    if (n < this.base || n >= this.length) return false;
    const stretch = this.stretchOf(n);
    if ('blocks' in stretch) return stretch.blocks[n - stretch.first] === mined;
    return mined instanceof RangeBlock && mined.run === stretch.range.run && mined.index === n - stretch.first;
  }

  /** A miss computes every run not computed yet: the hash may be one of theirs. */
  byHashHex(hashHex: string): MinedBlock | undefined {
    const key = hashHex.toLowerCase();
    const found = this.byHash.get(key);
    if (found) return found;
    const runs = [...this.runs()];
    if (runs.length === 0 || !/^0x[0-9a-f]{64}$/.test(key)) return undefined;
    // Blocks already computed (by reads by number) first: a hash read back after its block
    // was read by number should not compute the rest of a long run.
    const hash = Buffer.from(key.slice(2), 'hex');
    const search = () => {
      for (const { range } of runs) {
        const index = range.run.indexOfHash(hash);
        if (index >= 0 && index < range.count) return range.run.blockAt(index);
      }
      return undefined;
    };
    const computed = search();
    if (computed) return computed;
    const last = runs[runs.length - 1]!.range;
    if (last.run.materialized >= last.count) return undefined;
    last.run.materializeThrough(last.count - 1);
    return search();
  }

  /**
   * The contracts the held blocks created, newest first: at most `limit` of those older than
   * the `before`-th (counted from the oldest, 0-based; everything when it is past the end).
   */
  deployedContracts(before: number, limit: number): DeployedContractsPage {
    const total = this.deployed.length;
    const end = Math.min(before, total);
    const start = Math.max(0, end - limit);
    return { contracts: this.deployed.slice(start, end).reverse(), total, next: start > 0 ? start : undefined };
  }

  transaction(hashHex: string): TransactionLocation | undefined {
    return this.txIndex.get(hashHex.toLowerCase());
  }

  // ---- reads of history: a fork's upstream answers for blocks at or below its pinned block ----

  /** Block `number` as history: on a fork, at or below the pinned block, the upstream's. */
  async historyByNumber(number: bigint): Promise<BlockRecord | undefined> {
    if (this.history && number <= this.history.pinned) return this.history.blockByNumber(number);
    return this.byNumber(number);
  }

  /** The block with this hash as history: one of ours after a fork's pinned block, else the upstream's up to it. */
  async historyByHash(hashHex: string): Promise<BlockRecord | undefined> {
    const ours = this.byHashHex(hashHex);
    if (!this.history || (ours && ours.number > this.history.pinned)) return ours;
    return this.history.blockByHash(hashHex.toLowerCase());
  }

  /** A mined transaction: one of ours, or on a fork the upstream's at or below the pinned block. */
  async historyTransaction(hashHex: string): Promise<TransactionLocation<BlockRecord> | undefined> {
    return this.transaction(hashHex) ?? this.history?.transaction(hashHex.toLowerCase());
  }

  /** A block of history with its receipts: ours hold them, a fork's upstream is asked for its own. */
  async withReceipts(block: BlockRecord): Promise<MinedBlock> {
    if (hasReceipts(block)) return block;
    if (!this.history) throw new Error(`block ${block.number} has no receipts and the chain has no upstream history`);
    return this.history.withReceipts(block);
  }

  /** The stretch holding block `n` (which the store holds): the newest are asked for most. */
  private stretchOf(n: number): Stretch {
    const stretches = this.stretches;
    let low = 0;
    let high = stretches.length - 1;
    if (stretches[high]!.first <= n) return stretches[high]!;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (stretches[middle]!.first <= n) low = middle;
      else high = middle - 1;
    }
    return stretches[low]!;
  }

  private *runs(): Generator<{ readonly first: number; range: ReservedBlocks }> {
    for (const stretch of this.stretches) if ('range' in stretch) yield stretch;
  }

  /** The EVM asks for ancestors' hashes (BLOCKHASH); serve them from memory. */
  asEvmBlockchain(): EVMMockBlockchainInterface {
    const source: EVMMockBlockchainInterface = {
      getBlock: async (blockId: number) => {
        const mined = this.byNumber(BigInt(blockId));
        const older = !mined && this.olderHash && blockId < this.base ? await this.olderHash(BigInt(blockId)) : undefined;
        const hash = mined ? mined.hash : (older ?? new Uint8Array(32));
        return { hash: () => hash };
      },
      putBlock: async () => {},
      shallowCopy: () => source,
    };
    return source;
  }
}
