/**
 * The struct logger's records in columns of typed arrays: one record per opcode, and a trace
 * of a 1M-gas loop has 262,000 of them. As one object each (with its stack's array and its
 * gas as bigints) they took about 180 bytes and several heap objects a record, all live until
 * the answer was written: the old generation grew by 48 MB during the trace and every major
 * collection marked them all, pausing the node (and every other client) for up to 240 ms at a
 * time on a loaded machine. Here a record is about 40 bytes of typed arrays plus its stack's
 * words, and the collector has a handful of buffers to look at whatever the trace's length.
 * `at(i)` makes record i as a `StructLog` when the answer is written.
 */
import type { StructLog } from './tracing.js';

const U64_LIMIT = 1n << 64n;

/**
 * Columns grow a chunk at a time, never by copying all they hold: doubling one array copied
 * 64-128 MB at once in a 16M-gas loop's trace (millions of records and their stacks' words),
 * 40-50 ms during which no other client was read. The first chunk starts small (most traces
 * are short) and doubles up to CHUNK entries; then each new chunk is CHUNK entries.
 */
const CHUNK_SHIFT = 16;
const CHUNK = 1 << CHUNK_SHIFT;
const CHUNK_MASK = CHUNK - 1;
const FIRST_CHUNK = 1024;

/** A column's typed arrays: entry i is at `of(i)[i & CHUNK_MASK]`. */
class Chunks<A extends BigUint64Array | Int32Array> {
  private readonly arrays: A[];

  constructor(private readonly make: (length: number) => A) {
    this.arrays = [make(FIRST_CHUNK)];
  }

  /** The array entry `index` (the next one appended) goes in: the last one grown, or a new one, when full. */
  room(index: number): A {
    const chunk = index >>> CHUNK_SHIFT;
    const array = this.arrays[chunk];
    if (array === undefined) {
      const added = this.make(CHUNK);
      this.arrays.push(added);
      return added;
    }
    if ((index & CHUNK_MASK) < array.length) return array;
    const grown = this.make(array.length * 2);
    // Both have A's element type: TypeScript cannot see it through the union.
    (grown as { set(source: A): void }).set(array);
    this.arrays[chunk] = grown;
    return grown;
  }

  /** The array entry `index` is in. */
  of(index: number): A {
    return this.arrays[index >>> CHUNK_SHIFT]!;
  }

  get largestArrayBytes(): number {
    return Math.max(...this.arrays.map((array) => array.byteLength));
  }
}

/** A growable column of unsigned integers: 64-bit words in chunks, larger values kept aside. */
class WordColumn {
  private readonly chunks = new Chunks((length) => new BigUint64Array(length));
  private readonly large = new Map<number, bigint>();
  length = 0;

  push(value: bigint): void {
    this.chunks.room(this.length);
    this.set(this.length++, value);
  }

  set(index: number, value: bigint): void {
    const words = this.chunks.of(index);
    if (value >= 0n && value < U64_LIMIT) {
      words[index & CHUNK_MASK] = value;
      if (this.large.size > 0) this.large.delete(index);
    } else {
      words[index & CHUNK_MASK] = 0n;
      this.large.set(index, value);
    }
  }

  get(index: number): bigint {
    return (this.large.size > 0 ? this.large.get(index) : undefined) ?? this.chunks.of(index)[index & CHUNK_MASK]!;
  }

  get largestArrayBytes(): number {
    return this.chunks.largestArrayBytes;
  }
}

/** A growable column of 32-bit integers, in chunks. */
class IntColumn {
  private readonly chunks = new Chunks((length) => new Int32Array(length));
  length = 0;

  push(value: number): void {
    this.chunks.room(this.length)[this.length & CHUNK_MASK] = value;
    this.length++;
  }

  get(index: number): number {
    return this.chunks.of(index)[index & CHUNK_MASK]!;
  }

  get largestArrayBytes(): number {
    return this.chunks.largestArrayBytes;
  }
}

/** What a record holds beyond the columns: rare (options off by default, SLOAD/SSTORE, failures). */
interface RecordExtras {
  memory?: Uint8Array;
  returnData?: Uint8Array;
  storage?: ReadonlyMap<string, string>;
  error?: string;
}

export interface StructLogFields {
  readonly pc: number;
  readonly op: string;
  readonly gas: bigint;
  readonly gasCost: bigint;
  readonly depth: number;
  readonly refund: bigint;
  /** undefined: no stack recorded (disableStack). */
  readonly stack: readonly bigint[] | undefined;
  readonly memory?: Uint8Array;
  readonly returnData?: Uint8Array;
  readonly storage?: ReadonlyMap<string, string>;
}

