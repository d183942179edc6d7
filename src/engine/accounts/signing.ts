import { keccak_256 } from '@noble/hashes/sha3.js';
import type { Address } from '@ethereumjs/util';
import type { AccountRegistry } from './accounts.js';
import { curve } from './secp256k1.js';

/** EIP-191 personal message digest: keccak256("\x19Ethereum Signed Message:\n" + len + message). */
export function personalMessageDigest(message: Uint8Array): Uint8Array {
  const prefix = new TextEncoder().encode(`\x19Ethereum Signed Message:\n${message.length}`);
  const payload = new Uint8Array(prefix.length + message.length);
  payload.set(prefix);
  payload.set(message, prefix.length);
  return keccak_256(payload);
}

/** Sign a 32-byte digest with an owned account's key: r ‖ s ‖ v, v = 27 + recovery, as go-ethereum returns. */
export function signDigest(accounts: Pick<AccountRegistry, 'signingKeyOf'>, address: Address, digest: Uint8Array): Uint8Array {
  const recovered = curve().sign(digest, accounts.signingKeyOf(address));
  const signature = new Uint8Array(65);
  signature.set(recovered.subarray(1, 65), 0);
  signature[64] = 27 + recovered[0]!;
  return signature;
}
