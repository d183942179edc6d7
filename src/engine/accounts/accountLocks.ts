/**
 * Ganache's and go-ethereum's personal-account model: each account the node holds has a
 * passphrase and is locked or unlocked (until a time, or for good). Accounts present at
 * start have the passphrase "" and are unlocked; accounts made by personal_newAccount,
 * personal_importRawKey and evm_addAccount start locked. A locked account cannot send or
 * sign until personal_unlockAccount, or a personal_* call that names its passphrase.
 */
import { rejected } from '../util/errors.js';

export class AccountLocks {
  private readonly passphrases = new Map<string, string>();
  /** Address → until when (ms, wall clock) it is unlocked; absent: unlocked for good unless in `locked`. */
  private readonly unlockedUntil = new Map<string, number>();
  private readonly locked = new Set<string>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A new account with its passphrase, locked (personal_newAccount, personal_importRawKey, evm_addAccount). */
  addLocked(address: string, passphrase: string): void {
    this.passphrases.set(address, passphrase);
    this.locked.add(address);
    this.unlockedUntil.delete(address);
  }

  forget(address: string): void {
    this.passphrases.delete(address);
    this.locked.delete(address);
    this.unlockedUntil.delete(address);
  }

  isLocked(address: string): boolean {
    if (!this.locked.has(address)) return false;
    const until = this.unlockedUntil.get(address);
    if (until === undefined) return true;
    if (until > this.now()) return false;
    this.unlockedUntil.delete(address);
    return true;
  }

  /** Throws go-ethereum's error unless `passphrase` is the account's ("" for accounts present at start). */
  check(address: string, passphrase: string): void {
    if ((this.passphrases.get(address) ?? '') !== passphrase) throw rejected('could not decrypt key with given passphrase');
  }

  /** Unlocked for `seconds` (0: until locked again), as personal_unlockAccount. */
  unlock(address: string, passphrase: string, seconds: number): void {
    this.check(address, passphrase);
    if (seconds === 0) {
      this.locked.delete(address);
      this.unlockedUntil.delete(address);
    } else {
      this.locked.add(address);
      this.unlockedUntil.set(address, this.now() + seconds * 1000);
    }
  }

  lock(address: string): void {
    this.locked.add(address);
    this.unlockedUntil.delete(address);
  }
}
