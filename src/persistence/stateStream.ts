/**
 * The `--state` file as a stream: written and read a bounded piece at a time, so that saving or
 * loading a state takes memory for a piece, not for the whole file (a chain of 1,000,000 blocks
 * was one JSON string; a state of 240 MB of code took the whole heap as objects). The file is
 * still one JSON document (jq, JSON.parse and decodeStateFile read it whole), laid out in lines:
 *
 *   {"chainSimState":3,"chainId":"0x539",...,"privateKeys":[...],
 *   "alloc":{
 *   "0xaddress":{"balance":"0x..","nonce":"0x.."},
 *   "0xcontract":{"balance":"0x..","nonce":"0x..","code":"0x..","storage":{
 *   "0xslot":"0xvalue",
 *   "0xslot":"0xvalue"
 *   }},
 *   ...
 *   },
 *   "blocks":[
 *   {"rlp":"0x..","senders":[..],"totalDifficulty":"0x..","receipts":[..]},
 *   {"emptyRun":{"template":"0x..","count":"0xf4240","firstTimestamp":"0x..","step":"0x1","firstBaseFee":"0x.."}},
 *   ...
 *   ]}
 *
 * Version 3: an account with storage spans lines (its fields, one line per slot, `}}`), so an
 * account of millions of slots is never one line. Version 2 (read still) had each account on
 * one line. A run of empty blocks reserved by chain_mine is one line, as it is one record in
 * memory. A file without the first line's marker (written before version 2, by hand, or
 * reformatted) is read whole, as before.
 */
import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { type ChainSegment, clip, type StatePiece } from '../engine/index.js';
import type { Json, JsonObject } from '../rpc/json.js';
import { encodeSegment } from './savedBlocks.js';
import { type StateFile, StateFileError, decodeAccountFields, decodeSlot, encodeAccountFields, encodeStateFile, hexOf } from './stateFile.js';

export const STATE_FORMAT_VERSION = 3;
/** How a streamed file starts, per version; JSON.stringify puts the first key first. */
const markerOf = (version: number) => `{"chainSimState":${version},`;
const MARKER_LENGTH = markerOf(STATE_FORMAT_VERSION).length;
const ALLOC_START = '"alloc":{';
const ALLOC_END = '},';
const BLOCKS_START = '"blocks":[';
const BLOCKS_END = ']}';
/** How an account's line ends when its slots follow, one per line (version 3). */
const STORAGE_START = '"storage":{';
const STORAGE_END = '}}';
/** Writes go out in chunks of about this size; the writer waits for each (backpressure). */
const CHUNK_BYTES = 1 << 20;
/** Room past a chunk's size, so that an entry that starts before the mark fits whole. */
const SLACK_BYTES = 1 << 18;
/** Code goes out as hex this many bytes at a time (a string young enough to die in the young generation). */
const HEX_SLICE_BYTES = 1 << 14;
/** Slots read from a file are handed on in pieces of at most this many. */
const SLOTS_PER_PIECE = 1024;

/** What a streamed save writes: the header fields, the accounts as pieces in order, the chain. */
export interface StateStreamSource {
  readonly header: Omit<StateFile, 'alloc' | 'blocks' | 'accounts'>;
  readonly accounts: AsyncIterable<StatePiece> | Iterable<StatePiece>;
  readonly segments: readonly ChainSegment[];
}

/**
 * Text out to a file handle through one reused buffer, written out (and awaited: backpressure)
 * each time it holds CHUNK_BYTES. Everything is encoded into it in small pieces, so a save
 * makes no large string or buffer: those land in V8's old generation, which is collected only
 * after it has grown by a tenth of the heap (compactHeap.ts), and a save of a 1 GiB state made
 * 60 MB of them. Bytes as hex go in HEX_SLICE_BYTES at a time, so a contract's megabytes of
 * code never become one string. Callers await each promise a method returns before the next call.
 */
class ChunkedWriter {
  private readonly chunk = Buffer.allocUnsafe(CHUNK_BYTES + SLACK_BYTES);
  private used = 0;
  written = 0;

  constructor(private readonly handle: FileHandle) {}

  /** Add `text`; a promise to await when the chunk went out (an await per entry costs more than the entry). */
  text(text: string): Promise<void> | undefined {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (this.used + 3 * text.length > this.chunk.length) return this.large(text);
    this.used += this.chunk.write(text, this.used, 'utf8');
    return this.used < CHUNK_BYTES ? undefined : this.flush();
  }

  /** Text that does not fit the chunk's room: after a flush, in the chunk or (longer than the chunk: a block of many receipts) on its own. */
  private async large(text: string): Promise<void> {
    await this.flush();
    if (3 * text.length <= this.chunk.length) {
      this.used = this.chunk.write(text, 0, 'utf8');
      return;
    }
    const out = Buffer.from(text, 'utf8');
    this.written += out.length;
    await this.handle.write(out);
  }

