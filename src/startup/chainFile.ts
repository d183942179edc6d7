/**
 * Reading a chain file as `geth export` writes it: RLP-encoded blocks, one after another,
 * no framing. The file is read in chunks and yielded one block at a time (each block's
 * bytes exactly), so a long chain never sits in memory as one buffer or one decoded array.
 */
import { open } from 'node:fs/promises';
import type { Chain, EncodedBlock, ImportSummary } from '../engine/index.js';

/** A file that cannot be read as concatenated RLP lists; the message names the byte offset. */
export class ChainFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChainFileError';
  }
}

const CHUNK_BYTES = 1024 * 1024;
/** No block comes near this (go-ethereum caps blocks at 10 MiB of RLP since Osaka); a corrupt length prefix fails fast. */
const MAX_BLOCK_BYTES = 256 * 1024 * 1024;

/** Length of an RLP list's prefix and payload at `bytes[0..]`, or undefined if the prefix itself is cut short. */
function listLength(bytes: Uint8Array, offset: number): { header: number; payload: number } | undefined {
  const first = bytes[0]!;
  if (first < 0xc0) throw new ChainFileError(`byte ${offset}: expected an RLP list (a block), found 0x${first.toString(16).padStart(2, '0')}`);
  if (first <= 0xf7) return { header: 1, payload: first - 0xc0 };
  const lengthBytes = first - 0xf7;
  if (bytes.length < 1 + lengthBytes) return undefined;
  if (bytes[1] === 0) throw new ChainFileError(`byte ${offset}: RLP length with leading zero bytes`);
  let payload = 0;
  for (let i = 1; i <= lengthBytes; i++) payload = payload * 256 + bytes[i]!;
  if (payload < 56) throw new ChainFileError(`byte ${offset}: RLP long-form length ${payload} should use the short form`);
  if (payload > MAX_BLOCK_BYTES) throw new ChainFileError(`byte ${offset}: RLP list of ${payload} bytes is larger than any block (corrupt file?)`);
  return { header: 1 + lengthBytes, payload };
}

/** The blocks of a chain file in order. Throws ChainFileError for a missing, unreadable or truncated file. */
export async function* readChainFile(path: string): AsyncGenerator<EncodedBlock> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ChainFileError(code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (error as Error).message);
  }
  try {
    let buffer = Buffer.alloc(0);
    let bufferOffset = 0; // file offset of buffer[0]
    let eof = false;
    const fill = async (wanted: number) => {
      while (!eof && buffer.length < wanted) {
        const chunk = Buffer.alloc(Math.max(CHUNK_BYTES, wanted - buffer.length));
        const { bytesRead } = await file.read(chunk, 0, chunk.length, null);
        if (bytesRead === 0) eof = true;
        else buffer = buffer.length === 0 ? chunk.subarray(0, bytesRead) : Buffer.concat([buffer, chunk.subarray(0, bytesRead)]);
      }
    };
    for (;;) {
      await fill(9); // the longest list prefix
      if (buffer.length === 0) return;
      const length = listLength(buffer, bufferOffset);
      const total = length ? length.header + length.payload : undefined;
      if (total !== undefined) await fill(total);
      if (total === undefined || buffer.length < total) {
        const want = total === undefined ? 'a complete length prefix' : `${total} bytes`;
        throw new ChainFileError(`truncated: the block at byte ${bufferOffset} needs ${want}, only ${buffer.length} remain`);
      }
      // A copy, so the block does not pin the whole read chunk in memory for the life of the chain.
      yield { bytes: Uint8Array.prototype.slice.call(buffer, 0, total), offset: bufferOffset };
      buffer = buffer.subarray(total);
      bufferOffset += total;
    }
  } finally {
    await file.close();
  }
}

/** `--import FILE`: every block of the file executed and appended; any failure names the file. */
export async function importChainFile(chain: Chain, path: string): Promise<ImportSummary> {
  try {
    return await chain.importBlocks(readChainFile(path));
  } catch (error) {
    throw new ChainFileError(`import ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
