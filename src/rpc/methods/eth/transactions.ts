/**
 * Sending transactions (EIP-7966's synchronous sends among them), filling them, signing with the
 * node's owned accounts (EIP-7702 authorizations too), and the node's own pending transactions.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import { bytesToBigInt } from '@ethereumjs/util';
import { personalMessageDigest, signDigest } from '../../../engine/accounts/signing.js';
import type { Chain } from '../../../engine/chain.js';
import { authorizationTuple } from '../../../engine/transactions/authorizations.js';
import { keccak256 } from '../../../engine/util/keccak256.js';
import { sendOptionsOf } from '../../clientRules.js';
import { address, callRequest, data, uint64, unsignedAuthorization } from '../../codec.js';
import { encodeData, encodeQuantity } from '../../encode.js';
import { RpcError, invalidParams } from '../../errors.js';
import { formatReceipt, formatTransaction } from '../../format.js';
import type { Json } from '../../json.js';
import { defineMethod, optionalParam, param } from '../../method.js';
import { parseTypedData, TypedDataError, typedDataDigest } from '../../typedData.js';

/** The digest eth_signTypedData_v4 signs; bad typed data is -32602 naming the field. */
const typedData = (value: unknown, path: string): Uint8Array => {
  try {
    return typedDataDigest(parseTypedData(value));
  } catch (error) {
    if (error instanceof TypedDataError) throw invalidParams(`invalid argument ${path}: ${error.message}`);
    // A recursive struct type with a message nested deeper than the stack allows.
    if (error instanceof RangeError) throw invalidParams(`invalid argument ${path}: typed data nested too deeply`);
    throw error;
  }
};

/** EIP-7966's default wait, and the longest a caller may ask for. */
const DEFAULT_SYNC_TIMEOUT_MS = 2_000n;
const MAX_SYNC_TIMEOUT_MS = 60_000n;

/** Wait until `hashHex` is mined (or `timeoutMs` pass) and answer its receipt (EIP-7966). */
async function receiptWhenMined(chain: Chain, hashHex: string, limit: bigint): Promise<Json> {
  const receipt = (): Json | undefined => {
    const found = chain.transaction(hashHex);
    return found ? formatReceipt(found.mined, found.index) : undefined;
  };
  await chain.settling;
  const now = receipt();
  if (now !== undefined) return now;
  return new Promise<Json>((resolve, reject) => {
    const onBlock = () => {
      const mined = receipt();
      if (mined === undefined) return;
      clearTimeout(timer);
      chain.off('block', onBlock);
      resolve(mined);
    };
    const timer = setTimeout(() => {
      chain.off('block', onBlock);
      // EIP-7966: code 4, the hash as data: the transaction stays in the pool.
      reject(new RpcError(4, `The transaction was added to the mempool but wasn't processed within ${limit}ms.`, hashHex));
    }, Number(limit));
    chain.on('block', onBlock);
  });
}

/** Milliseconds: a JSON number (viem sends one) or a quantity. */
const milliseconds = (value: unknown, path: string): bigint => {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw invalidParams(`invalid argument ${path}: expected milliseconds, got ${value}`);
    return BigInt(value);
  }
  return uint64(value, path);
};
/** An unsigned transaction as go-ethereum marshals it: v, r and s 0. */
function formatUnsigned(tx: TypedTransaction): Record<string, Json> {
  const json = tx.toJSON() as Record<string, Json | undefined>;
  const out: Record<string, Json> = {
    type: encodeQuantity(tx.type),
    nonce: encodeQuantity(tx.nonce),
    gas: encodeQuantity(tx.gasLimit),
    to: tx.to ? tx.to.toString() : null,
    value: encodeQuantity(tx.value),
    input: encodeData(tx.data),
  };
  for (const key of ['gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas', 'chainId'] as const) {
    const value = json[key];
    if (typeof value === 'string') out[key] = encodeQuantity(BigInt(value));
  }
  if (json.accessList !== undefined) out.accessList = json.accessList as Json;
  out.v = '0x0';
  out.r = '0x0';
  out.s = '0x0';
  return out;
}

const timeoutParam = optionalParam('timeout', (value, path) => {
  const ms = milliseconds(value, path);
  if (ms > MAX_SYNC_TIMEOUT_MS) throw invalidParams(`invalid argument ${path}: at most ${MAX_SYNC_TIMEOUT_MS} ms`);
  return ms;
});