  /** Add `bytes` as hex digits (no 0x). */
  async hex(bytes: Uint8Array): Promise<void> {
    for (let at = 0; at < bytes.length; at += HEX_SLICE_BYTES) {
      const slice = bytes.subarray(at, at + HEX_SLICE_BYTES);
      const full = this.text(Buffer.from(slice.buffer, slice.byteOffset, slice.byteLength).toString('hex'));
      if (full) await full;
    }
  }

  async flush(): Promise<void> {
    if (this.used === 0) return;
    const length = this.used;
    this.used = 0;
    this.written += length;
    await this.handle.write(this.chunk, 0, length);
  }
}

/** Write `source` to `handle`, one entry per line, in bounded chunks; the bytes written. */
export async function writeStateStream(handle: FileHandle, source: StateStreamSource): Promise<number> {
  const out = new ChunkedWriter(handle);
  const header: JsonObject = { chainSimState: STATE_FORMAT_VERSION, ...encodeStateFile({ ...source.header, alloc: new Map() }) };
  delete header.alloc;
  await out.text(`${JSON.stringify(header).slice(0, -1)},\n${ALLOC_START}\n`);
  await writeAccounts(source.accounts, out);
  await out.text(`${ALLOC_END}\n${BLOCKS_START}\n`);
  let first = true;
  for (const segment of source.segments) {
    const entry = JSON.stringify(encodeSegment(segment));
    const full = out.text(first ? entry : `,\n${entry}`);
    if (full) await full;
    first = false;
  }
  await out.text(`${first ? '' : '\n'}${BLOCKS_END}\n`);
  await out.flush();
  return out.written;
}

/**
 * The `alloc` lines. An account's line is written up to its last field; whether it then ends
 * or opens a storage object (one slot per line) is known at its first slot or the next
 * account. Separators go before each entry (a line ends with a comma only once another entry
 * follows). Ends with a newline after the last entry.
 */
async function writeAccounts(pieces: AsyncIterable<StatePiece> | Iterable<StatePiece>, out: ChunkedWriter): Promise<void> {
  let entries = 0;
  let open: 'fields' | 'storage' | undefined; // what the last account's line still has open
  const close = (): Promise<void> | undefined => {
    const was = open;
    open = undefined;
    return was === 'fields' ? out.text('}') : was === 'storage' ? out.text(`\n${STORAGE_END}`) : undefined;
  };
  for await (const piece of pieces) {
    if (piece.kind === 'account') {
      await close();
      // The code goes out separately, as hex a slice at a time.
      const fields = encodeAccountFields(piece.address, { ...piece, code: new Uint8Array() });
      const line = `${entries++ > 0 ? ',\n' : ''}${JSON.stringify(piece.address)}:${JSON.stringify(fields).slice(0, -1)}`;
      if (piece.code.length === 0) await out.text(line);
      else {
        await out.text(`${line},"code":"0x`);
        await out.hex(piece.code);
        await out.text('"');
      }
      open = 'fields';
    } else if (piece.kind === 'storage') {
      let separator = ',\n';
      if (open === 'fields') {
        separator = `,${STORAGE_START}\n`;
        open = 'storage';
      }
      for (const [slot, value] of piece.slots) {
        const full = out.text(`${separator}"${slot}":"${hexOf(value)}"`);
        if (full) await full;
        separator = ',\n';
      }
    }
    // A fork overlay's facts (deleted accounts, zeroed slots) are in the header's `fork` field.
  }
  await close();
  await out.text(entries > 0 ? '\n' : '');
}

/** The version of a streamed state file at `path`, or undefined if it does not start as one. */
export async function streamVersion(path: string): Promise<number | undefined> {
  const handle = await open(path, 'r');
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(MARKER_LENGTH), 0, MARKER_LENGTH, 0);
    const start = buffer.toString('latin1', 0, bytesRead);
    return [2, 3].find((version) => start === markerOf(version));
  } finally {
    await handle.close();
  }
}

