// Deterministic accounts (the shared mnemonic) and offline signing. Signed
// transactions are memoised: every target starts from the same genesis and
// runs the same workloads, so the same nonces recur and each raw transaction
// is signed once per run instead of once per target.
import { HDNodeWallet, Mnemonic, SigningKey, Transaction } from 'ethers';

export interface Account {
  readonly address: string;
  readonly key: SigningKey;
}

export function deriveAccounts(mnemonic: string, count: number): Account[] {
  const root = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(mnemonic), "m/44'/60'/0'/0");
  return Array.from({ length: count }, (_, i) => {
    const wallet = root.deriveChild(i);
    return { address: wallet.address, key: new SigningKey(wallet.privateKey) };
  });
}

export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export interface TxFields {
  /** null for contract creation. */
  to: string | null;
  nonce: number;
  gasLimit: bigint;
  value?: bigint;
  data?: string;
  fees: Fees;
}

export class TxSigner {
  private readonly cache = new Map<string, string>();

  constructor(private readonly chainId: bigint) {}

  /** EIP-1559 transaction, serialised and ready for eth_sendRawTransaction. */
  sign(from: Account, fields: TxFields): string {
    const key = JSON.stringify([from.address, fields], (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const tx = Transaction.from({
      type: 2,
      chainId: this.chainId,
      nonce: fields.nonce,
      to: fields.to,
      value: fields.value ?? 0n,
      data: fields.data ?? '0x',
      gasLimit: fields.gasLimit,
      maxFeePerGas: fields.fees.maxFeePerGas,
      maxPriorityFeePerGas: fields.fees.maxPriorityFeePerGas,
    });
    tx.signature = from.key.sign(tx.unsignedHash);
    const raw = tx.serialized;
    this.cache.set(key, raw);
    return raw;
  }
}
