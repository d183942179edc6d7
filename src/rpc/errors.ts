import { clipLongRuns } from '../engine/util/clip.js';
import { CodedError, EngineError, RevertError, TransactionFailedError } from '../engine/util/errors.js';
import { hardhatSendError } from './hardhatErrors.js';
import type { Json } from './json.js';
import { encodeData } from './encode.js';

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

/** The backstop of clip.ts: whatever a handler interpolated, no long input goes back (reverts excepted, as above). */
function withClippedMessage(error: RpcError): RpcError {
  if (error.code === ErrorCode.executionReverted) return error;
  const message = clipLongRuns(error.message);
  return message === error.message ? error : new RpcError(error.code, message, error.data, error.decoded);
}

export function invalidParams(message: string): RpcError {
  return new RpcError(ErrorCode.invalidParams, message);
}

export function serverError(message: string): RpcError {
  return new RpcError(ErrorCode.server, message);
}

/**
 * Translate anything a handler threw into an RpcError. Unknown errors are bugs:
 * they become -32603 with a short message and are reported to `onInternal`
 * (logged with the stack on the server side only).
 */
export function toRpcError(error: unknown, onInternal: (error: unknown) => void): RpcError {
  if (error instanceof RpcError) return withClippedMessage(error);
  if (error instanceof TransactionFailedError) return hardhatSendError(error);
  // A revert's reason is the contract's answer, not an echo of the request: it stays whole.
  if (error instanceof RevertError) return new RpcError(ErrorCode.executionReverted, error.message, encodeData(error.data));
  if (error instanceof CodedError) return new RpcError(error.code, clipLongRuns(error.message));
  if (error instanceof EngineError) {
    return new RpcError(error.kind === 'invalidInput' ? ErrorCode.invalidParams : ErrorCode.server, clipLongRuns(error.message));
  }
  onInternal(error);
  return new RpcError(ErrorCode.internal, 'internal error');
}