export const transactionMethods = [
  // chain-sim's own names answer the hash for every client: a failure shows as the receipt's status 0.
  defineMethod('chain_sendRawTransaction', [param('signedTransaction', data)], ({ chain }, raw) => chain.submitRawTransaction(raw)),
  defineMethod('chain_sendTransaction', [param('transaction', callRequest)], ({ chain }, request) => chain.sendTransaction(request)),
  // The eth_ names answer as the client's tool does (clientRules.ts): the hash, as go-ethereum and
  // Anvil; for Hardhat's clients, once the block is in, and a failure as Hardhat's error (hardhatErrors.ts).
  defineMethod('eth_sendRawTransaction', [param('signedTransaction', data)], ({ chain, rules }, raw) => chain.submitRawTransaction(raw, sendOptionsOf(rules))),
  defineMethod('eth_sendTransaction', [param('transaction', callRequest)], ({ chain, rules }, request) => chain.sendTransaction(request, sendOptionsOf(rules))),
  defineMethod(
    { name: 'chain_sendUnsignedTransaction', aliases: ['eth_sendUnsignedTransaction'] },
    [param('transaction', callRequest)],
    async ({ chain }, request) => chain.sendUnsignedTransaction(request),
  ),
  defineMethod({ name: 'chain_signTransaction', aliases: ['eth_signTransaction'] }, [param('transaction', callRequest)], async ({ chain }, request) =>
    encodeData(await chain.signTransaction(request)),
  ),
  defineMethod({ name: 'chain_sign', aliases: ['eth_sign'] }, [param('address', address), param('message', data)], ({ chain }, who, message) =>
    encodeData(signDigest(chain.accounts, who, personalMessageDigest(message))),
  ),
  defineMethod(
    { name: 'chain_signTypedData_v4', aliases: ['eth_signTypedData_v4', 'eth_signTypedData'] },
    [param('address', address), param('typedData', typedData)],
    ({ chain }, who, digest) => encodeData(signDigest(chain.accounts, who, digest)),
  ),
  // An EIP-7702 authorization signed with one of the node's keys, as a signed authorizationList entry.
  defineMethod(
    { name: 'chain_signAuthorization', aliases: ['eth_signAuthorization'] },
    [param('authorization', unsignedAuthorization), optionalParam('authority', address)],
    ({ chain }, request, authority) => {
      const signer = authority ?? request.authority;
      if (!signer) throw invalidParams('invalid argument 0 (authorization): name the signing account as "authority" (or as the second argument)');
      const tuple = authorizationTuple({ ...request, signature: undefined, authority: signer }, chain.accounts, 0);
      const [chainId, , nonce, yParity, r, s] = tuple.map((bytes) => bytesToBigInt(bytes));
      return {
        chainId: encodeQuantity(chainId!),
        address: encodeData(tuple[1]),
        nonce: encodeQuantity(nonce!),
        yParity: encodeQuantity(yParity!),
        r: encodeQuantity(r!),
        s: encodeQuantity(s!),
      };
    },
  ),
  // go-ethereum's eth_fillTransaction: the unsigned transaction with nonce, gas, fees and chain id filled (viem tries it first).
  defineMethod('eth_fillTransaction', [param('transaction', callRequest)], async ({ chain }, request) => {
    const tx = await chain.completeTransaction(request);
    const raw = tx.serialize();
    const json: Record<string, Json> = { ...formatUnsigned(tx), hash: encodeData(keccak256(raw)) };
    return { raw: encodeData(raw), tx: json };
  }),
  defineMethod('eth_sendRawTransactionSync', [param('signedTransaction', data), timeoutParam], async ({ chain }, raw, timeout) =>
    receiptWhenMined(chain, await chain.submitRawTransaction(raw), timeout ?? DEFAULT_SYNC_TIMEOUT_MS),
  ),
  defineMethod('eth_sendTransactionSync', [param('transaction', callRequest), timeoutParam], async ({ chain }, request, timeout) =>
    receiptWhenMined(chain, await chain.sendTransaction(request), timeout ?? DEFAULT_SYNC_TIMEOUT_MS),
  ),
  // Pool transactions sent by the node's own accounts (go-ethereum's eth_pendingTransactions).
  defineMethod({ name: 'chain_pendingTransactions', aliases: ['eth_pendingTransactions'] }, [], async ({ chain }) => {
    const { pending, queued } = await chain.poolContent();
    return [...pending, ...queued].filter((e) => chain.accounts.privateKeyOf(e.sender) !== undefined).map((e) => formatTransaction(e.tx, e.sender, undefined));
  }),
];
