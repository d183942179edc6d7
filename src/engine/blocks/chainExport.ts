/**
 * Canonical blocks as `geth export` writes them: each block's RLP, concatenated. One answer
 * is bounded (MAX_EXPORT_BYTES) so a long chain is asked for in ranges rather than built as
 * one huge buffer; the CLI's `chain-sim export` does that.
 */
import type { BlockStore } from './blocks.js';
import { EngineError, rejected } from '../util/errors.js';

/** Most bytes of RLP one export returns (its hex form is twice that). */
export const MAX_EXPORT_BYTES = 32 * 1024 * 1024;

/** Blocks first..last inclusive, RLP-encoded and concatenated. */
export function exportBlocks(
  store: Pick<BlockStore, 'headNumber' | 'firstNumber' | 'byNumber'>,
  first: bigint,
  last: bigint,
  maxBytes = MAX_EXPORT_BYTES,
): Uint8Array {
  if (first > last) throw new EngineError('invalidInput', `first block ${first} is after last block ${last}`);
  if (last > store.headNumber) throw new EngineError('invalidInput', `last block ${last} is after the head ${store.headNumber}`);
  if (first < store.firstNumber)
    throw new EngineError(
      'invalidInput',
      `first block ${first} is before this chain's first block ${store.firstNumber} (a fork's pinned block, whose history is the upstream's, or --number)`,
    );
  const parts: Uint8Array[] = [];
  let size = 0;
  for (let n = first; n <= last; n++) {
    const encoded = store.byNumber(n)!.block.serialize();
    size += encoded.length;
    // Refuse before holding more than the limit: a huge range costs one block over it, not the chain.
    if (size > maxBytes) {
      throw rejected(`export too large: blocks ${first}..${n} exceed ${maxBytes} bytes of RLP; ask for a smaller range`);
    }
    parts.push(encoded);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
