import { validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { Address } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { rejected } from './errors.js';
import { deriveChild, derivePath, mnemonicToSeed } from './hdKeys.js';
import { curve } from './secp256k1.js';

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
    accounts.push({ address: addressOf(privateKey), privateKey });
  }
  return accounts;
}

/** The address of a private key: the last 20 bytes of keccak256 of its uncompressed public key. */
function addressOf(privateKey: Uint8Array): Address {
  return new Address(keccak_256(curve().publicKey(privateKey, false).subarray(1)).subarray(12));
}

/** Who the node may send for: owned keys (sign) and impersonated addresses (no signature). */
export class AccountRegistry {
  private readonly owned = new Map<string, OwnedAccount>();
  private readonly impersonated = new Set<string>();
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

  /** The key that signs for `address`; go-ethereum's error when the node holds none. */
  signingKeyOf(address: Address): Uint8Array {
    const key = this.privateKeyOf(address);
    if (!key) throw rejected(`unknown account ${address.toString()}`);
    return key;
  }

  addOwned(account: OwnedAccount): void {
    this.owned.set(account.address.toString(), account);
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

  isImpersonated(address: Address): boolean {
    return this.impersonateAll || this.impersonated.has(address.toString());
  }
}
