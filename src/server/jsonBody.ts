/**
 * Large JSON answers written a slice at a time. JSON.stringify of a 55 MB answer (a struct-logger
 * trace of 666,000 records) took 0.3 s, and writing the string 0.5 s more, in one go: every
 * other client waited. An answer with more than LARGE_NODES values is encoded here instead, in
 * batches that JSON.stringify encodes natively, written to the response as they come (chunked
 * transfer encoding), letting the event loop turn between writes (engine/util/pace.ts) and
 * waiting for the client to read when the socket is full. The text is the same as
 * JSON.stringify's (test/server/jsonBody.test.ts compares them); smaller answers, nearly all,
 * still go through JSON.stringify in one piece.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { pace } from '../engine/index.js';
import { JsonArrayView } from '../rpc/json.js';

/** Answers with more values than this (arrays' and objects' members, counted) are written in slices. */
export const LARGE_NODES = 50_000;
/** Values encoded by one JSON.stringify call, about (a batch of array elements or object members). */
const BATCH_NODES = 2_000;
/** Text gathered before one write to the socket. */
const WRITE_CHARS = 256 * 1024;

/** Whether an answer is written in slices (more than LARGE_NODES values) rather than with one JSON.stringify. */
export function isLargeAnswer(response: unknown): boolean {
  return response !== undefined && countNodes(response, LARGE_NODES) >= LARGE_NODES;
}

/** The number of values in `value` (itself included), counted up to `limit`. */
export function countNodes(value: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count < limit) {
    const next = stack.pop();
    count++;
    if (typeof next !== 'object' || next === null) continue;
    // A view's items are made only when written: counted as its first item's size each, without making them.
    if (next instanceof JsonArrayView) {
      if (next.length > 0) count += next.length * countNodes(next.at(0), limit);
      continue;
    }
    // Values past the limit are never looked at: a 666,000-record array is not copied to count 50,000.
    if (Array.isArray(next)) {
      for (let i = 0; i < next.length && count + stack.length < limit; i++) stack.push(next[i]);
    } else {
      for (const key in next) {
        if (count + stack.length >= limit) break;
        stack.push((next as Record<string, unknown>)[key]);
      }
    }
  }
  return Math.min(count + stack.length, limit);
}

/**
 * JSON.stringify(value) as a sequence of pieces: a value of fewer than `batchNodes` values in
 * one piece, a larger one member by member, consecutive small members batched into one
 * JSON.stringify call. For JSON values (what the dispatcher answers): no toJSON, no cycles.
 */
