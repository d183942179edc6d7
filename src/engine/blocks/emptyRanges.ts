/**
 * Reserved runs of empty blocks (chain_mine of many blocks): reserving one is O(1); its
 * blocks' headers and hashes are computed on first use, in order, once, and kept.
 */
import { pace } from '../util/pace.js';
import { type Block, createBlock, createBlockFromBytesArray } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { type Address, equalsBytes } from '@ethereumjs/util';
import type { MinedBlock } from './blocks.js';
import { EmptyHeaderWriter } from './emptyHeader.js';
import { PRELOADED_PARAMS } from '../rules/hardforks.js';
import { keccak256Into } from '../util/keccak256.js';
import { toHex } from '../util/hex.js';

/** What a run of empty blocks is made of; everything else follows from it. */
export interface RunSpec {
  /** The block before the run's first: in the chain already, possibly itself reserved. */
  readonly parent: MinedBlock;
  /** An empty block under the same settings (emptySuccessor): every block of the run shares its constant header fields. */
  readonly template: Block;
  readonly count: number;
  readonly firstTimestamp: bigint;
  /** Seconds between consecutive blocks of the run. */
  readonly step: bigint;
  /** The base fee of the run's first block (undefined before London). */
  readonly firstBaseFee: bigint | undefined;
}

/** EIP-1559's next base fee after a block that used no gas: it falls by 1/8, rounded down. */
export function baseFeeAfterEmpty(common: Common, baseFee: bigint): bigint {
  return baseFee - baseFee / common.param('baseFeeMaxChangeDenominator');
}

/** The base fee `blocks` empty blocks later; O(1) in practice, as the fee stops falling below 8 wei within a few hundred blocks. */
function baseFeeAfterEmptyBlocks(common: Common, baseFee: bigint, blocks: number): bigint {
  let fee = baseFee;
  for (let i = 0; i < blocks; i++) {
    const next = baseFeeAfterEmpty(common, fee);
    if (next === fee) break;
    fee = next;
  }
  return fee;
}

/** Blocks hashed between two checks of the clock by materializePaced (about 1 ms of hashing). */
const PACED_BLOCKS = 256;

const NO_SENDERS: readonly [] = Object.freeze([]) as readonly [];
const NO_RECEIPTS: readonly [] = Object.freeze([]) as readonly [];

/**
 * A run of empty blocks after `spec.parent`: the blocks of an empty post-merge block that
 * follows another while nothing changes state differ only in parent hash, number,
 * timestamp, prevRandao (hash of the parent's) and base fee. Hashes and prevRandaos are
 * computed on demand into two flat buffers (no object per hash); block objects are small
 * views on the run.
 */
export class EmptyRun {
  readonly first: bigint;
  private hashes: Uint8Array | undefined;
  private mixes: Uint8Array | undefined;
  private writer: EmptyHeaderWriter | undefined;
  private done = 0;
  /** indexOfHash's table, and how many computed blocks it holds. */
  private hashTable: Int32Array | undefined;
  private indexed = 0;
  /** The base fee of block `done` (the next one to compute). */
  private cursorBaseFee: bigint | undefined;
  /**
   * The block objects handed out (one per block, made on first request, so that computing
   * hashes allocates nothing per block: a read far into a long run hashes every block before
   * it, and making an object for each cost a fifth of that): blocks 0..n-1 in an array, as
   * the store asks for them in order, and any handed out beyond those in a map.
   */
  private readonly blocks: RangeBlock[] = [];
  private readonly early = new Map<number, RangeBlock>();

  constructor(readonly spec: RunSpec) {
    this.first = spec.parent.number + 1n;
    this.cursorBaseFee = spec.firstBaseFee;
  }

  get common(): Common {
    return this.spec.template.common;
  }

  /** How many blocks from the start have their hash computed. */
  get materialized(): number {
    return this.done;
  }

  /** The object for block `index` (one per block, so identity comparisons hold); computes nothing. */
  blockAt(index: number): RangeBlock {
    if (index < this.blocks.length) return this.blocks[index]!;
    const block = this.early.get(index) ?? new RangeBlock(this, index);
    if (index !== this.blocks.length) {
      this.early.set(index, block);
      return block;
    }
    this.blocks.push(block);
    this.early.delete(index);
    for (let next = this.early.get(this.blocks.length); next; next = this.early.get(this.blocks.length)) {
      this.early.delete(this.blocks.length);
      this.blocks.push(next);
    }
    return block;
  }

