/**
 * libsecp256k1 for everything chain-sim does on the curve: sender recovery, signing, and the
 * public keys of BIP-32 derivation. The `secp256k1` package's native addon where it ships a
 * prebuilt binary (Linux x64, macOS arm64, Windows x64; it loads without an install script),
 * else the same library compiled to WebAssembly (tiny-secp256k1, loaded only then: compiling
 * it took 21 ms of every start-up). In pure JavaScript (noble) recovery was a third of a
 * plain transfer's time, and signing took 0.7 ms of eth_sendTransaction's 2 ms.
 */
import { createRequire } from 'node:module';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import type * as TinySecp256k1 from 'tiny-secp256k1';

/** The curve operations, from one build of libsecp256k1. */
export interface Curve {
  /** The 65-byte uncompressed public key from a 64-byte signature (r ‖ s) and its recovery id; null when it recovers none. */
  recover(msgHash: Uint8Array, signature: Uint8Array, recovery: 0 | 1): Uint8Array | null;
  /** A deterministic (RFC 6979) low-s signature in noble's 'recovered' layout: recovery id ‖ r ‖ s. */
  sign(msgHash: Uint8Array, privateKey: Uint8Array): Uint8Array<ArrayBuffer>;
  publicKey(privateKey: Uint8Array, compressed: boolean): Uint8Array;
  /** 0 < key < n. */
  isPrivateKey(key: Uint8Array): boolean;
  /** (key + tweak) mod n, a new array; null when that is 0 or the tweak is not below n. */
  addPrivateKeys(key: Uint8Array, tweak: Uint8Array): Uint8Array | null;
}

interface NativeSecp256k1 {
  ecdsaRecover(signature: Uint8Array, recovery: number, msgHash: Uint8Array, compressed: boolean): Uint8Array;
  /** Throws for an invalid private key. */
  ecdsaSign(msgHash: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
  publicKeyCreate(privateKey: Uint8Array, compressed: boolean): Uint8Array;
  privateKeyVerify(privateKey: Uint8Array): boolean;
  /** Adds in place; throws when the result is invalid. */
  privateKeyTweakAdd(privateKey: Uint8Array, tweak: Uint8Array): Uint8Array;
}

const orNull = <T>(operation: () => T): T | null => {
  try {
    return operation();
  } catch {
    return null;
  }
};

function recoveredLayout(recovery: number, signature: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(65);
  out[0] = recovery;
  out.set(signature, 1);
  return out;
}

/** Recovery takes 0.06 ms there against 0.25 ms in WebAssembly; a public key 0.03 ms against 0.11. */
function loadNative(): Curve | undefined {
  let addon: NativeSecp256k1;
  try {
    addon = createRequire(import.meta.url)('secp256k1/bindings') as NativeSecp256k1;
  } catch {
    return undefined; // no prebuilt binary for this platform
  }
  return {
    recover: (msgHash, signature, recovery) => orNull(() => addon.ecdsaRecover(signature, recovery, msgHash, false)),
    sign: (msgHash, privateKey) => {
      const { signature, recid } = addon.ecdsaSign(msgHash, privateKey);
      return recoveredLayout(recid, signature);
    },
    publicKey: (privateKey, compressed) => addon.publicKeyCreate(privateKey, compressed),
    isPrivateKey: (key) => addon.privateKeyVerify(key),
    addPrivateKeys: (key, tweak) => orNull(() => addon.privateKeyTweakAdd(Uint8Array.from(key), tweak)),
  };
}

/** tiny-secp256k1's CommonJS build, so that it loads synchronously, and only when asked for. */
function loadWasm(): Curve {
  const tiny = createRequire(import.meta.url)('tiny-secp256k1') as typeof TinySecp256k1;
  return {
    recover: (msgHash, signature, recovery) => orNull(() => tiny.recover(msgHash, signature, recovery, false)),
    sign: (msgHash, privateKey) => {
      const { signature, recoveryId } = tiny.signRecoverable(msgHash, privateKey);
      return recoveredLayout(recoveryId, signature);
    },
    publicKey: (privateKey, compressed) => tiny.pointFromScalar(privateKey, compressed)!,
    isPrivateKey: (key) => tiny.isPrivate(key),
    addPrivateKeys: (key, tweak) => orNull(() => tiny.privateAdd(key, tweak)),
  };
}

let native: Curve | undefined | null = null;
let wasm: Curve | undefined;

/** Undefined where no native binary loads; loaded on first use. */
export function nativeCurve(): Curve | undefined {
  if (native === null) native = loadNative();
  return native;
}

export function wasmCurve(): Curve {
  wasm ??= loadWasm();
  return wasm;
}

/** The native build where it loads, else WebAssembly. */
export function curve(): Curve {
  return nativeCurve() ?? wasmCurve();
}

/**
 * Signing in noble's `sign` shape, for Common's `customCrypto` (transactions signed for
 * eth_sendTransaction): the same bytes noble gives without extra entropy. Requests this
 * does not serve (extra entropy, other formats, hashing first) go to noble.
 */
export const secp256k1Ecsign: typeof secp256k1.sign = (message, secretKey, opts) => {
  if (opts?.prehash === false && opts.format === 'recovered' && !opts.extraEntropy) return curve().sign(message, secretKey);
  return secp256k1.sign(message, secretKey, opts);
};

/**
 * Public-key recovery in @ethereumjs/util's `ecrecover` shape, for Common's `customCrypto`.
 * Returns the 64-byte uncompressed key without its 0x04 prefix.
 */
export function secp256k1Ecrecover(msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId?: bigint): Uint8Array {
  const recovery = recoveryId(v, chainId);
  if (recovery !== 0 && recovery !== 1) throw new Error('Invalid signature v value');
  const signature = new Uint8Array(64);
  signature.set(r.subarray(Math.max(0, r.length - 32)), 32 - Math.min(32, r.length));
  signature.set(s.subarray(Math.max(0, s.length - 32)), 64 - Math.min(32, s.length));
  const key = curve().recover(msgHash, signature, recovery);
  if (!key) throw new Error('Invalid signature');
  return key.subarray(1);
}

/** v → recovery id: 0/1 (typed transactions), 27/28, or EIP-155's chainId * 2 + 35/36. */
function recoveryId(v: bigint, chainId: bigint | undefined): number {
  if (v === 0n || v === 1n) return Number(v);
  if (chainId === undefined) return Number(v - 27n);
  return Number(v - (chainId * 2n + 35n));
}
