import { bytesToBigInt, bytesToHex } from '@ethereumjs/util';
import { RevertError, rejected } from '../util/errors.js';

const ERROR_SELECTOR = '0x08c379a0'; // Error(string)
const PANIC_SELECTOR = '0x4e487b71'; // Panic(uint256)

/** Solidity's panic codes, in go-ethereum's words. */
const PANIC_REASONS: Readonly<Record<number, string>> = {
  0x00: 'generic panic',
  0x01: 'assert(false)',
  0x11: 'arithmetic underflow or overflow',
  0x12: 'division or modulo by zero',
  0x21: 'enum overflow',
  0x22: 'invalid encoded storage byte array accessed',
  0x31: 'out-of-bounds array access; popping on an empty array',
  0x32: 'out-of-bounds access of an array or bytesN',
  0x41: 'out of memory',
  0x51: 'uninitialized function',
};

/** go-ethereum's words for the EVM's failures (ethereumjs says 'revert' where go-ethereum says 'execution reverted'). */
export function executionErrorText(error: string): string {
  return error === 'revert' ? 'execution reverted' : error;
}

/**
 * A failed execution: any revert is code 3 with its data attached, `0x` when it had none (as
 * Anvil answers; go-ethereum sends -32000 without data there, which Hardhat's chai matchers,
 * ethers and viem cannot tell from a node failure). Other failures are plain errors.
 */
export function executionFailure(error: string, returnValue: Uint8Array): Error {
  if (error === 'revert') return new RevertError(describeRevert(returnValue), returnValue);
  return rejected(executionErrorText(error));
}

/** `execution reverted`, with the decoded reason when the payload is Error(string) or Panic(uint256). */
export function describeRevert(data: Uint8Array): string {
  const reason = revertReason(data);
  return reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`;
}

export function revertReason(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined;
  const selector = bytesToHex(data.subarray(0, 4));
  if (selector === ERROR_SELECTOR && data.length >= 68) {
    const offset = Number(bytesToBigInt(data.subarray(4, 36)));
    const start = 4 + offset;
    if (start + 32 > data.length) return undefined;
    const length = Number(bytesToBigInt(data.subarray(start, start + 32)));
    if (start + 32 + length > data.length) return undefined;
    return new TextDecoder().decode(data.subarray(start + 32, start + 32 + length));
  }
  if (selector === PANIC_SELECTOR && data.length === 36) {
    const code = bytesToBigInt(data.subarray(4, 36));
    const known = code <= 0xffn ? PANIC_REASONS[Number(code)] : undefined;
    return known ?? `unknown panic code: 0x${code.toString(16)}`;
  }
  return undefined;
}
