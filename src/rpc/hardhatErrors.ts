/**
 * A failed transaction's send, answered as Hardhat's node answers it (recorded from `hardhat node`
 * 2.29.1, test/fixtures/hardhat-node-errors.json): -32603 with `Error: <message>`, or -32000
 * `Transaction ran out of gas`, and `data: { message, txHash, data }` where `data` is the revert
 * payload. Hardhat's chai matchers read that payload and `txHash`. Without the project's
 * artifacts the messages are those Hardhat gives for a contract it does not know (a custom error
 * is "unrecognized", with its bytes); with them (contractFailures.ts) a custom error is named.
 */
import { bytesToBigInt, bytesToHex } from '@ethereumjs/util';
import type { TransactionFailedError } from '../engine/util/errors.js';
import { revertReason } from '../engine/execution/revert.js';
import { encodeData } from './encode.js';
import { ErrorCode, RpcError } from './rpcError.js';
import type { Json } from './json.js';

const ERROR_SELECTOR = '0x08c379a0';
const PANIC_SELECTOR = '0x4e487b71';

/** Hardhat's words for Solidity's panic codes (hardhat/internal/hardhat-network/stack-traces/panic-errors). */
const PANIC_REASONS: Readonly<Record<number, string>> = {
  0x01: 'Assertion error',
  0x11: 'Arithmetic operation overflowed outside of an unchecked block',
  0x12: 'Division or modulo division by zero',
  0x21: 'Tried to convert a value into an enum, but the value was too big or negative',
  0x22: 'Incorrectly encoded storage byte array',
  0x31: '.pop() was called on an empty array',
  0x32: 'Array accessed at an out-of-bounds or negative index',
  0x41: 'Too much memory was allocated, or an array was created that is too large',
  0x51: 'Called a zero-initialized variable of internal function type',
};

const VM_EXCEPTION = 'VM Exception while processing transaction';

/**
 * Hardhat's message for a failed execution; `customError` (`InsufficientBalance(100, 1000)`) when
 * the project's artifacts decoded the revert data, else Hardhat's words for a contract it does not know.
 */
export function hardhatFailureMessage(error: string, data: Uint8Array, customError?: string): string {
  if (error === 'out of gas' || error === 'code store out of gas') return 'Transaction ran out of gas';
  if (error === 'invalid opcode') return `${VM_EXCEPTION}: invalid opcode`;
  if (error === 'code size to deposit exceeds maximum code size') return 'Transaction reverted: trying to deploy a contract whose code is too large';
  if (error !== 'revert' || data.length === 0) return 'Transaction reverted without a reason string';
  const selector = bytesToHex(data.subarray(0, 4));
  if (selector === ERROR_SELECTOR) {
    const reason = revertReason(data);
    if (reason !== undefined) return `${VM_EXCEPTION}: reverted with reason string '${reason}'`;
  }
  if (selector === PANIC_SELECTOR && data.length === 36) {
    const code = bytesToBigInt(data.subarray(4));
    const known = code <= 0xffn ? PANIC_REASONS[Number(code)] : undefined;
    return known === undefined
      ? `${VM_EXCEPTION}: reverted with unknown panic code 0x${code.toString(16)}`
      : `${VM_EXCEPTION}: reverted with panic code 0x${code.toString(16)} (${known})`;
  }
  if (customError !== undefined) return `${VM_EXCEPTION}: reverted with custom error '${customError}'`;
  return `${VM_EXCEPTION}: reverted with an unrecognized custom error (return data: ${encodeData(data)})`;
}

/** Hardhat's error for a failed send; `text` in place of Hardhat's words for an unknown contract (an explained failure's). */
export function hardhatSendError(failure: TransactionFailedError, text = hardhatFailureMessage(failure.error, failure.data), decoded?: Json): RpcError {
  const outOfGas = failure.error === 'out of gas' || failure.error === 'code store out of gas';
  // Hardhat prefixes "Error: " to everything but running out of gas, which it answers as -32000.
  const message = outOfGas ? text : `Error: ${text}`;
  return new RpcError(outOfGas ? ErrorCode.server : ErrorCode.internal, message, { message, txHash: failure.hashHex, data: encodeData(failure.data) }, decoded);
}

/** Hardhat's words for a panic code, if it has them. */
export function hardhatPanicDescription(code: bigint): string | undefined {
  return code <= 0xffn ? PANIC_REASONS[Number(code)] : undefined;
}
