/**
 * A balance is a uint256, and arithmetic on it wraps modulo 2^256, as go-ethereum's
 * (`uint256.Int.Add` in `StateDB.AddBalance`, for value transfers, the coinbase's fees and a
 * SELFDESTRUCT's payout alike). @ethereumjs/evm checks a call's value transfer (it fails the
 * call with `value overflow`) but runTx credits the coinbase, and the interpreter a
 * SELFDESTRUCT's beneficiary, with a plain `balance +=`: an account holding 2^256-1 could be
 * pushed past 2^256, after which BALANCE fails in every call (its value no longer fits 32
 * bytes) and a dump of the state cannot be loaded back.
 *
 * Every one of those writes goes through the `balance` setter of @ethereumjs/util's Account,
 * whatever state manager holds the account (the chain's, a call's copy, a pending block's),
 * so the rule is applied there, once: a value past 2^256-1 is stored modulo 2^256.
 */
import { Account } from '@ethereumjs/util';

const UINT256_MASK = (1n << 256n) - 1n;

let installed = false;

export function installUint256Balances(): void {
  if (installed) return;
  const descriptor = Object.getOwnPropertyDescriptor(Account.prototype, 'balance');
  if (!descriptor?.get || !descriptor.set) throw new Error('@ethereumjs/util Account has no balance accessor to bound (was the library upgraded?)');
  const { get, set } = descriptor;
  Object.defineProperty(Account.prototype, 'balance', {
    ...descriptor,
    get,
    set(this: Account, value: bigint) {
      set.call(this, value > UINT256_MASK ? value & UINT256_MASK : value);
    },
  });
  installed = true;
}
