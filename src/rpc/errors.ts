/**
 * Errors as JSON-RPC answers: `toRpcError` maps whatever a handler threw to its code, in one
 * place. The error class and the codes are rpcError.ts's (re-exported here for the handlers).
 */
import { clipLongRuns } from '../engine/util/clip.js';
import { CodedError, EngineError, type EngineErrorKind, RevertError, TransactionFailedError } from '../engine/util/errors.js';
import { hardhatSendError } from './hardhatErrors.js';
import { encodeData } from './encode.js';
import { ErrorCode, RpcError } from './rpcError.js';

export { ErrorCode, RpcError, invalidParams, serverError } from './rpcError.js';

/** The backstop of clip.ts: whatever a handler interpolated, no long input goes back (a revert's reason excepted: see toRpcError). */
function withClippedMessage(error: RpcError): RpcError {
  if (error.code === ErrorCode.executionReverted) return error;
  const message = clipLongRuns(error.message);
  return message === error.message ? error : new RpcError(error.code, message, error.data, error.decoded);
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
