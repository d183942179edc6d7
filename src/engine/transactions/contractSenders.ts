/**
 * Senders with code. EIP-3607 makes a transaction from an account with code invalid, and
 * ethereumjs' runTx enforces it with no way around. Yet Hardhat and Anvil let an
 * impersonated contract (a multisig, a token's owner) send, and go-ethereum's eth_call and
 * estimateGas take any `from`. No signed transaction can come from a contract (nobody holds
 * its key), so a sender with code here is always one of those cases.
 *
 * runTx reads the sender's account once, checks it, then writes it back (fee and nonce). So
 * for one transaction, the state manager answers that first read with the account as if it
 * had no code, and puts the real code hash back into the account when it is written. The
 * contract keeps its code throughout: a call back into it during the transaction runs it.
 */
import type { StateManagerInterface } from '@ethereumjs/common';
import { Account, type Address, KECCAK256_NULL, equalsBytes } from '@ethereumjs/util';

/** An EIP-7702 delegation designator: ethereumjs lets such an EOA send by itself. */
const DELEGATION_PREFIX = Uint8Array.of(0xef, 0x01, 0x00);

type AccountMethods = Pick<StateManagerInterface, 'getAccount' | 'putAccount'>;

/**
 * Prepares `state` for one transaction from `sender` when the sender has code (nothing
 * otherwise); returns the function that ends it, to call once the transaction has run.
 */
export async function letContractSend(state: StateManagerInterface, sender: Address): Promise<() => void> {
  const account = await state.getAccount(sender);
  if (!account || equalsBytes(account.codeHash, KECCAK256_NULL)) return () => {};
  const code = await state.getCode(sender);
  if (code.length === 23 && equalsBytes(code.subarray(0, 3), DELEGATION_PREFIX)) return () => {};

  const realCodeHash = account.codeHash;
  // Own properties shadow the prototype's methods; deleting them restores those.
  const instance = state as AccountMethods;
  const { getAccount, putAccount } = instance;
  let checked = false;
  const end = (): void => {
    delete (instance as Partial<AccountMethods>).getAccount;
    delete (instance as Partial<AccountMethods>).putAccount;
  };
  instance.getAccount = async (address) => {
    const found = await getAccount.call(state, address);
    if (checked || !found || !address.equals(sender)) return found;
    checked = true;
    return new Account(found.nonce, found.balance, found.storageRoot, KECCAK256_NULL);
  };
  instance.putAccount = async (address, value) => {
    if (value && address.equals(sender)) {
      value.codeHash = realCodeHash;
      end();
    }
    return putAccount.call(state, address, value);
  };
  return end;
}
