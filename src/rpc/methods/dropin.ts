/**
 * Methods other tools' users call that chain-sim serves as those tools answer them: EIP-7702
 * authorizations signed with the node's keys, wallet-era names (eth_requestAccounts,
 * eth_networkId, EIP-7966's synchronous sends) and Anvil's account and node helpers.
 * docs/methods.md lists them.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import { bytesToBigInt } from '@ethereumjs/util';
import { keccak256 } from '../../engine/util/keccak256.js';
import { encodeData, encodeQuantity } from '../encode.js';
import { authorizationTuple } from '../../engine/transactions/authorizations.js';
import type { Chain } from '../../engine/chain.js';
import { address, callRequest, data, uint256, uint64, unsignedAuthorization } from '../codec.js';
import { RpcError, invalidParams } from '../errors.js';
import { formatBlock, formatReceipt } from '../format.js';
import type { Json } from '../json.js';
import { defineMethod, optionalParam, param } from '../method.js';

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

export const dropinMethods = [
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
  defineMethod('eth_requestAccounts', [], ({ chain }) => chain.accounts.list().map((a) => a.toString())),
  defineMethod('eth_networkId', [], ({ chain }) => chain.chainId.toString()),
  defineMethod('eth_sendRawTransactionSync', [param('signedTransaction', data), timeoutParam], async ({ chain }, raw, timeout) =>
    receiptWhenMined(chain, await chain.submitRawTransaction(raw), timeout ?? DEFAULT_SYNC_TIMEOUT_MS),
  ),
  defineMethod('eth_sendTransactionSync', [param('transaction', callRequest), timeoutParam], async ({ chain }, request, timeout) =>
    receiptWhenMined(chain, await chain.sendTransaction(request), timeout ?? DEFAULT_SYNC_TIMEOUT_MS),
  ),
  defineMethod('anvil_addBalance', [param('address', address), param('amount', uint256)], async ({ chain }, who, amount) => {
    const balance = await chain.getBalance(who, { tag: 'latest' });
    if (balance + amount >= 2n ** 256n) throw invalidParams('invalid argument 1 (amount): the balance would exceed 2^256-1');
    await chain.modifyAccount(who, { balance: balance + amount });
    return null;
  }),
  defineMethod('anvil_getGenesisTime', [], ({ chain }) => Number(chain.resolve({ number: 0n }).block.header.timestamp)),
  // Anvil answers seconds, or null without interval mining.
  defineMethod('anvil_getIntervalMining', [], ({ chain }) => (chain.intervalMs === undefined ? null : Math.max(1, Math.round(chain.intervalMs / 1000)))),
  defineMethod('anvil_nodeInfo', [], ({ chain }) => {
    const head = chain.head;
    return {
      currentBlockNumber: Number(head.number),
      currentBlockTimestamp: Number(head.block.header.timestamp),
      currentBlockHash: head.hashHex,
      hardFork: chain.nextBlockCommon().hardfork(),
      transactionOrder: chain.poolOrder,
      environment: {
        baseFee: Number(chain.nextBaseFee() ?? 0n),
        chainId: Number(chain.chainId),
        gasLimit: Number(chain.blockGasLimit),
        gasPrice: Number((chain.nextBaseFee() ?? 0n) + 1_000_000_000n),
      },
      forkConfig: {},
    };
  }),
  // evm_mine / anvil_mine that answer the blocks they mined, with their transactions (Anvil).
  ...(['anvil_mine_detailed', 'evm_mine_detailed'] as const).map((name) =>
    defineMethod(name, [optionalParam('timestamp', uint64)], async ({ chain }, timestamp) => {
      const before = chain.head.number;
      await chain.mineMany(1n, undefined, timestamp === 0n ? undefined : timestamp);
      const mined: Json[] = [];
      for (let n = before + 1n; n <= chain.head.number; n++) mined.push(formatBlock(chain.resolve({ number: n }), true));
      return mined;
    }),
  ),
];
