/**
 * EIP-2124 fork identifiers (with EIP-6122's timestamp forks): a CRC32 of the genesis hash
 * folded with every fork block number and timestamp already passed. go-ethereum puts the
 * 4-byte checksum into eth_config (EIP-7910), so it must match its computation exactly.
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC32 (IEEE) continued from `previous`, as Go's crc32.Update does (0 starts a new checksum). */
export function crc32(bytes: Uint8Array, previous = 0): number {
  let c = (previous ^ 0xffffffff) >>> 0;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The activations go-ethereum sums into a fork id: its *Block and *Time config fields that are set. */
export interface ForkIdInputs {
  readonly genesisHash: Uint8Array;
  readonly genesisTimestamp: bigint;
  readonly blocks: readonly bigint[];
  readonly timestamps: readonly bigint[];
}

/**
 * The fork id's checksum for a node whose head is past every block fork and at `time`
 * (go-ethereum's forkid.NewID(config, genesis, MaxUint64, time), as eth_config asks it).
 * Block 0 forks and timestamp forks at or before genesis are the genesis rules: not summed.
 */
export function forkIdHash(inputs: ForkIdInputs, time: bigint): Uint8Array {
  let hash = crc32(inputs.genesisHash);
  for (const block of distinctSorted(inputs.blocks)) {
    if (block !== 0n) hash = crc32(uint64(block), hash);
  }
  for (const timestamp of distinctSorted(inputs.timestamps)) {
    if (timestamp > inputs.genesisTimestamp && timestamp <= time) hash = crc32(uint64(timestamp), hash);
  }
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, hash);
  return out;
}

function distinctSorted(values: readonly bigint[]): bigint[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function uint64(value: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value);
  return out;
}