  timestampAt(index: number): bigint {
    return this.spec.firstTimestamp + BigInt(index) * this.spec.step;
  }

  baseFeeAt(index: number): bigint | undefined {
    const first = this.spec.firstBaseFee;
    return first === undefined ? undefined : baseFeeAfterEmptyBlocks(this.common, first, index);
  }

  /** A copy of block `index`'s hash, computing it (and every block before it) if needed. */
  hashAt(index: number): Uint8Array {
    this.materializeThrough(index);
    return this.hashes!.slice(index * 32, index * 32 + 32);
  }

  hashHexAt(index: number): string {
    this.materializeThrough(index);
    return toHex(this.hashes!.subarray(index * 32, index * 32 + 32));
  }

  mixHashAt(index: number): Uint8Array {
    this.materializeThrough(index);
    return this.mixes!.slice(index * 32, index * 32 + 32);
  }

  /**
   * The index of the computed block whose hash is `hash`, or -1. An open-addressing table
   * keyed by each hash's first word, made on the first by-hash search and extended as more
   * blocks are computed: entries are index + 1, 0 is free.
   */
  indexOfHash(hash: Uint8Array): number {
    if (!this.hashes || this.done === 0) return -1;
    const hashes = this.hashes;
    // The buffer was allocated by this run, so its 32-byte entries are 4-byte aligned.
    const words = new Uint32Array(hashes.buffer, hashes.byteOffset, this.done * 8);
    let table = this.hashTable;
    if (!table) {
      let size = 2;
      while (size < this.spec.count * 2) size *= 2;
      table = this.hashTable = new Int32Array(size);
    }
    const mask = table.length - 1;
    for (; this.indexed < this.done; this.indexed++) {
      let slot = words[this.indexed * 8]! & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = this.indexed + 1;
    }
    const first = new Uint32Array(Uint8Array.from(hash.subarray(0, 4)).buffer)[0]!;
    for (let slot = first & mask; table[slot] !== 0; slot = (slot + 1) & mask) {
      const index = table[slot]! - 1;
      if (words[index * 8] === first && equalsBytes(hashes.subarray(index * 32, index * 32 + 32), hash)) return index;
    }
    return -1;
  }

  /**
   * Compute blocks up to `index`. A run's first parent may be the last block of an earlier,
   * still unmaterialized run: those are done first, oldest first, in a loop (a recursion
   * could be as deep as the number of runs).
   */
  materializeThrough(index: number): void {
    if (index < this.done) return;
    if (index >= this.spec.count) throw new RangeError(`block ${index} is outside a run of ${this.spec.count}`);
    const waiting: RangeBlock[] = [];
    for (let p = this.spec.parent; p instanceof RangeBlock && p.run.done <= p.index; p = p.run.spec.parent) waiting.push(p);
    for (let k = waiting.length - 1; k >= 0; k--) waiting[k]!.run.extend(waiting[k]!.index);
    this.extend(index);
  }

  /**
   * materializeThrough a few hundred blocks at a time, letting the event loop turn between
   * them (pace.ts): the first block mined after a run of 100,000 needs every hash of it (0.45 s
   * of hashing), and the reads of other clients go on meanwhile.
   */
  async materializePaced(index: number): Promise<void> {
    for (const { run, through } of this.pathTo(index)) {
      while (run.done <= through) {
        run.extend(Math.min(through, run.done + PACED_BLOCKS - 1));
        const turn = pace();
        if (turn !== undefined) await turn;
      }
    }
  }

  /**
   * Hash at most `blocks` more blocks towards block `index` (the unhashed runs before this one
   * first): runHashing.ts's step. Answers true once block `index` is hashed.
   */
  materializeSome(index: number, blocks: number): boolean {
    let left = blocks;
    for (const { run, through } of this.pathTo(index)) {
      while (run.done <= through) {
        if (left <= 0) return false;
        const upTo = Math.min(through, run.done + left - 1);
        left -= upTo - run.done + 1;
        run.extend(upTo);
      }
    }
    return true;
  }

