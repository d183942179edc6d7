/**
 * eth_simulateV1's error codes (go-ethereum's internal/ethapi/errors.go) and how a transaction
 * the library refuses becomes one, in go-ethereum's words.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import { CodedError } from '../util/errors.js';

export const ERR = {
  nonceTooHigh: -38011,
  nonceTooLow: -38010,
  baseFeeTooLow: -38012,
  intrinsicGas: -38013,
  insufficientFunds: -38014,
  blockGasLimitReached: -38015,
  blockNumberInvalid: -38020,
  blockTimestampInvalid: -38021,
  senderIsNotEoa: -38024,
  maxInitCodeSizeExceeded: -38025,
  clientLimitExceeded: -38026,
  internal: -32603,
  invalidParams: -32602,
  vmError: -32015,
} as const;

/** A transaction go-ethereum would not run: the whole request fails with its code. */
export function invalidTransaction(error: unknown, who: string, tx: TypedTransaction, baseFee: bigint | undefined): CodedError {
  const text = error instanceof Error ? error.message : String(error);
  const supplied = ` (supplied gas ${tx.gasLimit})`;
  const nonce =
    /nonce.*?(?:tx|transaction) nonce[^0-9]*(\d+)[^0-9]+(\d+)|the tx doesn't have the correct nonce\. account has nonce of: (\d+) tx has nonce of: (\d+)/.exec(
      text,
    );
  if (nonce) {
    const have = BigInt(nonce[3] ?? nonce[1] ?? 0);
    const want = BigInt(nonce[4] ?? nonce[2] ?? 0);
    return want > have
      ? new CodedError(ERR.nonceTooHigh, `err: nonce too high: address ${who}, tx: ${want} state: ${have}${supplied}`)
      : new CodedError(ERR.nonceTooLow, `err: nonce too low: address ${who}, tx: ${want} state: ${have}${supplied}`);
  }
  const funds = /sender's account \((0x[0-9a-fA-F]{40})\) only has: (\d+)/.exec(text);
  if (funds) {
    const cost = /(?:upfront|max) cost is: (\d+)/.exec(text);
    return new CodedError(
      ERR.insufficientFunds,
      `err: insufficient funds for gas * price + value: address ${who} have ${funds[2]} want ${cost?.[1] ?? '?'}${supplied}`,
    );
  }
  if (/INTRINSIC_GAS_TOO_LOW|intrinsic/i.test(text)) return new CodedError(ERR.intrinsicGas, `err: intrinsic gas too low${supplied}`);
  if (/baseFeePerGas|base fee/i.test(text)) {
    return new CodedError(
      ERR.baseFeeTooLow,
      `err: max fee per gas less than block base fee: address ${who}, maxFeePerGas: ${(tx as { maxFeePerGas?: bigint }).maxFeePerGas ?? 0n}, baseFee: ${baseFee ?? 0n}${supplied}`,
    );
  }
  if (/initcode|init code/i.test(text)) return new CodedError(ERR.maxInitCodeSizeExceeded, `err: max initcode size exceeded${supplied}`);
  return new CodedError(ERR.internal, `err: ${text.replace(/\s*\(.*$/s, '')}${supplied}`);
}
