/**
 * The way in for the requests nearly every JSON-RPC client sends (simpleRequest.ts), read and
 * answered straight on the socket. Node's HTTP server spends per request what a fast method
 * takes to run: an IncomingMessage and a ServerResponse with their streams, header objects
 * and events. Answered here instead, over alternating runs on one machine, the server's CPU
 * per request fell by 30-260 µs and the bench's HTTP rows rose 6-19% (bench/results/HISTORY.md).
 *
 * Each connection starts here. A request of any other shape (a page's GET, a preflight, an
 * Origin, chunked bodies, Expect, an upgrade to WebSocket, a bad Host, a body too large or
 * not JSON) hands the connection, with the bytes read so far, to Node's HTTP server for good,
 * so every fault and limit is answered by the code that answered it before. So is a request
 * that does not arrive whole within the headers timeout: slow clients meet Node's timeouts.
 */
import { STATUS_CODES, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { ErrorCode } from '../rpc/errors.js';
import { drainedOrClosed, isLargeAnswer, type TextSink, writeJsonSlices } from './jsonBody.js';
import { type SimpleRequestLimits, parseSimpleRequest } from './simpleRequest.js';

export interface FastPathOptions {
  readonly limits: SimpleRequestLimits;
  /** Until a request has arrived whole (then Node's server takes the connection). */
  readonly headersMs: number;
  /** An idle keep-alive connection between requests (then it is closed, as Node closes one). */
  readonly keepAliveMs: number;
  /** The JSON-RPC answer to a parsed body, under the rules of the client its headers name. */
  readonly answer: (headers: IncomingHttpHeaders, body: unknown) => Promise<unknown>;
  /** Headers every answer to these headers carries (CORS). */
  readonly answerHeaders: (headers: IncomingHttpHeaders) => OutgoingHttpHeaders;
  /** Called after each answer (busyPoll.ts). */
  readonly afterAnswer?: () => void;
  /** Whether the server still takes requests: once closed, a connection ends after its answer. */
  readonly open: () => boolean;
  /** Gives a connection to Node's HTTP server, its unread bytes put back first. */
  readonly handOff: (socket: Socket) => void;
}

const EMPTY = Buffer.alloc(0);
/** What one connection may hold unread while its request runs (pipelined requests) before it stops reading. */
const MAX_UNREAD_BYTES = 1024 * 1024;

export class FastHttpPath {
  private readonly connections = new Set<FastConnection>();
  /** Requests answered here, and connections handed to Node's server (diagnostics and tests). */
  readonly counts = { answered: 0, handedOff: 0 };

  constructor(private readonly options: FastPathOptions) {}

  /** A new connection: served here until a request of another shape arrives. */
  adopt(socket: Socket): void {
    const connection = new FastConnection(socket, this.options, this.counts, () => this.connections.delete(connection));
    this.connections.add(connection);
  }

  /** Close the connections waiting for a request (the server's closeIdleConnections); busy ones end after their answer. */
  closeIdle(): void {
    for (const connection of this.connections) connection.closeIfIdle();
  }

  /** Close every connection now (closeAllConnections). */
  closeAll(): void {
    for (const connection of this.connections) connection.destroy();
  }
}

class FastConnection {
  /** Bytes read and not yet answered, in one buffer (takeArrived joins what came since). */
  private unread: Buffer = EMPTY;
  /** Chunks read since, joined once enough is there: a large body in many chunks is copied once, not once per chunk. */
  private arrived: Buffer[] = [];
  private arrivedBytes = 0;
  /** Bytes the request being read needs in all, once its head has said (0: not known). */
  private needed = 0;
  private busy = false;
  private timer: NodeJS.Timeout | undefined;
  /** The timer's purpose: an idle connection is closed, a partial request is handed to Node. */
  private waiting: 'idle' | 'partial' | undefined;

  constructor(
    private readonly socket: Socket,
    private readonly options: FastPathOptions,
    private readonly counts: FastHttpPath['counts'],
    private readonly forget: () => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', this.onData);
    socket.on('error', this.onError);
    socket.once('close', this.onClose);
    this.wait('idle', options.headersMs);
  }

  closeIfIdle(): void {
    if (!this.busy) this.destroy();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private readonly onData = (chunk: Buffer): void => {
    this.arrived.push(chunk);
    this.arrivedBytes += chunk.length;
    if (this.busy) {
      if (this.unread.length + this.arrivedBytes > MAX_UNREAD_BYTES) this.socket.pause();
    } else if (this.unread.length + this.arrivedBytes >= this.needed) {
      void this.serve();
    }
  };

  /** What arrived since, appended to `unread` in one copy. */
  private takeArrived(): void {
    if (this.arrivedBytes === 0) return;
    const parts = this.unread.length === 0 ? this.arrived : [this.unread, ...this.arrived];
    this.unread = parts.length === 1 ? parts[0]! : Buffer.concat(parts, this.unread.length + this.arrivedBytes);
    this.arrived = [];
    this.arrivedBytes = 0;
  }

  // A reset or aborted connection: nothing to answer; Node's server would log nothing either.
  private readonly onError = (): void => {
    this.socket.destroy();
  };

  private readonly onClose = (): void => {
    this.clearWait();
    this.forget();
  };

  /** Answer the whole requests read so far, in order; then wait for more, or hand over. */
  private async serve(): Promise<void> {
    for (;;) {
      this.takeArrived();
      if (this.unread.length === 0) {
        this.wait('idle', this.options.keepAliveMs);
        return;
      }
      const parsed = parseSimpleRequest(this.unread, this.options.limits);
      if (parsed.kind === 'other') {
        this.handOff();
        return;
      }
      if (parsed.kind === 'incomplete') {
        this.needed = parsed.length ?? 0;
        if (this.waiting !== 'partial') this.wait('partial', this.options.headersMs);
        return;
      }
      this.needed = 0;
      let body: unknown;
      try {
        body = JSON.parse(parsed.body);
      } catch {
        // Node's path answers it with the parse error, as for any client.
        this.handOff();
        return;
      }
      this.unread = parsed.length === this.unread.length ? EMPTY : this.unread.subarray(parsed.length);
      this.clearWait();
      this.busy = true;
      this.counts.answered++;
      await this.respond(parsed.headers, body);
      this.busy = false;
      if (this.socket.destroyed) return;
      if (!this.options.open()) {
        this.socket.end();
        return;
      }
      if (this.socket.isPaused()) this.socket.resume();
    }
  }

  private async respond(headers: IncomingHttpHeaders, body: unknown): Promise<void> {
    const extra = this.options.answerHeaders(headers);
    let text: string;
    let status = 200;
    try {
      const response = await this.options.answer(headers, body);
      if (isLargeAnswer(response)) {
        // A long trace: written a slice at a time, letting other clients in (jsonBody.ts).
        this.socket.write(head(200, extra, undefined, this.options.keepAliveMs));
        await writeJsonSlices(response, chunkedSink(this.socket));
        this.options.afterAnswer?.();
        return;
      }
      text = response === undefined ? '' : JSON.stringify(response);
    } catch {
      // As Node's path answers a failure of the dispatcher itself (a bug): no detail leaves the server.
      status = 500;
      text = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.invalidRequest, message: 'internal error' } });
    }
    if (this.socket.destroyed) return;
    this.socket.write(head(status, extra, Buffer.byteLength(text), this.options.keepAliveMs) + text);
    if (status === 200) this.options.afterAnswer?.();
  }

  private handOff(): void {
    this.clearWait();
    this.socket.off('data', this.onData);
    this.socket.off('error', this.onError);
    this.socket.off('close', this.onClose);
    this.forget();
    this.counts.handedOff++;
    this.takeArrived();
    // Put back what was read, in the same turn as Node's server starts reading: no byte is lost or reordered.
    if (this.unread.length > 0) this.socket.unshift(this.unread);
    this.unread = EMPTY;
    if (this.socket.isPaused()) this.socket.resume();
    this.options.handOff(this.socket);
  }

  private wait(purpose: 'idle' | 'partial', ms: number): void {
    this.clearWait();
    this.waiting = purpose;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.waiting = undefined;
      // Idle: closed, as Node closes an idle keep-alive connection; a request still arriving: Node's timeouts judge it.
      if (purpose === 'idle' && this.unread.length === 0 && this.arrivedBytes === 0) this.socket.destroy();
      else this.handOff();
    }, ms);
  }

  private clearWait(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.waiting = undefined;
  }
}

