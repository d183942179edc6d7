/** A minimal JSON-RPC client over HTTP, for commands that talk to a running node (`chain-sim export`). */

/** A JSON-RPC error answer, with its code. */
export class RemoteRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'RemoteRpcError';
  }
}

let nextId = 1;

/** Call `method` on the node at `url`; rejects with RemoteRpcError for an error answer, Error for a transport failure. */
export async function callRpc(url: string, method: string, params: readonly unknown[] = []): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`cannot reach ${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  }
  const text = await response.text();
  let body: { result?: unknown; error?: { code: number; message: string } };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new Error(`${url} answered HTTP ${response.status} without JSON-RPC: ${text.slice(0, 100)}`);
  }
  if (body.error) throw new RemoteRpcError(body.error.code, `${method}: ${body.error.message}`);
  return body.result;
}
