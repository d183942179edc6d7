/**
 * Recognises the one shape of request nearly every JSON-RPC client sends, from its raw bytes:
 * `POST / HTTP/1.1` with one Host, one Content-Length, a JSON content type and nothing that
 * changes how the message is framed or answered (no Transfer-Encoding, Expect, Upgrade, Origin,
 * Connection other than keep-alive, no repeated or folded header). Anything else is "other"
 * and goes to Node's HTTP server (fastHttp.ts), which answers it as before, faults included.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { isJsonMediaType, mediaTypeOf } from './contentType.js';

export type SimpleRequestParse =
  /**
   * More bytes are needed to tell (the head or the body is not complete yet); `length`: the
   * whole request's, once its head has said it.
   */
  | { readonly kind: 'incomplete'; readonly length?: number }
  /** Not the simple shape: Node's HTTP server takes it from its first byte. */
  | { readonly kind: 'other' }
  | {
      readonly kind: 'request';
      /** Lower-case names, as Node's IncomingMessage has them. */
      readonly headers: IncomingHttpHeaders;
      /** The body's text (UTF-8). */
      readonly body: string;
      /** Bytes of the buffer this request took (head and body). */
      readonly length: number;
    };

export interface SimpleRequestLimits {
  /** Larger bodies are Node's (it answers 413). */
  readonly maxBodyBytes: number;
  /** Which Host headers are served: others are Node's (it answers 403). */
  readonly hostAllowed: (host: string) => boolean;
}

/** Longest head looked at: a longer one is Node's (it answers 431 past its own limit). */
export const MAX_SIMPLE_HEAD_BYTES = 8 * 1024;

const REQUEST_LINE = 'POST / HTTP/1.1';
const HEAD_END = Buffer.from('\r\n\r\n');
/** RFC 9110's token characters: a header name with anything else is Node's to refuse. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const DIGITS = /^\d{1,10}$/;
/** Headers whose presence changes framing, the answer's headers, or the connection: Node handles those. */
const NOT_SIMPLE = new Set(['transfer-encoding', 'expect', 'upgrade', 'origin', 'content-encoding']);

const INCOMPLETE = { kind: 'incomplete' } as const;
const OTHER = { kind: 'other' } as const;

/** The request at the start of `buffer`, if it is complete and of the simple shape. */
export function parseSimpleRequest(buffer: Buffer, limits: SimpleRequestLimits): SimpleRequestParse {
  const headEnd = buffer.indexOf(HEAD_END);
  if (headEnd < 0) {
    // A partial request line that cannot become ours is Node's at once.
    const seen = buffer.toString('latin1', 0, Math.min(buffer.length, REQUEST_LINE.length));
    if (!REQUEST_LINE.startsWith(seen)) return OTHER;
    return buffer.length > MAX_SIMPLE_HEAD_BYTES ? OTHER : INCOMPLETE;
  }
  if (headEnd > MAX_SIMPLE_HEAD_BYTES) return OTHER;
  const lines = buffer.toString('latin1', 0, headEnd).split('\r\n');
  if (lines[0] !== REQUEST_LINE) return OTHER;
  const headers: IncomingHttpHeaders = {};
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    if (colon <= 0) return OTHER;
    const name = line.slice(0, colon).toLowerCase();
    // Control characters (a bare CR or LF among them) and obsolete line folding are Node's to judge.
    if (!TOKEN.test(name) || NOT_SIMPLE.has(name) || headers[name] !== undefined || hasControlCharacter(line)) return OTHER;
    headers[name] = line.slice(colon + 1).trim();
  }
  const { host, connection } = headers;
  const declared = headers['content-length'];
  if (typeof host !== 'string' || !limits.hostAllowed(host)) return OTHER;
  if (connection !== undefined && (connection as string).toLowerCase() !== 'keep-alive') return OTHER;
  if (typeof declared !== 'string' || !DIGITS.test(declared)) return OTHER;
  if (!isJsonMediaType(mediaTypeOf(headers['content-type'] as string | undefined))) return OTHER;
  const bodyLength = Number(declared);
  if (bodyLength > limits.maxBodyBytes) return OTHER;
  const bodyStart = headEnd + HEAD_END.length;
  if (buffer.length < bodyStart + bodyLength) return { kind: 'incomplete', length: bodyStart + bodyLength };
  return { kind: 'request', headers, body: buffer.toString('utf8', bodyStart, bodyStart + bodyLength), length: bodyStart + bodyLength };
}

/** A control character other than a tab (DEL included): Node refuses some of these, tolerates others. */
function hasControlCharacter(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) return true;
  }
  return false;
}
