import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, concatBytes } from '@ethereumjs/util';

// Positions in a block header's RLP list of the fields that differ between consecutive empty blocks.
export const PARENT_HASH = 0;
export const NUMBER = 8;
export const TIMESTAMP = 11;
export const MIX_HASH = 13;
export const BASE_FEE = 15;
const VARYING = [PARENT_HASH, NUMBER, TIMESTAMP, MIX_HASH, BASE_FEE] as const;

/** The fields of one empty block that are not its template's. */
export interface VaryingFields {
  readonly parentHash: Uint8Array;
  readonly number: bigint;
  readonly timestamp: bigint;
  readonly mixHash: Uint8Array;
  readonly baseFee: bigint | undefined;
}

/** Room for the list prefix in front of the payload: 0xf9 and two length bytes (headers are 256..65535 bytes). */
const PREFIX_ROOM = 3;
/** Most bytes the varying fields take: two 32-byte hashes, two uint64s, a uint256, each with its RLP prefix. */
const VARYING_ROOM = 2 * 33 + 2 * 9 + 33;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Writes a non-negative integer as an RLP string (big-endian, no leading zeros); returns the next offset. */
function writeQuantity(out: Uint8Array, at: number, value: bigint): number {
  if (value === 0n) {
    out[at] = 0x80;
    return at + 1;
  }
  if (value < 0x80n) {
    out[at] = Number(value);
    return at + 1;
  }
  if (value <= MAX_SAFE) {
    // Block numbers, timestamps and settled base fees: number arithmetic, no bigint per byte.
    let rest = Number(value);
    let length = 0;
    for (let probe = rest; probe > 0; probe = Math.floor(probe / 256)) length++;
    out[at] = 0x80 + length;
    for (let i = length; i >= 1; i--) {
      out[at + i] = rest % 256;
      rest = Math.floor(rest / 256);
    }
    return at + 1 + length;
  }
  let length = 0;
  for (let rest = value; rest > 0n; rest >>= 8n) length++;
  out[at] = 0x80 + length;
  let rest = value;
  for (let i = length; i >= 1; i--) {
    out[at + i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return at + 1 + length;
}

function writeHash(out: Uint8Array, at: number, source: Uint8Array, from: number): number {
  out[at] = 0xa0;
  for (let i = 0; i < 32; i++) out[at + 1 + i] = source[from + i]!;
  return at + 33;
}

/**
 * Encodes headers that differ from a template only in the varying fields into one reused
 * buffer: the constant runs between those fields are RLP-encoded once, and encoding a
 * header allocates nothing. Hashing 100,000 empty blocks is then two Keccak permutations
 * per block and little else.
 */
export class EmptyHeaderWriter {
  /** The RLP of the template's fields between (and after) the varying ones. */
  private readonly runs: Uint8Array[] = [];
  private readonly buffer: Uint8Array;
  private readonly hasBaseFee: boolean;

  constructor(private readonly template: readonly Uint8Array[]) {
    this.hasBaseFee = template.length > BASE_FEE;
    let start = 0;
    for (const index of [...VARYING, template.length]) {
      if (index > template.length) continue;
      this.runs.push(concatBytes(...template.slice(start, index).map((item) => RLP.encode(item))));
      start = index + 1;
    }
    this.buffer = new Uint8Array(PREFIX_ROOM + VARYING_ROOM + this.runs.reduce((sum, run) => sum + run.length, 0));
  }

  /**
   * Encodes a header into the reused buffer (`bytes`, valid until the next call) and returns
   * its length. The hashes are read in place: 32 bytes of `parents` at `parentAt`, of `mixes` at `mixAt`.
   */
  encode(parents: Uint8Array, parentAt: number, number: bigint, timestamp: bigint, mixes: Uint8Array, mixAt: number, baseFee: bigint | undefined): number {
    const out = this.buffer;
    const runs = this.runs;
    let at = PREFIX_ROOM;
    out.set(runs[0]!, at);
    at = writeHash(out, at + runs[0]!.length, parents, parentAt);
    out.set(runs[1]!, at);
    at = writeQuantity(out, at + runs[1]!.length, number);
    out.set(runs[2]!, at);
    at = writeQuantity(out, at + runs[2]!.length, timestamp);
    out.set(runs[3]!, at);
    at = writeHash(out, at + runs[3]!.length, mixes, mixAt);
    out.set(runs[4]!, at);
    at += runs[4]!.length;
    if (this.hasBaseFee) {
      at = writeQuantity(out, at, baseFee ?? 0n);
      out.set(runs[5]!, at);
      at += runs[5]!.length;
    }
    const length = at - PREFIX_ROOM;
    if (length < 256 || length > 0xffff) throw new Error(`unexpected header length ${length}`);
    out[0] = 0xf9;
    out[1] = length >> 8;
    out[2] = length & 0xff;
    return at;
  }

  /** The buffer `encode` writes into. */
  get bytes(): Uint8Array {
    return this.buffer;
  }

  /** The header as the list of fields ethereumjs builds a Block from. */
  raw(fields: VaryingFields): Uint8Array[] {
    const raw = this.template.slice();
    raw[PARENT_HASH] = fields.parentHash;
    raw[NUMBER] = bigIntToUnpaddedBytes(fields.number);
    raw[TIMESTAMP] = bigIntToUnpaddedBytes(fields.timestamp);
    raw[MIX_HASH] = fields.mixHash;
    if (this.hasBaseFee) raw[BASE_FEE] = bigIntToUnpaddedBytes(fields.baseFee ?? 0n);
    return raw;
  }
}
