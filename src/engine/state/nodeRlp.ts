/**
 * RLP for trie nodes: byte strings and lists of them, nothing else. @ethereumjs/rlp copies
 * every decoded item, builds each encoding from arrays of parts and writes long lengths
 * through hex strings; half of a block's state-root update went there. Here an encoding is
 * written into one buffer sized first, and decoding returns views into the input, which
 * the trie code only reads. The bytes are those of @ethereumjs/rlp (test/engine/nodeRlp.test.ts).
 */

export type RlpItem = Uint8Array | RlpList;
export type RlpList = readonly RlpItem[];

/** The RLP encoding of `item`. */
export function encodeRlp(item: RlpItem): Uint8Array {
  const out = new Uint8Array(encodedLength(item));
  write(item, out, 0);
  return out;
}

/** The items of the RLP list `encoded`, byte strings as views into it; throws unless it is exactly one list. */
export function decodeRlpList(encoded: Uint8Array): RlpItem[] {
  const { start, end, isList } = header(encoded, 0);
  if (!isList || end !== encoded.length) throw new Error('invalid RLP: not exactly one list');
  return decodeItems(encoded, start, end);
}

function encodedLength(item: RlpItem): number {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && item[0]! < 0x80) return 1;
    return headerLength(item.length) + item.length;
  }
  const payload = payloadLength(item);
  return headerLength(payload) + payload;
}

function payloadLength(list: RlpList): number {
  let length = 0;
  for (const item of list) length += encodedLength(item);
  return length;
}

function headerLength(payload: number): number {
  return payload < 56 ? 1 : 1 + byteCount(payload);
}

function byteCount(n: number): number {
  let count = 0;
  for (; n > 0; n = Math.floor(n / 256)) count++;
  return count;
}

/** Writes `item` at `at`; returns where it ends. */
function write(item: RlpItem, out: Uint8Array, at: number): number {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && item[0]! < 0x80) {
      out[at] = item[0]!;
      return at + 1;
    }
    at = writeHeader(out, at, item.length, 0x80);
    out.set(item, at);
    return at + item.length;
  }
  at = writeHeader(out, at, payloadLength(item), 0xc0);
  for (const inner of item) at = write(inner, out, at);
  return at;
}

function writeHeader(out: Uint8Array, at: number, payload: number, offset: number): number {
  if (payload < 56) {
    out[at] = offset + payload;
    return at + 1;
  }
  const count = byteCount(payload);
  out[at] = offset + 55 + count;
  for (let i = count; i > 0; i--, payload = Math.floor(payload / 256)) out[at + i] = payload % 256;
  return at + 1 + count;
}

function decodeItems(encoded: Uint8Array, start: number, end: number): RlpItem[] {
  const items: RlpItem[] = [];
  for (let at = start; at < end; ) {
    const item = header(encoded, at);
    if (item.end > end) throw new Error('invalid RLP: an item runs past its list');
    items.push(item.isList ? decodeItems(encoded, item.start, item.end) : encoded.subarray(item.start, item.end));
    at = item.end;
  }
  return items;
}

/** Where the payload of the item at `at` starts and ends, and whether it is a list. */
function header(encoded: Uint8Array, at: number): { start: number; end: number; isList: boolean } {
  if (at >= encoded.length) throw new Error('invalid RLP: input ends early');
  const first = encoded[at]!;
  if (first < 0x80) return { start: at, end: at + 1, isList: false };
  const isList = first >= 0xc0;
  const short = first - (isList ? 0xc0 : 0x80);
  if (short < 56) return { start: at + 1, end: at + 1 + short, isList };
  const count = short - 55;
  let length = 0;
  for (let i = 1; i <= count; i++) length = length * 256 + encoded[at + i]!;
  const start = at + 1 + count;
  if (start > encoded.length) throw new Error('invalid RLP: input ends early');
  return { start, end: start + length, isList };
}
