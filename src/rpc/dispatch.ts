/**
 * The JSON-RPC 2.0 envelope: single and batch requests, notifications, ids and
 * error mapping. Dispatch goes only to the method table (a Map), never to object
 * properties, so `__proto__` or `constructor` are just unknown methods.
 */
import { clip } from '../engine/index.js';
import { type ClientRules, type KnownClient, type RulesChoice, rulesFor } from './clientRules.js';
import { ErrorCode, RpcError, toRpcError } from './errors.js';
import { type Json, JsonArrayView, materialize } from './json.js';
import type { RpcContext } from './method.js';
import type { MethodTable } from './table.js';

export type RequestId = string | number | null;

export interface SuccessResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: Json;
}
export interface ErrorResponse {
  jsonrpc: '2.0';
  id: RequestId;
  error: { code: number; message: string; data?: Json; decoded?: Json };
}
export type Response = SuccessResponse | ErrorResponse;

export interface DispatchOptions {
  readonly maxBatchSize: number;
  /** Called once per internal error (a bug), with the original error and its stack. */
  readonly onInternalError: (error: unknown, method: string) => void;
  /** Called after each call (for --verbose logging). */
  readonly onCall?: (method: string, milliseconds: number, error: RpcError | undefined) => void;
  /** Which rules forClient gives each client (clientRules.ts); absent: each client its own tool's. */
  readonly clientRules?: RulesChoice;
}

export class Dispatcher {
  /** This dispatcher under other rules, made on first use: one per rules, not one per request. */
  private readonly underRules = new Map<ClientRules, Dispatcher>();

  constructor(
    private readonly table: MethodTable,
    private readonly ctx: RpcContext,
    private readonly options: DispatchOptions,
  ) {}

  /** The same methods for one connection with state of its own (its subscriptions). */
  withContext(extra: Partial<RpcContext>): Dispatcher {
    return new Dispatcher(this.table, { ...this.ctx, ...extra }, this.options);
  }

  /** The same methods and state, answering under the rules `client` gets (undefined: a client that did not say who it is). */
  forClient(client: KnownClient | undefined): Dispatcher {
    const rules = rulesFor(this.options.clientRules ?? 'per-client', client);
    if (rules === this.ctx.rules) return this;
    let dispatcher = this.underRules.get(rules);
    if (!dispatcher) {
      dispatcher = this.withContext({ rules });
      this.underRules.set(rules, dispatcher);
    }
    return dispatcher;
  }

  has(method: string): boolean {
    return this.table.has(method);
  }

  /**
   * Run one method with already-parsed params; throws RpcError on failure (the provider path).
   * The answer is plain JSON: views of long arrays (json.ts) are made into arrays for the
   * code in process that gets it.
   */
  async call(method: string, params: unknown): Promise<Json> {
    const viewsBefore = JsonArrayView.made;
    const result = await this.answer(method, params);
    return JsonArrayView.made === viewsBefore ? result : materialize(result);
  }

  /** Run one method; its answer may hold views of long arrays (json.ts), which the servers write as they format them. */
  private async answer(method: string, params: unknown): Promise<Json> {
    const started = performance.now();
    let failure: RpcError | undefined;
    try {
      const handler = this.table.get(method);
      if (!handler) throw new RpcError(ErrorCode.methodNotFound, `the method ${clip(method)} does not exist/is not available`);
      if (params !== undefined && params !== null && !Array.isArray(params)) {
        throw new RpcError(ErrorCode.invalidParams, 'invalid params: expected an array of positional parameters');
      }
      // A send's answer goes out before automine's block is in: whatever is asked next sees it.
      const settling = this.ctx.chain.settling;
      if (settling) await settling;
      const dialect = this.ctx.dialect;
      if (dialect && method.startsWith('anvil_')) dialect.current = 'anvil';
      else if (dialect && method.startsWith('hardhat_')) dialect.current = 'hardhat';
      return await handler.invoke(this.ctx, (params as unknown[] | undefined | null) ?? []);
    } catch (error) {
      failure = toRpcError(error, (e) => this.options.onInternalError(e, method));
      throw failure;
    } finally {
      this.options.onCall?.(method, performance.now() - started, failure);
    }
  }

  /** Handle a parsed JSON-RPC body (single or batch); undefined means "send no body". */
  async handle(body: unknown): Promise<Response | Response[] | undefined> {
    if (Array.isArray(body)) {
      if (body.length === 0) return errorResponse(null, new RpcError(ErrorCode.invalidRequest, 'empty batch'));
      if (body.length > this.options.maxBatchSize) {
        return errorResponse(null, new RpcError(ErrorCode.invalidRequest, `batch too large: ${body.length} requests, at most ${this.options.maxBatchSize}`));
      }
      const responses = await Promise.all(body.map((item) => this.handleOne(item)));
      const sent = responses.filter((r): r is Response => r !== undefined);
      return sent.length > 0 ? sent : undefined;
    }
    return this.handleOne(body);
  }

  private async handleOne(request: unknown): Promise<Response | undefined> {
    if (typeof request !== 'object' || request === null || Array.isArray(request)) {
      return errorResponse(null, new RpcError(ErrorCode.invalidRequest, 'invalid request: expected a JSON-RPC 2.0 request object'));
    }
    const fields = request as Record<string, unknown>;
    const hasId = Object.hasOwn(fields, 'id');
    const id = fields.id;
    const validId = id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
    if (hasId && !validId) {
      return errorResponse(null, new RpcError(ErrorCode.invalidRequest, 'invalid request: id must be a string, number or null'));
    }
    const replyId = (hasId ? id : null) as RequestId;
    if (fields.jsonrpc !== '2.0') {
      return errorResponse(replyId, new RpcError(ErrorCode.invalidRequest, 'invalid request: jsonrpc must be "2.0"'));
    }
    if (typeof fields.method !== 'string') {
      return errorResponse(replyId, new RpcError(ErrorCode.invalidRequest, 'invalid request: method must be a string'));
    }
    try {
      const result = await this.answer(fields.method, fields.params);
      return hasId ? { jsonrpc: '2.0', id: replyId, result } : undefined;
    } catch (error) {
      // call() only throws RpcError; anything else would be a bug here.
      return hasId ? errorResponse(replyId, error instanceof RpcError ? error : new RpcError(ErrorCode.internal, 'internal error')) : undefined;
    }
  }
}

function errorResponse(id: RequestId, error: RpcError): ErrorResponse {
  const body: ErrorResponse['error'] = { code: error.code, message: error.message };
  if (error.data !== undefined) body.data = error.data;
  if (error.decoded !== undefined) body.decoded = error.decoded;
  return { jsonrpc: '2.0', id, error: body };
}