  /** The runs to hash for block `index`, oldest first: unhashed runs before this one (through their parent's block), then this one. */
  private pathTo(index: number): Array<{ run: EmptyRun; through: number }> {
    const path: Array<{ run: EmptyRun; through: number }> = [];
    for (let p = this.spec.parent; p instanceof RangeBlock && p.run.done <= p.index; p = p.run.spec.parent) path.unshift({ run: p.run, through: p.index });
    path.push({ run: this, through: Math.min(index, this.spec.count - 1) });
    return path;
  }

  /**
   * Grow the hash buffers to hold `blocks` blocks, at least doubling (at most the run's
   * count), keeping what is computed. Not the run's whole count at once: a long chain_mine
   * reserves one run for all its blocks and hashes it a turn at a time (mining/mineMany.ts),
   * another block coming between two turns leaves the rest of it unused, and a read into a
   * long 'lazy' run computes only up to it.
   */
  private makeRoomFor(blocks: number): { hashes: Uint8Array; mixes: Uint8Array } {
    const held = (this.hashes?.length ?? 0) / 32;
    if (held >= blocks) return { hashes: this.hashes!, mixes: this.mixes! };
    const size = Math.min(this.spec.count, Math.max(blocks, held * 2, PACED_BLOCKS));
    const grown = (old: Uint8Array | undefined): Uint8Array => {
      const buffer = new Uint8Array(size * 32);
      if (old) buffer.set(old.subarray(0, this.done * 32));
      return buffer;
    };
    this.hashes = grown(this.hashes);
    this.mixes = grown(this.mixes);
    return { hashes: this.hashes, mixes: this.mixes };
  }

  /** Compute blocks `done`..`index`; the parent of the first is already computed. */
  private extend(index: number): void {
    if (index < this.done) return;
    const { hashes, mixes } = this.makeRoomFor(index + 1);
    const writer = (this.writer ??= new EmptyHeaderWriter(this.spec.template.header.raw()));
    const common = this.common;
    let parents = hashes;
    let parentAt = (this.done - 1) * 32;
    let parentMixes = mixes;
    let parentMixAt = parentAt;
    if (this.done === 0) {
      const parent = this.spec.parent;
      parents = parent.hash;
      parentAt = 0;
      parentMixes = parent instanceof RangeBlock ? parent.mixHash : parent.block.header.mixHash;
      parentMixAt = 0;
    }
    let baseFee = this.cursorBaseFee;
    let feeSettled = false;
    for (let i = this.done; i <= index; i++) {
      const at = i * 32;
      keccak256Into(parentMixes, parentMixAt, 32, mixes, at);
      const length = writer.encode(parents, parentAt, this.first + BigInt(i), this.timestampAt(i), mixes, at, baseFee);
      keccak256Into(writer.bytes, 0, length, hashes, at);
      parents = hashes;
      parentAt = at;
      parentMixes = mixes;
      parentMixAt = at;
      // Once the fee stops falling (below 8 wei) it stays: no parameter lookup per block.
      if (baseFee !== undefined && !feeSettled) {
        const next = baseFeeAfterEmpty(common, baseFee);
        feeSettled = next === baseFee;
        baseFee = next;
      }
    }
    this.cursorBaseFee = baseFee;
    this.done = index + 1;
  }

  /** Block `index` as an ethereumjs Block (for getters, export, the EVM's block context). */
  buildBlock(index: number): Block {
    const template = this.spec.template;
    const [, ...body] = template.raw();
    const raw = this.writer!.raw({
      parentHash: index === 0 ? this.spec.parent.hash : this.hashAt(index - 1),
      number: this.first + BigInt(index),
      timestamp: this.timestampAt(index),
      mixHash: this.mixHashAt(index),
      baseFee: this.baseFeeAt(index),
    });
    return createBlockFromBytesArray([raw, ...body] as Parameters<typeof createBlockFromBytesArray>[0], {
      common: template.common,
      skipConsensusFormatValidation: true,
      params: PRELOADED_PARAMS,
    });
  }
}