/** A body in HTTP/1.1 chunks on the socket (a chunk of length 0 would end it, so empty slices are skipped). */
function chunkedSink(socket: Socket): TextSink {
  const chunk = (text: string): string => (text.length === 0 ? '' : `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`);
  return {
    get closed() {
      return socket.destroyed;
    },
    write: (text) => socket.write(chunk(text)),
    drained: () => drainedOrClosed(socket),
    end: (text) => void socket.write(`${chunk(text)}0\r\n\r\n`),
  };
}

/** The status line and headers of a JSON answer: with its length, or chunked when `contentLength` is undefined. */
function head(status: number, extra: OutgoingHttpHeaders, contentLength: number | undefined, keepAliveMs: number): string {
  let text = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n`;
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) text += `${name}: ${one}\r\n`;
  }
  text += 'content-type: application/json\r\n';
  text += contentLength === undefined ? 'transfer-encoding: chunked\r\n' : `content-length: ${contentLength}\r\n`;
  return `${text}date: ${httpDate()}\r\nconnection: keep-alive\r\nkeep-alive: timeout=${Math.floor(keepAliveMs / 1000)}\r\n\r\n`;
}

let dateText = '';
let dateSecond = -1;

/** The Date header's value, made once a second (as Node's server caches it). */
function httpDate(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(second * 1000).toUTCString();
  }
  return dateText;
}
