import type { Common } from '@ethereumjs/common';
import { Capability, createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import { EngineError, IntrinsicGasError, rejected } from '../util/errors.js';
import { PRELOADED_PARAMS } from '../rules/hardforks.js';
import { toHex } from '../util/hex.js';
import { keccak256 } from '../util/keccak256.js';

/** How far ahead of its next nonce a sender may queue transactions ("nonce too high" past it). */
export const MAX_NONCE_GAP = 1024n;

const EIP_OF_TYPE: Readonly<Record<number, number>> = { 1: 2930, 2: 1559, 3: 4844, 4: 7702 };

/** Decode a signed transaction, turning ethereumjs' errors into go-ethereum's wording. */
export function decodeRawTransaction(raw: Uint8Array, common: Common): TypedTransaction {
  if (raw.length === 0) throw new EngineError('invalidInput', 'typed transaction too short');
  const first = raw[0]!;
  if (first <= 0x7f) {
    const eip = EIP_OF_TYPE[first];
    if (eip === undefined || !common.isActivatedEIP(eip)) throw rejected('transaction type not supported');
  }
  let tx: TypedTransaction;
  try {
    tx = createTxFromRLP(raw, { common, params: PRELOADED_PARAMS });
  } catch (error) {
    throw translateTxError(error);
  }
  if (!tx.isSigned()) throw rejected('invalid sender: transaction is not signed');
  return tx;
}

/** The sender, from the recovered public key (ethereumjs hashes that key in JavaScript, 10x slower than keccak256.ts). */
export function senderOf(tx: TypedTransaction): Address {
  let publicKey: Uint8Array;
  try {
    publicKey = tx.getSenderPublicKey();
  } catch {
    throw rejected('invalid sender');
  }
  return new Address(keccak256(publicKey).slice(12));
}

/** Map an ethereumjs construction/validation error to go-ethereum's wording. */
export function translateTxError(error: unknown): EngineError {
  const message = error instanceof Error ? error.message : String(error);
  if (/chain ?id/i.test(message)) return rejected('invalid chain id for signer');
  if (/EIP-7825/.test(message)) {
    const match = /limit (\d+) exceeds the maximum allowed by EIP-7825 \((\d+)\)/.exec(message);
    return rejected(`transaction gas limit too high (cap: ${match?.[2] ?? '?'}, tx: ${match?.[1] ?? '?'})`);
  }
  if (/not (activated|enabled)|not supported/i.test(message)) return rejected('transaction type not supported');
  if (/signature|invalid s|invalid v|recover/i.test(message)) return rejected('invalid sender');
  if (/maxFeePerGas cannot be less than maxPriorityFeePerGas/i.test(message)) {
    return rejected('max priority fee per gas higher than max fee per gas');
  }
  // Anything else is a malformed encoding: say what ethereumjs found, without its internal context.
  return new EngineError('invalidInput', `invalid transaction: ${message.replace(/\s*\(.*$/s, '')}`);
}

export interface AdmissionContext {
  readonly stateNonce: bigint;
  /** Next nonce once the sender's pooled consecutive run is counted. */
  readonly poolNonce: bigint;
  readonly balance: bigint;
  readonly blockGasLimit: bigint;
  readonly nextBaseFee: bigint | undefined;
  readonly nextBlobGasPrice: bigint | undefined;
}

/** The checks go-ethereum's pool makes before it accepts a transaction, in its order and words. */
export function validateAdmission(tx: TypedTransaction, sender: Address, ctx: AdmissionContext): void {
  const who = sender.toString();
  if (tx.nonce < ctx.stateNonce) {
    throw rejected(`nonce too low: address ${who}, tx: ${tx.nonce} state: ${ctx.stateNonce}`);
  }
  if (tx.nonce >= ctx.poolNonce + MAX_NONCE_GAP) {
    throw rejected(`nonce too high: address ${who}, tx: ${tx.nonce} state: ${ctx.stateNonce}`);
  }
  if (tx.gasLimit > ctx.blockGasLimit) throw rejected('exceeds block gas limit');
  const intrinsic = tx.getIntrinsicGas();
  if (tx.gasLimit < intrinsic) {
    throw new IntrinsicGasError(`intrinsic gas too low: gas ${tx.gasLimit}, minimum needed ${intrinsic}`);
  }
  const floor = floorDataGas(tx);
  if (floor !== undefined && tx.gasLimit < floor) {
    throw new IntrinsicGasError(`insufficient gas for floor data gas cost: gas ${tx.gasLimit}, minimum needed ${floor}`);
  }
  const feeCap = maxFeePerGas(tx);
  if (ctx.nextBaseFee !== undefined && feeCap < ctx.nextBaseFee) {
    throw rejected(`max fee per gas less than block base fee: address ${who}, maxFeePerGas: ${feeCap}, baseFee: ${ctx.nextBaseFee}`);
  }
  const cost = maxCost(tx);
  if (ctx.balance < cost) {
    throw rejected(`insufficient funds for gas * price + value: address ${who} have ${ctx.balance} want ${cost}`);
  }
}

export function maxFeePerGas(tx: TypedTransaction): bigint {
  if (tx.supports(Capability.EIP1559FeeMarket)) return (tx as TypedTransaction & { maxFeePerGas: bigint }).maxFeePerGas;
  return (tx as TypedTransaction & { gasPrice: bigint }).gasPrice;
}

/** gas * fee cap + value + blob gas * blob fee cap: what go-ethereum calls tx.Cost(). */
export function maxCost(tx: TypedTransaction): bigint {
  let cost = tx.gasLimit * maxFeePerGas(tx) + tx.value;
  const blob = tx as TypedTransaction & { blobVersionedHashes?: string[]; maxFeePerBlobGas?: bigint };
  if (blob.blobVersionedHashes && blob.maxFeePerBlobGas !== undefined) {
    cost += BigInt(blob.blobVersionedHashes.length) * tx.common.param('blobGasPerBlob') * blob.maxFeePerBlobGas;
  }
  return cost;
}

/** EIP-7623 (Prague): calldata-heavy transactions must pay at least the floor. */
function floorDataGas(tx: TypedTransaction): bigint | undefined {
  if (!tx.common.isActivatedEIP(7623)) return undefined;
  let zeros = 0n;
  let nonZeros = 0n;
  for (const byte of tx.data) byte === 0 ? zeros++ : nonZeros++;
  const tokens = zeros + nonZeros * 4n;
  return tx.common.param('txGas') + tokens * tx.common.param('totalCostFloorPerToken');
}

export function hashHexOf(tx: TypedTransaction): string {
  return toHex(tx.hash());
}
