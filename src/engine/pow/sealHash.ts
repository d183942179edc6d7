// The hash a proof-of-work seal commits to.
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';

/** Positions of the seal fields in the raw header list (all forks). */
const MIX_HASH_INDEX = 13;
const NONCE_INDEX = 14;

/**
 * keccak256(rlp(header fields without mixHash and nonce)), as go-ethereum's
 * ethash sealHash. Fields added after nonce (baseFee from London on, later
 * withdrawalsRoot, ...) are part of it. Note @ethereumjs/ethash 10's
 * headerHash drops the *last two* fields instead, which is only right for
 * pre-London headers.
 *
 * @param headerRaw the header's field list, e.g. BlockHeader.raw()
 */
export function sealHashOf(headerRaw: Uint8Array[]): Uint8Array {
  if (headerRaw.length <= NONCE_INDEX) {
    throw new RangeError(`a header has at least ${NONCE_INDEX + 1} fields, got ${headerRaw.length}`);
  }
  const fields = headerRaw.filter((_, i) => i !== MIX_HASH_INDEX && i !== NONCE_INDEX);
  return keccak_256(RLP.encode(fields));
}
