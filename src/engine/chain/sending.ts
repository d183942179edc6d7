/**
 * Transactions into the pool: filled with go-ethereum's defaults, signed (or impersonated),
 * checked for admission, and, under automine, mined right after the answer (or before it, when
 * the sender awaits the outcome: SendOptions). Runs inside a queue task.
 */
import { type TypedTransaction, type TypedTxData, createTx } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import { assertMinable } from '../mining/clock.js';
import { EngineError, TransactionFailedError, rejected } from '../util/errors.js';
import { type CallRequest, assertHonourable, withAuthorizations } from '../execution/execution.js';
import { PRELOADED_PARAMS } from '../rules/hardforks.js';
import { impersonate } from '../transactions/impersonation.js';
import { mineExecutable, reportRefused } from '../mining/producer.js';
import { hashHexOf, senderOf, translateTxError, validateAdmission } from '../transactions/validation.js';
import { decodeSubmission } from '../transactions/blobSidecar.js';
import { answerNow, estimate } from './calls.js';
import { RemoteReadPending } from '../state/remoteMiss.js';
import type { ChainCore } from './core.js';
import { type SendOptions, senderOfRequest } from './types.js';

/** Decode, validate and pool a signed transaction. */
export function submitRawTransaction(core: ChainCore, raw: Uint8Array, options: SendOptions = {}): Promise<string> {
  const { tx, sidecar } = decodeSubmission(raw, core.nextBlockCommon());
  const sender = senderOf(tx);
  // Kept before admission: automine may mine it (and a failure be thrown) inside admit.
  if (sidecar) core.blobs.keep(hashHexOf(tx), sidecar, (hash) => core.pool.get(hash) !== undefined || core.blocks.transaction(hash) !== undefined);
  return admit(core, tx, sender, options);
}

/** Fill, sign with an owned key (or impersonate, or leave unsigned) and submit. */
export async function sendFrom(
  core: ChainCore,
  request: CallRequest,
  { unsigned = false, passphrase, ...options }: SendOptions & { readonly unsigned?: boolean; readonly passphrase?: string } = {},
): Promise<string> {
  const from = senderOfRequest(request, 'sendTransaction');
  const sender = unsigned ? 'unsigned' : core.accounts.senderKeyOf(from, passphrase);
  const key = sender === 'unsigned' ? undefined : sender;
  const filled = await fillTransaction(core, request, from);
  const tx = key ? filled.sign(key) : impersonate(filled, from);
  return admit(core, tx, from, options);
}

/** Complete and sign with an owned key, without sending: the signed transaction's bytes. */
export async function signTransaction(core: ChainCore, request: CallRequest, passphrase?: string): Promise<Uint8Array> {
  const from = senderOfRequest(request, 'signTransaction');
  const key = core.accounts.signingKeyOf(from, passphrase);
  return (await fillTransaction(core, request, from)).sign(key).serialize();
}

