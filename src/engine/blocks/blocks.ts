import type { Block } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import type { Address } from '@ethereumjs/util';
import { toHex } from '../util/hex.js';
import { RangeBlock, type ReservedBlocks } from './emptyRanges.js';

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

/** A block as the node keeps it: the block, who sent each transaction, and its receipts. */
export interface MinedBlock {
  readonly block: Block;
  readonly hash: Uint8Array;
  readonly hashHex: string;
  readonly number: bigint;
  readonly senders: readonly Address[];
  readonly receipts: readonly ReceiptRecord[];
  readonly totalDifficulty: bigint;
  /**
   * The state its transactions ran on, for blocks mined here: state setters between blocks
   * (chain_setBalance and the like) change it without a block, so it may differ from the
   * parent's state root. Tracing replays the block from it.
   */
  readonly preStateRoot?: Uint8Array;
}

/** A block with what the store keeps beside it (its hash is computed here, once). */
export function minedBlock(
  block: Block,
  senders: readonly Address[],
  receipts: readonly ReceiptRecord[],
  totalDifficulty: bigint,
  preStateRoot?: Uint8Array,
): MinedBlock {
  const hash = block.hash();
  return { block, hash, hashHex: toHex(hash), number: block.header.number, senders, receipts, totalDifficulty, preStateRoot };
}

/** Blocks `from`..`from+count-1` of a run of empty blocks (emptyRanges.ts). */
export interface RunSegment {
  readonly run: RangeBlock['run'];
  readonly from: number;
  readonly count: number;
}

/** A stretch of the chain as a save writes it: one block, or a run of empty ones. */
export type ChainSegment = MinedBlock | RunSegment;

export interface TransactionLocation {
  readonly mined: MinedBlock;
  readonly index: number;
}

/** A reservation in the store, and how many of its blocks were moved into the block array. */
interface Pending {
  range: ReservedBlocks;
  settled: number;
}

/**
 * The canonical chain in memory: blocks by number and hash, and a
 * transaction-hash index. Appends and truncations are synchronous, so a
 * reader never sees a half-added block.
 *
 * The tail may be reservations of empty blocks (emptyRanges.ts), appended in O(1) and
 * moved into the block array as their hashes get computed: a read by number computes
 * the blocks up to it, a by-hash miss computes all of them, a real block appended after
 * them needs its parent's hash anyway. Block numbers, timestamps and base fees of the
 * head are known without computing anything.
 */
export class BlockStore {
  private readonly chain: MinedBlock[] = [];
  private readonly byHash = new Map<string, MinedBlock>();
  private readonly txIndex = new Map<string, TransactionLocation>();
  /** Reservations after the block array, oldest first (the first may be partly moved in). */
  private pending: Pending[] = [];
  /** The number the next appended block must have (the block array starts at `base`). */
  private length = 0;
  /**
   * The first block's number: 0, or a forked chain's pinned upstream block (fork/): the
   * blocks before it are the upstream's, answered from there.
   */
  private base = 0;
  /** With a fork: the hashes of the upstream's blocks before `base`, for BLOCKHASH. */
  olderHash: ((number: bigint) => Promise<Uint8Array>) | undefined;

