/**
 * EIP-7702 authorizations as requests carry them (eth_sendTransaction, eth_call, eth_estimateGas):
 * each becomes the tuple a type-4 transaction holds. A tuple without a signature is signed here
 * when its authority is one of the node's own keys (chain_signAuthorization signs one alone);
 * anything else is refused by name, never dropped.
 */
import { type Address, type EOACode7702AuthorizationListBytesItem, bigIntToUnpaddedBytes, eoaCode7702SignAuthorization } from '@ethereumjs/util';
import type { AccountRegistry } from '../accounts/accounts.js';
import { EngineError } from '../util/errors.js';

export interface AuthorizationRequest {
  readonly chainId: bigint;
  readonly address: Address;
  readonly nonce: bigint;
  /** Signed: yParity, r and s; unsigned: `authority` names the owned account to sign it with. */
  readonly signature?: { readonly yParity: bigint; readonly r: bigint; readonly s: bigint };
  readonly authority?: Address;
}

/** The signed tuple, in the transaction's byte form. */
export function authorizationTuple(
  request: AuthorizationRequest,
  accounts: Pick<AccountRegistry, 'privateKeyOf'>,
  index: number,
): EOACode7702AuthorizationListBytesItem {
  const unsigned = [bigIntToUnpaddedBytes(request.chainId), request.address.bytes, bigIntToUnpaddedBytes(request.nonce)] as const;
  if (request.signature) {
    const { yParity, r, s } = request.signature;
    return [...unsigned, bigIntToUnpaddedBytes(yParity), bigIntToUnpaddedBytes(r), bigIntToUnpaddedBytes(s)];
  }
  if (!request.authority) {
    throw new EngineError(
      'invalidInput',
      `authorizationList[${index}] has no signature (yParity, r, s) and no authority (an account of this node to sign it with)`,
    );
  }
  const key = accounts.privateKeyOf(request.authority);
  if (!key)
    throw new EngineError(
      'invalidInput',
      `authorizationList[${index}]: unknown account ${request.authority.toString()} (the node can sign only for its own accounts)`,
    );
  return eoaCode7702SignAuthorization([...unsigned], key);
}
