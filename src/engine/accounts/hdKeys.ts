/**
 * BIP-39 seeds and BIP-32 private-key derivation for the node's own accounts.
 *
 * @scure/bip32 and @scure/bip39 derive the same keys, but in pure JavaScript with
 * constant-time curve multiplication for every public key on the path: about 190 ms
 * for ten accounts, three quarters of creating a provider. Here PBKDF2 and HMAC-SHA512
 * are node:crypto's (OpenSSL) and the curve arithmetic libsecp256k1's (secp256k1.ts,
 * as for sender recovery). Keys are test keys, so constant time buys nothing here.
 * test/engine/hdKeys.test.ts checks every result against @scure.
 */
import { createHmac, pbkdf2Sync } from 'node:crypto';
import { curve } from './secp256k1.js';
import { clip } from '../util/clip.js';

/** A private key with its chain code (a BIP-32 extended private key without the metadata). */
export interface ExtendedKey {
  readonly privateKey: Uint8Array;
  readonly chainCode: Uint8Array;
}

const HARDENED = 0x8000_0000;

/** BIP-39: the 64-byte seed of a mnemonic (the mnemonic's checksum is checked elsewhere). */
export function mnemonicToSeed(mnemonic: string, passphrase = ''): Uint8Array {
  return pbkdf2Sync(mnemonic.normalize('NFKD'), `mnemonic${passphrase}`.normalize('NFKD'), 2048, 64, 'sha512');
}

function split(digest: Uint8Array): ExtendedKey {
  const privateKey = digest.subarray(0, 32);
  // BIP-32: a key of 0 or >= n is invalid (probability below 2^-127).
  if (!curve().isPrivateKey(privateKey)) throw new Error('BIP-32 derivation produced an invalid key; use another index');
  return { privateKey, chainCode: digest.subarray(32) };
}

export function masterKey(seed: Uint8Array): ExtendedKey {
  return split(createHmac('sha512', 'Bitcoin seed').update(seed).digest());
}

/** A parent's compressed public key, computed once for all its children (ten accounts: one key, not ten). */
const publicKeys = new WeakMap<ExtendedKey, Uint8Array>();

function compressedPublicKey(key: ExtendedKey): Uint8Array {
  let publicKey = publicKeys.get(key);
  if (!publicKey) publicKeys.set(key, (publicKey = curve().publicKey(key.privateKey, true)));
  return publicKey;
}

/** CKDpriv: hardened indexes (>= 2^31) hash the private key, others the compressed public key. */
export function deriveChild(parent: ExtendedKey, index: number): ExtendedKey {
  const data = new Uint8Array(37);
  if (index >= HARDENED) data.set(parent.privateKey, 1);
  else data.set(compressedPublicKey(parent), 0);
  new DataView(data.buffer).setUint32(33, index);
  const digest = createHmac('sha512', parent.chainCode).update(data).digest();
  const tweak = digest.subarray(0, 32);
  const child = curve().isPrivateKey(tweak) ? curve().addPrivateKeys(parent.privateKey, tweak) : null;
  if (!child) throw new Error(`BIP-32 derivation produced an invalid key at index ${index}; use another index`);
  return { privateKey: child, chainCode: digest.subarray(32) };
}

/** Indexes of a path such as m/44'/60'/0'/0 (' or h marks a hardened index). */
export function parsePath(path: string): number[] {
  const parts = path.split('/');
  if (parts[0] !== 'm' && parts[0] !== 'M') throw new Error(`derivation path "${clip(path)}" must start with m`);
  return parts.slice(1).map((part) => {
    const match = /^(\d{1,10})(['hH]?)$/.exec(part);
    const index = match ? Number(match[1]) : NaN;
    if (!match || index >= HARDENED) throw new Error(`derivation path "${clip(path)}": "${clip(part)}" is not an index below 2^31`);
    return match[2] ? index + HARDENED : index;
  });
}

export function derivePath(seed: Uint8Array, path: string): ExtendedKey {
  return parsePath(path).reduce(deriveChild, masterKey(seed));
}
