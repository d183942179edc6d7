/**
 * The `--state` file as a stream: written and read one account or one block at a time, so
 * that saving or loading a chain takes memory for one entry, not for the whole file's text
 * (a chain of 1,000,000 blocks was one JSON string, and the heap ran out before it was
 * written). The file is still one JSON document (jq, JSON.parse and decodeStateFile read it
 * whole), laid out one entry per line:
 *
 *   {"chainSimState":2,"chainId":"0x539",...,"privateKeys":[...],
 *   "alloc":{
 *   "0xaddress":{"balance":"0x..","nonce":"0x.."},
 *   ...
 *   },
 *   "blocks":[
 *   {"rlp":"0x..","senders":[..],"totalDifficulty":"0x..","receipts":[..]},
 *   {"emptyRun":{"template":"0x..","count":"0xf4240","firstTimestamp":"0x..","step":"0x1","firstBaseFee":"0x.."}},
 *   ...
 *   ]}
 *
 * A run of empty blocks reserved by chain_mine is one line, as it is one record in memory.
 * A file without the first line's marker (written before version 2, or by hand) is read
 * whole, as before.
 */
import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { ChainSegment } from '../engine/index.js';
import type { Json, JsonObject } from '../rpc/json.js';
import { encodeSegment } from './savedBlocks.js';
import { type StateFile, StateFileError, encodeAlloc, encodeStateFile } from './stateFile.js';

export const STATE_FORMAT_VERSION = 2;
/** How a streamed file starts; JSON.stringify puts the first key first. */
const MARKER = `{"chainSimState":${STATE_FORMAT_VERSION},`;
const ALLOC_START = '"alloc":{';
const ALLOC_END = '},';
const BLOCKS_START = '"blocks":[';
const BLOCKS_END = ']}';
/** Writes go out in chunks of about this size. */
const CHUNK_CHARS = 1 << 20;

/** Write `file` (its `blocks` ignored) and `segments` to `handle`, one entry per line, in bounded chunks. */
export async function writeStateStream(handle: FileHandle, file: StateFile, segments: readonly ChainSegment[]): Promise<void> {
  let buffer = '';
  // Awaited only when a chunk is full: an await per entry costs more than the entry.
  const put = (text: string): Promise<unknown> | undefined => {
    buffer += text;
    if (buffer.length < CHUNK_CHARS) return undefined;
    const out = buffer;
    buffer = '';
    return handle.write(out);
  };
  const header: JsonObject = { chainSimState: STATE_FORMAT_VERSION, ...encodeStateFile({ ...file, alloc: new Map(), blocks: undefined }) };
  delete header.alloc;
  await put(`${JSON.stringify(header).slice(0, -1)},\n${ALLOC_START}\n`);
  let first = true;
  // The accounts' JSON objects at once (as chain_dumpState makes them; their text never all at once).
  for (const [address, entry] of Object.entries(encodeAlloc(file.alloc))) {
    const line = `${JSON.stringify(address)}:${JSON.stringify(entry)}`;
    const full = put(first ? line : `,\n${line}`);
    if (full) await full;
    first = false;
  }
  await put(`${first ? '' : '\n'}${ALLOC_END}\n${BLOCKS_START}\n`);
  first = true;
  for (const segment of segments) {
    const entry = JSON.stringify(encodeSegment(segment));
    const full = put(first ? entry : `,\n${entry}`);
    if (full) await full;
    first = false;
  }
  await put(`${first ? '' : '\n'}${BLOCKS_END}\n`);
  if (buffer.length > 0) await handle.write(buffer);
}

/** Whether the file at `path` starts as a streamed state file does. */
export async function isStateStream(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(MARKER.length), 0, MARKER.length, 0);
    return bytesRead === MARKER.length && buffer.toString('latin1') === MARKER;
  } finally {
    await handle.close();
  }
}

/** Each line of `path` with its number, read as a stream. */
async function* lines(path: string): AsyncGenerator<[number, string]> {
  const reader = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let number = 0;
  try {
    for await (const line of reader) yield [++number, line];
  } finally {
    reader.close();
  }
}

function parseLine(text: string, number: number): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    throw new StateFileError(`line ${number}`, 'not valid JSON (truncated or corrupt?)');
  }
}

const withoutComma = (line: string) => (line.endsWith(',') ? line.slice(0, -1) : line);

/**
 * The header and accounts of a streamed file, as one object for decodeStateFile; the block
 * lines are only checked to end the document (a truncated file is refused here, before a
 * node starts), and are read again, one at a time, by streamedBlocks. Undefined when the
 * file starts with the marker but is not laid out in lines (to be read whole).
 */
export async function readStateStreamHead(path: string): Promise<{ json: JsonObject; blockLines: number } | undefined> {
  let json: JsonObject | undefined;
  let part: 'header' | 'alloc' | 'between' | 'blocks' | 'end' = 'header';
  let blockLines = 0;
  let last = 0;
  for await (const [number, line] of lines(path)) {
    last = number;
    if (part === 'header') {
      // The marker, but not this layout (e.g. `jq -c` made it one line): read whole instead.
      if (!line.endsWith(',')) return undefined;
      json = parseLine(`${line.slice(0, -1)}}`, number) as JsonObject;
      json.alloc = {};
      part = 'alloc';
      continue;
    }
    if (part === 'alloc') {
      if (number === 2) {
        if (line !== ALLOC_START) return undefined;
        continue;
      }
      if (line === ALLOC_END) {
        part = 'between';
        continue;
      }
      const entry = parseLine(`{${withoutComma(line)}}`, number) as JsonObject;
      Object.assign(json!.alloc as JsonObject, entry);
      continue;
    }
    if (part === 'between') {
      if (line !== BLOCKS_START) throw new StateFileError(`line ${number}`, `expected ${BLOCKS_START}`);
      part = 'blocks';
      continue;
    }
    if (part === 'blocks') {
      if (line === BLOCKS_END) part = 'end';
      else blockLines++;
      continue;
    }
    if (line !== '') throw new StateFileError(`line ${number}`, 'text after the end of the state');
  }
  if (part !== 'end') throw new StateFileError(`line ${last}`, 'the file ends before the state does (truncated?)');
  return { json: json!, blockLines };
}

/** The block entries of a streamed file, parsed one line at a time. */
export async function* streamedBlocks(path: string): AsyncGenerator<Json> {
  let inBlocks = false;
  for await (const [number, line] of lines(path)) {
    if (!inBlocks) {
      inBlocks = line === BLOCKS_START;
      continue;
    }
    if (line === BLOCKS_END) return;
    yield parseLine(withoutComma(line), number);
  }
}