/** One block of a run: a view that computes its hash and Block on first use and keeps them. */
export class RangeBlock implements MinedBlock {
  private hex: string | undefined;
  private built: Block | undefined;

  constructor(
    readonly run: EmptyRun,
    readonly index: number,
  ) {}

  get number(): bigint {
    return this.run.first + BigInt(this.index);
  }

  get timestamp(): bigint {
    return this.run.timestampAt(this.index);
  }

  get baseFee(): bigint | undefined {
    return this.run.baseFeeAt(this.index);
  }

  get hash(): Uint8Array {
    return this.run.hashAt(this.index);
  }

  get hashHex(): string {
    return (this.hex ??= this.run.hashHexAt(this.index));
  }

  get mixHash(): Uint8Array {
    return this.run.mixHashAt(this.index);
  }

  get senders(): readonly [] {
    return NO_SENDERS;
  }

  get receipts(): readonly [] {
    return NO_RECEIPTS;
  }

  get totalDifficulty(): bigint {
    return this.run.spec.parent.totalDifficulty;
  }

  get block(): Block {
    this.run.materializeThrough(this.index);
    return (this.built ??= this.run.buildBlock(this.index));
  }
}

/**
 * Blocks start..count-1 of a run: as the chain holds them (start 0: a reservation, or what a
 * revert left of one), or as a 'reserved' event gives them (the blocks a turn of a long
 * chain_mine added to a run already in the chain).
 */
export class ReservedBlocks {
  constructor(
    readonly run: EmptyRun,
    readonly count: number,
    readonly start = 0,
  ) {}

  get first(): bigint {
    return this.run.first + BigInt(this.start);
  }

  get last(): bigint {
    return this.run.first + BigInt(this.count - 1);
  }

  get head(): RangeBlock {
    return this.run.blockAt(this.count - 1);
  }

  /** These blocks up to block count-1 of the run (a revert into the reservation). */
  prefix(count: number): ReservedBlocks {
    return new ReservedBlocks(this.run, count, this.start);
  }

  /** The blocks of the run from block `start` to these blocks' end (what is left once some were handed out; two turns' blocks as one). */
  from(start: number): ReservedBlocks {
    return new ReservedBlocks(this.run, this.count, start);
  }

  /** Whether `next` is the blocks of the same run right after these (two turns of one chain_mine). */
  followedBy(next: ReservedBlocks): boolean {
    return next.run === this.run && next.start === this.count;
  }
}

/** Reserve `spec.count` empty blocks after `spec.parent`: O(1), nothing is hashed yet. */
export function reserveEmptyBlocks(spec: RunSpec): ReservedBlocks {
  return new ReservedBlocks(new EmptyRun(spec), spec.count);
}

/** What an empty block depends on besides its parent. */
export interface EmptyBlockSettings {
  /** The state now: an empty post-merge block changes nothing. */
  readonly stateRoot: Uint8Array;
  readonly coinbase: Address;
  readonly gasLimit: bigint;
  readonly timestamp: bigint;
  readonly baseFee: bigint | undefined;
  /** On the fork of the new block. */
  readonly common: Common;
}

/**
 * The empty block the VM's block builder makes after `parent` when no system contract
 * exists and no blob gas is left to drain (the caller checks both), with the state root as
 * it is. As a run's template it lets a run start right after any block without building
 * one in the VM; test/engine/emptyRanges.test.ts compares such runs with VM-built blocks
 * on every post-merge fork.
 */
export function emptySuccessor(parent: MinedBlock, settings: EmptyBlockSettings): Block {
  // Every other field's default is the empty block's (the tries' empty roots, zero bloom and
  // gas, the empty request list's hash, a zero beacon root, no withdrawals).
  return createBlock(
    {
      header: {
        parentHash: parent.hash,
        number: parent.number + 1n,
        timestamp: settings.timestamp,
        coinbase: settings.coinbase,
        stateRoot: settings.stateRoot,
        gasLimit: settings.gasLimit,
        difficulty: 0n,
        baseFeePerGas: settings.baseFee,
      },
    },
    { common: settings.common, skipConsensusFormatValidation: true, params: PRELOADED_PARAMS },
  );
}
