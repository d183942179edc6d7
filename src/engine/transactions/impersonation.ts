/**
 * Transactions "sent" by impersonated accounts (hardhat_impersonateAccount and the like):
 * nobody holds the key, so they carry a placeholder signature (they still have a hash and
 * serialise into blocks) and name their sender in place of signature recovery.
 */
import { type TypedTransaction, type TypedTxData, createTx } from '@ethereumjs/tx';
import { type Address, bytesToBigInt } from '@ethereumjs/util';
import { PRELOADED_PARAMS } from '../rules/hardforks.js';

/** `tx` with the placeholder signature, sent by `from`. */
export function impersonate(tx: TypedTransaction, from: Address): TypedTransaction {
  const data = { ...tx.toJSON(), type: tx.type, v: tx.type === 0 ? 27n : 0n, r: bytesToBigInt(from.bytes), s: 1n };
  const impersonated = createTx(data as TypedTxData, { common: tx.common, freeze: false, params: PRELOADED_PARAMS });
  Object.defineProperty(impersonated, 'getSenderAddress', { value: () => from });
  return impersonated;
}

/**
 * `tx` as `sender` sent it. A block keeps its transactions as decoded data, which forgets
 * who an impersonated one named: running it again needs the sender back.
 */
export function asSentBy(tx: TypedTransaction, sender: Address): TypedTransaction {
  let signer: Address | undefined;
  try {
    signer = tx.getSenderAddress();
  } catch {
    // a placeholder signature may recover to nothing at all
  }
  return signer?.equals(sender) ? tx : impersonate(tx, sender);
}
