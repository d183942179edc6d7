import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { Address, createAddressFromPrivateKey } from '@ethereumjs/util';

export interface OwnedAccount {
  readonly address: Address;
  readonly privateKey: Uint8Array;
}

export const DEFAULT_DERIVATION_PATH = "m/44'/60'/0'/0";

/** BIP-39 seed → BIP-32 keys at `${path}/i`, as Ganache, Hardhat and Anvil derive them. */
export function deriveAccounts(mnemonic: string, count: number, path = DEFAULT_DERIVATION_PATH): OwnedAccount[] {
  if (!validateMnemonic(mnemonic, wordlist)) throw new Error('invalid BIP-39 mnemonic');
  const parent = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic)).derive(path);
  const accounts: OwnedAccount[] = [];
  for (let i = 0; i < count; i++) {
    const privateKey = parent.deriveChild(i).privateKey;
    if (!privateKey) throw new Error(`no private key at ${path}/${i}`);
    accounts.push({ address: createAddressFromPrivateKey(privateKey), privateKey });
  }
  return accounts;
}

/** Who the node may send for: owned keys (sign) and impersonated addresses (no signature). */
export class AccountRegistry {
  private readonly owned = new Map<string, OwnedAccount>();
  private readonly impersonated = new Set<string>();

  constructor(accounts: readonly OwnedAccount[]) {
    for (const account of accounts) this.owned.set(account.address.toString(), account);
  }

  list(): Address[] {
    return [...this.owned.values()].map((a) => a.address);
  }

  privateKeyOf(address: Address): Uint8Array | undefined {
    return this.owned.get(address.toString())?.privateKey;
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
  }

  isImpersonated(address: Address): boolean {
    return this.impersonated.has(address.toString());
  }
}