  get head(): MinedBlock {
    const reserved = this.pending[this.pending.length - 1];
    if (reserved) return reserved.range.head;
    const head = this.chain[this.chain.length - 1];
    if (!head) throw new Error('block store is empty: genesis not added');
    return head;
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
   * logs. Computed ones may still sit in their run (a read by number leaves them there).
   */
  get lastUnreserved(): bigint {
    let last = BigInt(this.base + this.chain.length - 1);
    for (const { range } of this.pending) {
      const done = Math.min(range.run.materialized, range.count);
      if (range.first + BigInt(done) - 1n > last) last = range.first + BigInt(done) - 1n;
      if (done < range.count) break;
    }
    return last;
  }

  /** The first block's number (a fork's pinned block; 0 otherwise). */
  get firstNumber(): bigint {
    return BigInt(this.base);
  }

  /** Start an empty store at block `number` (a fork's pinned block). */
  startAt(number: bigint): void {
    if (this.chain.length > 0 || this.pending.length > 0) throw new Error('startAt: the block store is not empty');
    this.base = Number(number);
    this.length = this.base;
  }

  append(mined: MinedBlock): void {
    if (mined.number !== BigInt(this.length)) {
      throw new Error(`block ${mined.number} does not follow head ${this.length - 1}`);
    }
    // Its parent hash was the reservations' last: they are computed, move them in first.
    this.settle(true);
    this.chain.push(mined);
    this.length++;
    this.byHash.set(mined.hashHex, mined);
    // Empty blocks may be built lazily: do not make them materialise their body.
    if (mined.senders.length === 0) return;
    mined.block.transactions.forEach((tx: TypedTransaction, index: number) => {
      this.txIndex.set(toHex(tx.hash()), { mined, index });
    });
  }

  /** Append a reservation of empty blocks following the head: O(1). */
  reserve(range: ReservedBlocks): void {
    if (range.first !== BigInt(this.length)) throw new Error(`reservation from ${range.first} does not follow head ${this.length - 1}`);
    this.pending.push({ range, settled: 0 });
    this.length += range.count;
  }

  /**
   * Move computed reserved blocks into the block array and the hash index, oldest first
   * (with `compute`, computing all of them first).
   */
  private settle(compute = false): void {
    if (compute && this.pending.length > 0) {
      const last = this.pending[this.pending.length - 1]!.range;
      last.run.materializeThrough(last.count - 1);
    }
    while (this.pending.length > 0) {
      const entry = this.pending[0]!;
      const { range } = entry;
      const ready = Math.min(range.run.materialized, range.count);
      for (; entry.settled < ready; entry.settled++) {
        const block = range.run.blockAt(entry.settled);
        this.chain.push(block);
        this.byHash.set(block.hashHex, block);
      }
      if (entry.settled < range.count) return;
      this.pending.shift();
    }
  }

  /** Drop every block above `number`; returns the dropped blocks that had been computed, oldest first. */
  truncateAbove(number: bigint): MinedBlock[] {
    this.settle();
    // Reservations above `number` go without computing anything; one it falls inside is cut.
    while (this.pending.length > 0 && this.pending[this.pending.length - 1]!.range.first > number) this.pending.pop();
    const last = this.pending[this.pending.length - 1];
    if (last && last.range.last > number) {
      last.range = last.range.prefix(Number(number - last.range.first) + 1);
      // Wholly moved in already: the splice below drops the rest.
      if (last.settled >= last.range.count) this.pending.pop();
    }
    const keep = Math.max(0, Number(number) + 1 - this.base);
    const dropped = this.chain.length > keep ? this.chain.splice(keep) : [];
    this.length = Math.min(this.length, this.base + keep);
    for (const mined of dropped) {
      this.byHash.delete(mined.hashHex);
      if (mined.senders.length === 0) continue;
      for (const tx of mined.block.transactions) this.txIndex.delete(toHex(tx.hash()));
    }
    return dropped;
  }

  /**
   * The chain from genesis to the head as it is held, for a save: blocks, and runs of
   * reserved empty blocks as one entry each (computed ones too), without computing anything.
   * A copy: later appends and reverts do not change it.
   */
  segments(): ChainSegment[] {
    const out: ChainSegment[] = [];
    let open: { run: RangeBlock['run']; from: number; count: number } | undefined;
    const extend = (run: RangeBlock['run'], index: number, count: number) => {
      if (open !== undefined && out[out.length - 1] === open && open.run === run && open.from + open.count === index) {
        open.count += count;
      } else {
        open = { run, from: index, count };
        out.push(open);
      }
    };
    for (const mined of this.chain) {
      if (mined instanceof RangeBlock) extend(mined.run, mined.index, 1);
      else out.push(mined);
    }
    for (const { range, settled } of this.pending) if (settled < range.count) extend(range.run, settled, range.count - settled);
    return out;
  }

  byNumber(number: bigint): MinedBlock | undefined {
    if (number < BigInt(this.base) || number >= BigInt(this.length)) return undefined;
    const n = Number(number) - this.base;
    if (n >= this.chain.length) {
      // Hashes up to the block are computed (each needs its parent's); moving every one of
      // them into the block array and the hash index too cost a third as much again, so a
      // read leaves them in their run: a by-hash miss or a new block moves them in.
      const entry = this.pending.find((p) => p.range.last >= number)!;
      const index = Number(number - entry.range.first);
      entry.range.run.materializeThrough(index);
      return entry.range.run.blockAt(index);
    }
    return this.chain[n];
  }

  /** A miss while reservations are pending computes them all (the hash may be one of theirs). */
  byHashHex(hashHex: string): MinedBlock | undefined {
    const key = hashHex.toLowerCase();
    const found = this.byHash.get(key);
    if (found || this.pending.length === 0) return found;
    // Blocks already computed (by reads by number) first: a hash read back after its block
    // was read by number should not compute the rest of a long run.
    this.settle();
    const computed = this.byHash.get(key);
    if (computed || this.pending.length === 0) return computed;
    this.settle(true);
    return this.byHash.get(key);
  }

  transaction(hashHex: string): TransactionLocation | undefined {
    return this.txIndex.get(hashHex.toLowerCase());
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
