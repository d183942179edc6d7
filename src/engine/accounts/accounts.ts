import { validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { Address, createAddressFromString } from '@ethereumjs/util';
import { keccak256 } from '../util/keccak256.js';
import { rejected } from '../util/errors.js';
import { AccountLocks } from './accountLocks.js';
import { deriveChild, derivePath, mnemonicToSeed, publicKeyOf } from './hdKeys.js';

export interface OwnedAccount {
  readonly address: Address;
  readonly privateKey: Uint8Array;
}

export const DEFAULT_DERIVATION_PATH = "m/44'/60'/0'/0";

/** BIP-39 seed → BIP-32 keys at `${path}/i`, as Ganache, Hardhat and Anvil derive them. */
export function deriveAccounts(mnemonic: string, count: number, path = DEFAULT_DERIVATION_PATH): OwnedAccount[] {
  if (!validateMnemonic(mnemonic, wordlist)) throw new Error('invalid BIP-39 mnemonic');
  const parent = derivePath(mnemonicToSeed(mnemonic), path);
  const accounts: OwnedAccount[] = [];
  for (let i = 0; i < count; i++) {
    const { privateKey } = deriveChild(parent, i);
    accounts.push({ address: addressOfKey(privateKey), privateKey });
  }
  return accounts;
}

/**
 * The address of a private key: the last 20 bytes of keccak256 of its uncompressed public key.
 * The public key is OpenSSL's (hdKeys.ts): @ethereumjs/util's createAddressFromPrivateKey goes
 * through noble's constant-time JavaScript multiplication, and a Hardhat 3 connection's twenty
 * keyed accounts spent most of their first request there. Hashed on the engine's WebAssembly
 * Keccak: noble's JavaScript one is still cold at start-up (its first ten hashes took 34-43 ms
 * on the shared machine under load, WebAssembly's 0.5 ms).
 */
export function addressOfKey(privateKey: Uint8Array): Address {
  return new Address(keccak256(publicKeyOf(privateKey, false).subarray(1)).subarray(12));
}

/** Who the node may send for: owned keys (sign) and impersonated addresses (no signature). */
export class AccountRegistry {
  private readonly owned = new Map<string, OwnedAccount>();
  private readonly impersonated = new Set<string>();
  /** Addresses the node sends for without a key once unlocked (Ganache's evm_addAccount). */
  private readonly keyless = new Set<string>();
  /** Passphrases and locked states (personal_* methods); accounts present at start are unlocked. */
  readonly locks = new AccountLocks();
  /** Anvil's auto-impersonation: every address may send without a signature. */
  impersonateAll = false;

  constructor(accounts: readonly OwnedAccount[]) {
    for (const account of accounts) this.owned.set(account.address.toString(), account);
  }

  list(): Address[] {
    return [...this.owned.values()].map((a) => a.address);
  }

  privateKeyOf(address: Address): Uint8Array | undefined {
    return this.owned.get(address.toString())?.privateKey;
  }

  /** eth_accounts: the owned accounts, then the keyless ones (evm_addAccount). */
  addresses(): Address[] {
    return [...this.list(), ...[...this.keyless].map((text) => createAddressFromString(text))];
  }

  /** Whether the node holds `address` (owned or keyless), whatever its lock. */
  holds(address: Address): boolean {
    const text = address.toString();
    return this.owned.has(text) || this.keyless.has(text);
  }

  /**
   * The key that signs for `address`; go-ethereum's errors when the node holds none or the
   * account is locked. A correct `passphrase` (personal_signTransaction) opens a locked one.
   */
  signingKeyOf(address: Address, passphrase?: string): Uint8Array {
    const key = this.privateKeyOf(address);
    if (!key) throw rejected(`unknown account ${address.toString()}`);
    this.assertOpen(address.toString(), passphrase);
    return key;
  }

  /**
   * How a send from `address` is made: with its key, or 'unsigned' (impersonated, or an
   * unlocked keyless account). A correct `passphrase` (personal_sendTransaction) opens a locked account.
   */
  senderKeyOf(address: Address, passphrase?: string): Uint8Array | 'unsigned' {
    const text = address.toString();
    if (!this.holds(address)) {
      if (passphrase !== undefined) throw rejected('no key for given address or file');
      if (this.isImpersonated(address)) return 'unsigned';
      throw rejected(`unknown account ${text}`);
    }
    if (passphrase !== undefined || !this.isImpersonated(address)) this.assertOpen(text, passphrase);
    return this.owned.get(text)?.privateKey ?? 'unsigned';
  }

  private assertOpen(address: string, passphrase: string | undefined): void {
    if (passphrase !== undefined) this.locks.check(address, passphrase);
    else if (this.locks.isLocked(address)) throw rejected('authentication needed: passphrase or unlock');
  }

  addOwned(account: OwnedAccount): void {
    this.owned.set(account.address.toString(), account);
  }

  /** Ganache's evm_addAccount: false if the node holds the address already. */
  addKeyless(address: Address, passphrase: string): boolean {
    if (this.holds(address)) return false;
    this.keyless.add(address.toString());
    this.locks.addLocked(address.toString(), passphrase);
    return true;
  }

  /** A new owned account, locked with `passphrase` (personal_newAccount, personal_importRawKey); false if held already. */
  addLocked(account: OwnedAccount, passphrase: string): boolean {
    if (this.holds(account.address)) return false;
    this.addOwned(account);
    this.locks.addLocked(account.address.toString(), passphrase);
    return true;
  }

  /** Ganache's evm_removeAccount: the passphrase must match; false for an address the node does not hold. */
  remove(address: Address, passphrase: string): boolean {
    const text = address.toString();
    if (!this.holds(address)) return false;
    this.locks.check(text, passphrase);
    this.owned.delete(text);
    this.keyless.delete(text);
    this.locks.forget(text);
    return true;
  }

  impersonate(address: Address): void {
    this.impersonated.add(address.toString());
  }

  stopImpersonating(address: Address): boolean {
    return this.impersonated.delete(address.toString());
  }

  stopAllImpersonation(): void {
    this.impersonated.clear();
    this.impersonateAll = false;
  }

  /** The addresses impersonated one by one, in the order they were (auto-impersonation is `impersonateAll`). */
  impersonatedAddresses(): Address[] {
    return [...this.impersonated].map((text) => createAddressFromString(text));
  }

  isImpersonated(address: Address): boolean {
    return this.impersonateAll || this.impersonated.has(address.toString());
  }
}
