/**
 * The JSON-RPC error a handler throws and the dispatcher answers: its code, message and data.
 * A module of its own, below errors.ts (which maps every thrown error to one) and the error forms
 * of other tools (hardhatErrors.ts), so neither imports the other to build one.
 */
import type { Json } from './json.js';

/** JSON-RPC error codes, as go-ethereum uses them. */
export const ErrorCode = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  server: -32000,
  executionReverted: 3,
} as const;

export class RpcError extends Error {
  readonly code: number;
  readonly data: Json | undefined;
  /**
   * A failure explained with the project's contracts (contractFailures.ts): a member of the error
   * object beside `data`, which keeps the form clients parse (docs/errors-and-limits.md).
   */
  readonly decoded: Json | undefined;
  constructor(code: number, message: string, data?: Json, decoded?: Json) {
    super(message);
    this.name = 'RpcError';
    this.code = code;
    this.data = data;
    this.decoded = decoded;
  }
}

export function invalidParams(message: string): RpcError {
  return new RpcError(ErrorCode.invalidParams, message);
}

export function serverError(message: string): RpcError {
  return new RpcError(ErrorCode.server, message);
}
