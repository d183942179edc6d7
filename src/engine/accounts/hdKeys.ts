/**
 * BIP-39 seeds and BIP-32 private-key derivation for the node's own accounts.
 *
 * @scure/bip32 and @scure/bip39 derive the same keys, but in pure JavaScript with
 * constant-time curve multiplication for every public key on the path: about 190 ms
 * for ten accounts, three quarters of creating a provider. Here PBKDF2, HMAC-SHA512 and
 * the public keys are node:crypto's (OpenSSL), the scalar arithmetic BigInt's: the CLI
 * derives its accounts before it listens, and loading libsecp256k1's native addon
 * (secp256k1.ts, for sender recovery and signing) cost about 4% of its start-up profile, so
 * that addon now loads with the first signature instead. Keys are test keys, so constant
 * time buys nothing here. test/engine/hdKeys.test.ts checks every result against @scure.
 */
import { createECDH, createHmac, pbkdf2Sync } from 'node:crypto';
import { clip } from '../util/clip.js';

/** The order of secp256k1's group. */
const N = 0xffff_ffff_ffff_ffff_ffff_ffff_ffff_fffe_baae_dce6_af48_a03b_bfd2_5e8c_d036_4141n;

const toBigInt = (bytes: Uint8Array): bigint => BigInt(`0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex') || '0'}`);
const toBytes32 = (value: bigint): Uint8Array => Uint8Array.from(Buffer.from(value.toString(16).padStart(64, '0'), 'hex'));

/** 0 < key < n, for a 32-byte key. */
function isPrivateKey(key: Uint8Array): boolean {
  if (key.length !== 32) return false;
  const value = toBigInt(key);
  return value > 0n && value < N;
}

/** The public key of a valid private key: 33 bytes compressed, else 65 (0x04 ‖ x ‖ y). */
export function publicKeyOf(privateKey: Uint8Array, compressed: boolean): Uint8Array {
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(privateKey);
  return new Uint8Array(ecdh.getPublicKey(undefined, compressed ? 'compressed' : 'uncompressed'));
}

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
  if (!isPrivateKey(privateKey)) throw new Error('BIP-32 derivation produced an invalid key; use another index');
  return { privateKey, chainCode: digest.subarray(32) };
}

export function masterKey(seed: Uint8Array): ExtendedKey {
  return split(createHmac('sha512', 'Bitcoin seed').update(seed).digest());
}

/** A parent's compressed public key, computed once for all its children (ten accounts: one key, not ten). */
const publicKeys = new WeakMap<ExtendedKey, Uint8Array>();

function compressedPublicKey(key: ExtendedKey): Uint8Array {
  let publicKey = publicKeys.get(key);
  if (!publicKey) publicKeys.set(key, (publicKey = publicKeyOf(key.privateKey, true)));
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
  // (key + tweak) mod n; a tweak of n or more, or a sum of 0, is an invalid child (BIP-32).
  const sum = isPrivateKey(tweak) ? (toBigInt(parent.privateKey) + toBigInt(tweak)) % N : 0n;
  const child = sum === 0n ? null : toBytes32(sum);
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