export function* jsonPieces(value: unknown, batchNodes = BATCH_NODES): Generator<string> {
  if (typeof value !== 'object' || value === null || countNodes(value, batchNodes) < batchNodes) {
    yield JSON.stringify(value) ?? 'null';
    return;
  }
  if (value instanceof JsonArrayView && value.makesText && value.length > 0) {
    yield* viewTextPieces(value, batchNodes);
    return;
  }
  if (Array.isArray(value) || value instanceof JsonArrayView) {
    yield '[';
    let batch: unknown[] = [];
    let batched = 0;
    let first = true;
    const flush = function* (): Generator<string> {
      if (batch.length === 0) return;
      const text = JSON.stringify(batch);
      yield (first ? '' : ',') + text.slice(1, -1);
      first = false;
      batch = [];
      batched = 0;
    };
    // A view's items are made here, a batch at a time, and are garbage once their batch is written.
    for (const item of value) {
      const size = countNodes(item, batchNodes);
      if (size >= batchNodes) {
        yield* flush();
        if (!first) yield ',';
        first = false;
        yield* jsonPieces(item, batchNodes);
        continue;
      }
      batch.push(item);
      batched += size;
      if (batched >= batchNodes) yield* flush();
    }
    yield* flush();
    yield ']';
    return;
  }
  yield '{';
  // No prototype: a member named "__proto__" (JSON.parse makes it an own property) stays a member.
  let batch: Record<string, unknown> = Object.create(null);
  let batched = 0;
  let first = true;
  const flush = function* (): Generator<string> {
    if (batched === 0) return;
    const text = JSON.stringify(batch);
    // Members that JSON.stringify leaves out (undefined) may leave the batch empty.
    if (text.length > 2) {
      yield (first ? '' : ',') + text.slice(1, -1);
      first = false;
    }
    batch = Object.create(null);
    batched = 0;
  };
  for (const [key, member] of Object.entries(value)) {
    if (member === undefined) continue; // left out, as JSON.stringify leaves it
    const size = countNodes(member, batchNodes);
    if (size >= batchNodes) {
      yield* flush();
      yield `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      yield* jsonPieces(member, batchNodes);
      continue;
    }
    batch[key] = member;
    batched += size;
    if (batched >= batchNodes) yield* flush();
  }
  yield* flush();
  yield '}';
}

/** A view that writes its items' text itself, batched by about `batchNodes` values (its first item's size each). */
function* viewTextPieces(view: JsonArrayView, batchNodes: number): Generator<string> {
  const perItem = Math.max(1, countNodes(view.at(0), batchNodes));
  const itemsPerPiece = Math.max(1, Math.floor(batchNodes / perItem));
  yield '[';
  for (let start = 0; start < view.length; start += itemsPerPiece) {
    let text = start === 0 ? '' : ',';
    const end = Math.min(view.length, start + itemsPerPiece);
    for (let i = start; i < end; i++) text += (i === start ? '' : ',') + view.textAt(i);
    yield text;
  }
  yield ']';
}

/** Where an answer written in slices goes: Node's response, or a socket with chunked framing (fastHttp.ts). */
export interface TextSink {
  /** The client went away: nothing more is written. */
  readonly closed: boolean;
  /** Write a slice; false when the socket is full (wait for drained() before the next). */
  write(text: string): boolean;
  /** Resolves when the sink can take more, or is closed. */
  drained(): Promise<void>;
  /** The last slice and the end of the body. */
  end(text: string): void;
}

/** Resolves when `stream` can take more, or is closed; leaves no listener behind (one wait per full socket). */
export function drainedOrClosed(stream: NodeJS.EventEmitter): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/**
 * Write `value` as JSON to `sink` a slice at a time (see above); stops if the client goes
 * away. Every piece (a batch of about BATCH_NODES values) is a yield point (`yieldPoint`,
 * pace.ts's by default), not only every write: the text of one write took 5-18 ms to make on
 * a loaded machine, and when the socket took each write at once (its drain event comes
 * without the event loop turning) several writes ran back to back, 40-65 ms without another
 * client being read.
 */
export async function writeJsonSlices(value: unknown, sink: TextSink, yieldPoint: () => Promise<void> | undefined = pace): Promise<void> {
  let pending = '';
  for (const piece of jsonPieces(value)) {
    pending += piece;
    if (pending.length >= WRITE_CHARS) {
      if (sink.closed) return;
      const more = sink.write(pending);
      pending = '';
      if (!more) await sink.drained();
    }
    const turn = yieldPoint();
    if (turn !== undefined) await turn;
  }
  if (!sink.closed) sink.end(pending);
}

/** Write `value` as the JSON body of a 200 answer a slice at a time (Node sends it chunked). */
export async function writeLargeJson(
  res: ServerResponse,
  value: unknown,
  headers: OutgoingHttpHeaders,
  yieldPoint: () => Promise<void> | undefined = pace,
): Promise<void> {
  res.writeHead(200, { ...headers, 'content-type': 'application/json' });
  await writeJsonSlices(
    value,
    {
      get closed() {
        return res.destroyed;
      },
      write: (text) => res.write(text),
      drained: () => drainedOrClosed(res),
      end: (text) => res.end(text),
    },
    yieldPoint,
  );
}