/** Each line of `path` with its number, read as a stream. */
async function* lines(path: string): AsyncGenerator<[number, string]> {
  const input = createReadStream(path, { encoding: 'utf8' });
  const reader = createInterface({ input, crlfDelay: Infinity });
  let number = 0;
  try {
    for await (const line of reader) yield [++number, line];
  } finally {
    reader.close();
    input.destroy(); // a reader that stops early (the header) must not keep the file open
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
 * The header of a streamed file (its first line) as an object for decodeStateFile, with an
 * empty `alloc`: the accounts and blocks are read later, a line at a time (streamedAccounts,
 * streamedBlocks). The file must end as the document does, so a file cut short is refused
 * before a node starts. Undefined when the file starts with the marker but is not laid out in
 * lines (read whole instead).
 */
export async function readStateStreamHead(path: string): Promise<JsonObject | undefined> {
  let json: JsonObject | undefined;
  for await (const [number, line] of lines(path)) {
    if (number === 1) {
      // The marker, but not this layout (e.g. `jq -c` made it one line): read whole instead.
      if (!line.endsWith(',')) return undefined;
      json = parseLine(`${line.slice(0, -1)}}`, number) as JsonObject;
      json.alloc = {};
      continue;
    }
    if (line !== ALLOC_START) return undefined;
    break;
  }
  if (!json) return undefined;
  await assertEnds(path);
  return json;
}

/** A streamed file ends with `]}` (and a newline): otherwise it was cut short, and the message names its last line. */
async function assertEnds(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const tail = Buffer.alloc(Math.min(size, 8));
    await handle.read(tail, 0, tail.length, size - tail.length);
    if (/\n\]\}\n?$/.test(tail.toString('latin1'))) return;
    // Only on failure: count the lines for the message, a chunk at a time.
    let count = 0;
    let endsWithNewline = false;
    const chunk = Buffer.alloc(1 << 20);
    for (let at = 0; at < size; ) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, at);
      for (let i = chunk.indexOf(10, 0); i !== -1 && i < bytesRead; i = chunk.indexOf(10, i + 1)) count++;
      endsWithNewline = chunk[bytesRead - 1] === 10;
      at += bytesRead;
    }
    throw new StateFileError(`line ${endsWithNewline ? count : count + 1}`, 'the file ends before the state does (truncated?)');
  } finally {
    await handle.close();
  }
}

/**
 * The accounts of a streamed file as pieces (an account's fields, then its slots in pieces of
 * up to SLOTS_PER_PIECE), parsed and checked one line at a time; errors name the line or the
 * account's field as decodeStateFile does.
 */
export async function* streamedAccounts(path: string, where = 'state'): AsyncGenerator<StatePiece> {
  let part: 'head' | 'accounts' | 'slots' = 'head';
  let storageOf: { address: string; at: string } | undefined;
  let slots: [string, Uint8Array][] = [];
  for await (const [number, line] of lines(path)) {
    if (part === 'head') {
      if (line === ALLOC_START) part = 'accounts';
      continue;
    }
    if (part === 'slots') {
      if (line === STORAGE_END || line === `${STORAGE_END},`) {
        if (slots.length > 0) yield { kind: 'storage', address: storageOf!.address, slots };
        slots = [];
        part = 'accounts';
        continue;
      }
      const [slot, value] = slotOf(line, number);
      const decoded = decodeSlot(slot, value, storageOf!.at);
      if (decoded) slots.push(decoded);
      if (slots.length >= SLOTS_PER_PIECE) {
        yield { kind: 'storage', address: storageOf!.address, slots };
        slots = [];
      }
      continue;
    }
    if (line === ALLOC_END) return;
    // Version 3: the account's slots follow on their own lines.
    const opensStorage = line.endsWith(STORAGE_START);
    const entry = parseLine(opensStorage ? `{${line}}}}` : `{${withoutComma(line)}}`, number) as JsonObject;
    for (const [address, raw] of Object.entries(entry)) {
      const at = `${where}.alloc.${clip(address)}`;
      const { key, balance, nonce, code } = decodeAccountFields(address, raw, at);
      yield { kind: 'account', address: key, balance, nonce, code };
      // Version 2: the whole storage on the account's line.
      const storage = (raw as JsonObject).storage;
      if (storage !== undefined && !opensStorage) {
        if (typeof storage !== 'object' || storage === null || Array.isArray(storage)) throw new StateFileError(`${at}.storage`, 'expected an object');
        let piece: [string, Uint8Array][] = [];
        for (const [slot, value] of Object.entries(storage)) {
          const decoded = decodeSlot(slot, value, at);
          if (decoded) piece.push(decoded);
          if (piece.length >= SLOTS_PER_PIECE) {
            yield { kind: 'storage', address: key, slots: piece };
            piece = [];
          }
        }
        if (piece.length > 0) yield { kind: 'storage', address: key, slots: piece };
      }
      if (opensStorage) {
        storageOf = { address: key, at };
        part = 'slots';
      }
    }
  }
  throw new StateFileError('state.alloc', 'the file ends inside the accounts (truncated?)');
}

/** A slot line, `"0xslot":"0xvalue"` with or without its comma (JSON.parse for anything else, such as escapes). */
function slotOf(line: string, number: number): [string, unknown] {
  const match = /^"(0x[0-9a-fA-F]{1,64})":"(0x[0-9a-fA-F]{1,64})",?$/.exec(line);
  if (match) return [match[1]!, match[2]!];
  const entry = parseLine(`{${withoutComma(line)}}`, number);
  const pairs = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? Object.entries(entry) : [];
  if (pairs.length !== 1) throw new StateFileError(`line ${number}`, 'expected one storage slot');
  return pairs[0]!;
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
