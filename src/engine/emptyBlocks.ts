import { type Block, createBlockFromBytesArray } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, concatBytes, hexToBytes } from '@ethereumjs/util';
import type { MinedBlock } from './blocks.js';
import { PRELOADED_PARAMS } from './hardforks.js';
import { keccak256 } from './keccak256.js';
import { toHex } from './hex.js';

// Positions in a block header's RLP list of the fields that differ between consecutive empty blocks.
const PARENT_HASH = 0;
const NUMBER = 8;
const TIMESTAMP = 11;
const MIX_HASH = 13;
const BASE_FEE = 15;
const VARYING = [PARENT_HASH, NUMBER, TIMESTAMP, MIX_HASH, BASE_FEE] as const;

/** The fields of one empty block that are not the template's. */
interface VaryingFields {
  readonly parentHash: Uint8Array;
  readonly number: bigint;
  readonly timestamp: bigint;
  readonly mixHash: Uint8Array;
  readonly baseFee: bigint | undefined;
}

/**
 * Encodes headers that differ from a template only in the varying fields: the
 * constant runs between them are RLP-encoded once.
 */
class HeaderEncoder {
  private readonly constantRuns: Uint8Array[] = [];

  constructor(private readonly template: readonly Uint8Array[]) {
    let start = 0;
    for (const index of [...VARYING, template.length]) {
      if (index > template.length) continue;
      const run = template.slice(start, index).map((item) => RLP.encode(item));
      this.constantRuns.push(concatBytes(...run));
      start = index + 1;
    }
  }

  raw(fields: VaryingFields): Uint8Array[] {
    const raw = this.template.slice();
    raw[PARENT_HASH] = fields.parentHash;
    raw[NUMBER] = bigIntToUnpaddedBytes(fields.number);
    raw[TIMESTAMP] = bigIntToUnpaddedBytes(fields.timestamp);
    raw[MIX_HASH] = fields.mixHash;
    if (fields.baseFee !== undefined) raw[BASE_FEE] = bigIntToUnpaddedBytes(fields.baseFee);
    return raw;
  }

  hash(fields: VaryingFields): Uint8Array {
    const values = [
      fields.parentHash,
      bigIntToUnpaddedBytes(fields.number),
      bigIntToUnpaddedBytes(fields.timestamp),
      fields.mixHash,
      fields.baseFee === undefined ? undefined : bigIntToUnpaddedBytes(fields.baseFee),
    ];
    const parts: Uint8Array[] = [];
    values.forEach((value, i) => {
      parts.push(this.constantRuns[i]!);
      if (value !== undefined && VARYING[i]! < this.template.length) parts.push(RLP.encode(value));
    });
    parts.push(this.constantRuns[values.length]!);
    const payload = concatBytes(...parts);
    return keccak256(concatBytes(listPrefix(payload.length), payload));
  }
}

function listPrefix(length: number): Uint8Array {
  if (length < 56) return Uint8Array.of(0xc0 + length);
  const bytes = bigIntToUnpaddedBytes(BigInt(length));
  return concatBytes(Uint8Array.of(0xf7 + bytes.length), bytes);
}

const NO_SENDERS: readonly [] = Object.freeze([]) as readonly [];
const NO_RECEIPTS: readonly [] = Object.freeze([]) as readonly [];

/**
 * An empty post-merge block kept as its few varying fields (hashes as hex strings, the
 * parent's shared, not copied): its hash is computed at once, so the chain of hashes is
 * consistent, and the ethereumjs Block object only when someone reads it. 100,000 empty
 * blocks cost a couple of seconds and a few dozen megabytes.
 */
class LazyEmptyBlock implements MinedBlock {
  private built: Block | undefined;

  constructor(
    private readonly template: Block,
    private readonly encoder: HeaderEncoder,
    private readonly parentHashHex: string,
    readonly number: bigint,
    private readonly timestamp: bigint,
    private readonly mixHashHex: string,
    private readonly baseFee: bigint | undefined,
    readonly hashHex: string,
    readonly totalDifficulty: bigint,
  ) {}

  get senders(): readonly [] {
    return NO_SENDERS;
  }

  get receipts(): readonly [] {
    return NO_RECEIPTS;
  }

  get hash(): Uint8Array {
    return hexToBytes(this.hashHex as `0x${string}`);
  }

  get block(): Block {
    if (!this.built) {
      const [, ...body] = this.template.raw();
      const fields: VaryingFields = {
        parentHash: hexToBytes(this.parentHashHex as `0x${string}`),
        number: this.number,
        timestamp: this.timestamp,
        mixHash: hexToBytes(this.mixHashHex as `0x${string}`),
        baseFee: this.baseFee,
      };
      this.built = createBlockFromBytesArray([this.encoder.raw(fields), ...body] as Parameters<typeof createBlockFromBytesArray>[0], {
        common: this.template.common,
        skipConsensusFormatValidation: true,
        params: PRELOADED_PARAMS,
      });
    }
    return this.built;
  }
}

/** EIP-1559's next base fee after a block that used no gas: it falls by 1/8, rounded down. */
function baseFeeAfterEmpty(common: Common, baseFee: bigint): bigint {
  return baseFee - baseFee / common.param('baseFeeMaxChangeDenominator');
}

/**
 * The blocks that follow `template` (a real, empty block built by the VM) while nothing
 * changes state: same roots, no transactions; new parent hash, number, timestamp,
 * prevRandao and base fee each time.
 */
export function* emptyBlocksAfter(template: MinedBlock, timestamps: Iterable<bigint>): Generator<MinedBlock> {
  const common = template.block.common;
  const encoder = new HeaderEncoder(template.block.header.raw());
  let parentHash = template.hash;
  let parentHashHex = template.hashHex;
  let number = template.number;
  let mixHash = template.block.header.mixHash;
  let baseFee = template.block.header.baseFeePerGas;
  for (const timestamp of timestamps) {
    number += 1n;
    mixHash = keccak256(mixHash);
    if (baseFee !== undefined) baseFee = baseFeeAfterEmpty(common, baseFee);
    const hash = encoder.hash({ parentHash, number, timestamp, mixHash, baseFee });
    const hashHex = toHex(hash);
    yield new LazyEmptyBlock(template.block, encoder, parentHashHex, number, timestamp, toHex(mixHash), baseFee, hashHex, template.totalDifficulty);
    parentHash = hash;
    parentHashHex = hashHex;
  }
}