/** Complete a transaction request with go-ethereum's defaults (nonce, gas, fees, chain id). */
export async function fillTransaction(core: ChainCore, request: CallRequest, from: Address): Promise<TypedTransaction> {
  assertHonourable(request, 'eth_sendTransaction');
  const account = await core.vm.stateManager.getAccount(from);
  const nonce = request.nonce ?? core.pool.nextNonce(from, account?.nonce ?? 0n);
  const gasLimit = request.gas ?? (await answerNow(estimate(core, { ...request, from }, { tag: 'pending' })));
  const base = {
    nonce,
    gasLimit,
    to: request.to,
    value: request.value ?? 0n,
    data: request.data ?? new Uint8Array(),
    chainId: core.chainId,
  };
  const nextBaseFee = core.nextBaseFee();
  let data: TypedTxData;
  if (nextBaseFee !== undefined && request.gasPrice === undefined && request.type !== 0 && request.type !== 1) {
    const tip = request.maxPriorityFeePerGas ?? core.suggestedTip;
    // go-ethereum: twice the head's base fee plus the tip, which covers the next block's;
    // a base fee set for the next block may be higher than that, so it counts instead.
    const cap = request.maxFeePerGas ?? 2n * (core.nextBlock.baseFeePerGas ?? core.blocks.headBaseFee!) + tip;
    data = { ...base, type: 2, maxPriorityFeePerGas: tip, maxFeePerGas: cap, accessList: request.accessList as never };
    if (request.authorizationList) data = withAuthorizations(data, request.authorizationList, core.accounts, core.nextBlockCommon());
  } else if (request.authorizationList) {
    throw new EngineError(
      'invalidInput',
      'a transaction with an authorizationList (EIP-7702) is type 4: it needs EIP-1559 fees (the london hardfork or later), not type 0 or 1',
    );
  } else {
    const gasPrice = request.gasPrice ?? core.gasPrice ?? (nextBaseFee ?? 0n) + core.suggestedTip;
    data = request.accessList || request.type === 1 ? { ...base, type: 1, gasPrice, accessList: request.accessList as never } : { ...base, type: 0, gasPrice };
  }
  try {
    return createTx(data, { common: core.nextBlockCommon(), params: PRELOADED_PARAMS });
  } catch (error) {
    throw translateTxError(error);
  }
}

async function admit(core: ChainCore, tx: TypedTransaction, sender: Address, { awaitOutcome = false }: SendOptions): Promise<string> {
  const hashHex = hashHexOf(tx);
  // go-ethereum: 'already known' while it is pooled; once mined its nonce is used ('nonce too low').
  if (core.pool.get(hashHex)) throw rejected('already known');
  const mined = core.blocks.transaction(hashHex) !== undefined;
  const account = await core.vm.stateManager.getAccount(sender);
  const stateNonce = account?.nonce ?? 0n;
  if (mined && tx.nonce < stateNonce) throw rejected(`nonce too low: address ${sender.toString()}, tx: ${tx.nonce} state: ${stateNonce}`);
  // A nonce set back by a test control would let it run twice under one hash.
  if (mined) throw rejected('already known');
  validateAdmission(tx, sender, {
    stateNonce,
    poolNonce: core.pool.nextNonce(sender, stateNonce),
    balance: account?.balance ?? 0n,
    blockGasLimit: core.blockGasLimit,
    nextBaseFee: core.nextBaseFee(),
    nextBlobGasPrice: undefined,
  });
  const automine = core.mining.automine;
  if (automine) {
    // What mining could still refuse, refused now: the answer goes out before the block is built.
    assertMinable(core.clock.peekNext(core.blocks.headTimestamp));
  }
  core.pool.add(tx, sender, hashHex);
  // On a fork the block is built before the answer, its misses deferred (remoteMiss.ts): a block that
  // needs a value the upstream has not sent yet takes the transaction back out of the pool, and the
  // send runs again once the value came. The answer still comes with the block in, as everywhere.
  const forked = core.state.remote !== undefined;
  if (!forked || !automine) core.hooks.emit('pendingTransaction', hashHex);
  if (automine && (awaitOutcome || forked)) {
    let outcome: Awaited<ReturnType<typeof mineExecutable>>;
    try {
      outcome = await mineExecutable(core);
    } catch (error) {
      if (error instanceof RemoteReadPending) core.pool.remove(hashHex);
      throw error;
    }
    if (forked) core.hooks.emit('pendingTransaction', hashHex);
    reportRefused(core, outcome.dropped);
    const failure = outcome.failures.get(hashHex);
    if (failure && awaitOutcome) throw new TransactionFailedError(hashHex, failure.error, failure.returnValue);
  } else if (automine) {
    // As Anvil does it: the client reads the hash while the server builds the block. Admission
    // checked everything the block builder checks, so a transaction it still refuses means a
    // check is missing there: reported as an internal error, not left unsaid.
    core.hooks.afterAnswer(async () => reportRefused(core, (await mineExecutable(core)).dropped));
  }
  return hashHex;
}
