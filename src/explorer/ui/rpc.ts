/**
 * The page's only way to the node: its public JSON-RPC over `POST /` and its WebSocket on the same
 * address (eth_subscribe), exactly what any other client uses, so the page works against any
 * chain-sim it is served by (docs/explorer.md).
 */

/** A JSON-RPC error answer, with chain-sim's `decoded` failure when it gave one (docs/contracts.md). */
export class RpcError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data: unknown,
    readonly decoded: DecodedFailure | undefined,
  ) {
    super(message);
  }
}

export interface StackFrame {
  readonly contract?: string;
  readonly function?: string;
  readonly file?: string;
  readonly line?: number;
  readonly address?: string;
  readonly call?: string;
  readonly signature?: string;
}

export interface DecodedFailure {
  readonly message: string;
  readonly reason?: { readonly kind: string; readonly name?: string; readonly text?: string; readonly description?: string };
  readonly stack?: readonly StackFrame[];
}

interface RpcAnswer {
  readonly id: number;
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown; readonly decoded?: DecodedFailure };
}

let nextId = 1;

function unwrap(answer: RpcAnswer): unknown {
  if (answer.error) throw new RpcError(answer.error.message, answer.error.code, answer.error.data, answer.error.decoded);
  return answer.result;
}

/** POST a request (or a batch) to the node; an HTTP fault (any status but 2xx: a refused Host, a body too large) is an RpcError. */
async function post(body: unknown): Promise<unknown> {
  const response = await fetch('/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new RpcError(`HTTP ${response.status}`, response.status, undefined, undefined);
  return response.json();
}

/** One method call over HTTP. */
export async function rpc<T = unknown>(method: string, params: readonly unknown[] = []): Promise<T> {
  return unwrap((await post({ jsonrpc: '2.0', id: nextId++, method, params })) as RpcAnswer) as T;
}

/** Many calls in one JSON-RPC batch (one request for a page of blocks); answers in the calls' order. */
export async function rpcBatch<T = unknown>(calls: ReadonlyArray<readonly [string, readonly unknown[]]>): Promise<T[]> {
  if (calls.length === 0) return [];
  const first = nextId;
  nextId += calls.length;
  const answers = (await post(calls.map(([method, params], i) => ({ jsonrpc: '2.0', id: first + i, method, params })))) as RpcAnswer[];
  const byId = new Map(answers.map((answer) => [answer.id, answer]));
  return calls.map((_, i) => unwrap(byId.get(first + i) ?? { id: first + i, error: { code: -32603, message: 'no answer' } }) as T);
}

export type Listener = (kind: 'newHeads' | 'newPendingTransactions', result: unknown) => void;

/**
 * Subscriptions to new heads and pending transactions over the node's WebSocket. If the socket
 * cannot be opened or closes, the page polls eth_blockNumber every 2 s instead and tries the
 * socket again; either way nothing runs on the node for the page but these requests.
 */
export function subscribe(listener: Listener, onStatus: (live: boolean) => void): () => void {
  let socket: WebSocket | undefined;
  let poll: ReturnType<typeof setInterval> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let lastHead = '';
  const kinds = new Map<string, 'newHeads' | 'newPendingTransactions'>();
  const startPolling = () => {
    if (poll !== undefined) return;
    poll = setInterval(async () => {
      const head = await rpc<string>('eth_blockNumber').catch(() => lastHead);
      if (head !== lastHead) {
        lastHead = head;
        listener('newHeads', { number: head });
      }
    }, 2000);
  };
  const open = () => {
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/`);
    socket = ws;
    ws.onopen = () => {
      if (poll !== undefined) clearInterval(poll);
      poll = undefined;
      onStatus(true);
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 'heads', method: 'eth_subscribe', params: ['newHeads'] }));
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 'pending', method: 'eth_subscribe', params: ['newPendingTransactions'] }));
    };
    ws.onmessage = (event) => {
      const message = JSON.parse(String(event.data)) as { id?: string; result?: string; params?: { subscription: string; result: unknown } };
      if (message.id === 'heads' && message.result) kinds.set(message.result, 'newHeads');
      else if (message.id === 'pending' && message.result) kinds.set(message.result, 'newPendingTransactions');
      else if (message.params) {
        const kind = kinds.get(message.params.subscription);
        if (kind) listener(kind, message.params.result);
      }
    };
    ws.onclose = () => {
      onStatus(false);
      if (closed) return;
      startPolling();
      retry = setTimeout(open, 5000);
    };
  };
  open();
  return () => {
    closed = true;
    socket?.close();
    if (poll !== undefined) clearInterval(poll);
    if (retry !== undefined) clearTimeout(retry);
  };
}
