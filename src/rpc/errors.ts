import { clipLongRuns } from '../engine/util/clip.js';
import { CodedError, EngineError, type EngineErrorKind, RevertError, TransactionFailedError } from '../engine/util/errors.js';
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
  constructor(code: number, message: string, data?: Json) {
    super(message);
    this.name = 'RpcError';
    this.code = code;
    this.data = data;
  }
}

/** The backstop of clip.ts: whatever a handler interpolated, no long input goes back (reverts excepted, as above). */
function withClippedMessage(error: RpcError): RpcError {
  if (error.code === ErrorCode.executionReverted) return error;
  const message = clipLongRuns(error.message);
  return message === error.message ? error : new RpcError(error.code, message, error.data);
}

export function invalidParams(message: string): RpcError {
  return new RpcError(ErrorCode.invalidParams, message);
}

export function serverError(message: string): RpcError {
  return new RpcError(ErrorCode.server, message);
}

/** The code of each kind of engine error (a new kind must be given one here). */
const ENGINE_ERROR_CODES: Readonly<Record<EngineErrorKind, number>> = {
  rejected: ErrorCode.server,
  invalidInput: ErrorCode.invalidParams,
  unsupported: ErrorCode.server,
  upstream: ErrorCode.server,
};

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
  if (error instanceof EngineError) return new RpcError(ENGINE_ERROR_CODES[error.kind], clipLongRuns(error.message));
  onInternal(error);
  return new RpcError(ErrorCode.internal, 'internal error');
}