export class StructLogStore {
  private readonly pcs = new IntColumn();
  /** Index into `opNames` (a trace uses a few dozen names). */
  private readonly ops = new IntColumn();
  private readonly opNames: string[] = [];
  private readonly opIndex = new Map<string, number>();
  private readonly depths = new IntColumn();
  private readonly gas = new WordColumn();
  private readonly gasCosts = new WordColumn();
  private readonly refunds = new WordColumn();
  /** Where record i's stack starts in `stackWords`; -1: none recorded. Its end is the next record's start. */
  private readonly stackStarts = new IntColumn();
  private readonly stackWords = new WordColumn();
  private readonly extras = new Map<number, RecordExtras>();

  get length(): number {
    return this.pcs.length;
  }

  /** The largest typed array the columns hold, in bytes: what one growth step may copy at most. */
  get largestArrayBytes(): number {
    const columns = [this.pcs, this.ops, this.depths, this.gas, this.gasCosts, this.refunds, this.stackStarts, this.stackWords];
    return Math.max(...columns.map((column) => column.largestArrayBytes));
  }

  /** Adds a record; answers its index. */
  push(fields: StructLogFields): number {
    const index = this.pcs.length;
    this.pcs.push(fields.pc);
    let op = this.opIndex.get(fields.op);
    if (op === undefined) {
      op = this.opNames.length;
      this.opNames.push(fields.op);
      this.opIndex.set(fields.op, op);
    }
    this.ops.push(op);
    this.depths.push(fields.depth);
    this.gas.push(fields.gas);
    this.gasCosts.push(fields.gasCost);
    this.refunds.push(fields.refund);
    if (fields.stack) {
      this.stackStarts.push(this.stackWords.length);
      for (const item of fields.stack) this.stackWords.push(item);
    } else {
      this.stackStarts.push(-1);
    }
    if (fields.memory || fields.returnData || fields.storage) {
      this.extras.set(index, { memory: fields.memory, returnData: fields.returnData, storage: fields.storage });
    }
    return index;
  }

  /** go-ethereum counts a callee's gas in its CALL's or CREATE's cost: added once the callee starts. */
  addGasCost(index: number, gas: bigint): void {
    this.gasCosts.set(index, this.gasCosts.get(index) + gas);
  }

  opAt(index: number): string {
    return this.opNames[this.ops.get(index)]!;
  }

  /** Why the frame halted at record `index`. */
  setError(index: number, error: string): void {
    const extras = this.extras.get(index);
    if (extras) extras.error = error;
    else this.extras.set(index, { error });
  }

  // Record `index`'s fields one by one, read without making the record: the answer's writer
  // formats a record from them (rpc/traceOutput.ts), with no object per record.
  pcAt(index: number): number {
    return this.pcs.get(index);
  }

  gasAt(index: number): bigint {
    return this.gas.get(index);
  }

  gasCostAt(index: number): bigint {
    return this.gasCosts.get(index);
  }

  depthAt(index: number): number {
    return this.depths.get(index);
  }

  refundAt(index: number): bigint {
    return this.refunds.get(index);
  }

  /** Whether record `index` holds more than the columns (memory, return data, storage, an error): then `at` makes it whole. */
  hasExtras(index: number): boolean {
    return this.extras.has(index);
  }

  /** Where record `index`'s stack starts among `stackWordAt`'s words; -1: no stack recorded. */
  stackStart(index: number): number {
    return this.stackStarts.get(index);
  }

  /** Where record `index`'s stack ends (exclusive): the next record's stack start. */
  stackEnd(index: number): number {
    for (let next = index + 1; next < this.length; next++) {
      const nextStart = this.stackStarts.get(next);
      if (nextStart >= 0) return nextStart;
    }
    return this.stackWords.length;
  }

  /** Stack word `position` (from `stackStart` to `stackEnd`), bottom of a stack first. */
  stackWordAt(position: number): bigint {
    return this.stackWords.get(position);
  }

  /** Record `index` as a StructLog (a new object each time). */
  at(index: number): StructLog {
    const extras = this.extras.get(index);
    const start = this.stackStarts.get(index);
    let stack: bigint[] | undefined;
    if (start >= 0) {
      const end = this.stackEnd(index);
      stack = new Array<bigint>(end - start);
      for (let i = start; i < end; i++) stack[i - start] = this.stackWords.get(i);
    }
    const log: StructLog = {
      pc: this.pcs.get(index),
      op: this.opAt(index),
      gas: this.gas.get(index),
      gasCost: this.gasCosts.get(index),
      depth: this.depths.get(index),
      refund: this.refunds.get(index),
      stack,
      memory: extras?.memory,
      returnData: extras?.returnData,
      storage: extras?.storage,
    };
    if (extras?.error !== undefined) log.error = extras.error;
    return log;
  }
}
