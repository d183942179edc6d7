/**
 * The checks of Hardhat 2's `networks.hardhat` fields: each value chain-sim takes is read (and a
 * value it cannot take refused, naming the field), and the fields it cannot honour are refused
 * when the project sets them. Light on purpose (no engine, no key derivation): the plugin runs
 * these while Hardhat creates its runtime, for every task, so that a refusal stops Hardhat at
 * once with one message; the mapping itself (networkConfig.ts) waits for the first request.
 */
import type { HardhatHDAccountsUserConfig, HardhatNetworkConfig, HardhatNetworkUserConfig } from './types.js';

/** The block beneficiary of Hardhat's network when `coinbase` is not set (hardhat-network/provider/provider.js). */
export const HARDHAT_DEFAULT_COINBASE = '0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e';

/** A field of `networks.hardhat` chain-sim cannot honour, or a value it cannot take. */
export class HardhatConfigError extends Error {
  constructor(
    /** The field under the network's config, e.g. `minGasPrice` or `accounts.mnemonic`. */
    readonly field: string,
    readonly problem: string,
    /** The network (Hardhat 2's simulated network is always `hardhat`; Hardhat 3 names its own). */
    readonly network = 'hardhat',
  ) {
    super(`networks.${network}.${field}: ${problem}`);
    this.name = 'HardhatConfigError';
  }
}

/** Hardhat 2's hardfork names in order (hardhat/internal/util/hardforks.js); `merge` is ethereumjs' `paris`. */
const HARDHAT_HARDFORKS = [
  'chainstart',
  'homestead',
  'dao',
  'tangerineWhistle',
  'spuriousDragon',
  'byzantium',
  'constantinople',
  'petersburg',
  'istanbul',
  'muirGlacier',
  'berlin',
  'london',
  'arrowGlacier',
  'grayGlacier',
  'merge',
  'shanghai',
  'cancun',
  'prague',
  'osaka',
];

/** Whether `hardfork` is `since` or later; a name newer than this list is later than all of it. */
function atLeast(hardfork: string, since: string): boolean {
  const index = HARDHAT_HARDFORKS.indexOf(hardfork);
  return index === -1 || index >= HARDHAT_HARDFORKS.indexOf(since);
}

const REMOVE_ADVICE = "; remove it, or remove require('chain-sim/hardhat') to run on Hardhat's own network";

/** A balance in wei, as Hardhat takes it (a decimal string, or a number). */
export function wei(value: unknown, field: string, network = 'hardhat'): bigint {
  if ((typeof value === 'string' && /^\d+$/.test(value.trim())) || (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)) {
    return BigInt(typeof value === 'string' ? value.trim() : value);
  }
  if (typeof value === 'bigint' && value >= 0n) return value;
  throw new HardhatConfigError(field, `expected an amount of wei as a decimal string, got "${String(value)}"`, network);
}

/** Hardhat's initialDate: a date string (Hardhat parses it with `new Date`), as seconds since 1970. */
export function initialTimestamp(initialDate: unknown, network = 'hardhat'): number {
  const ms = typeof initialDate === 'string' ? new Date(initialDate).getTime() : initialDate instanceof Date ? initialDate.getTime() : Number.NaN;
  if (!Number.isFinite(ms) || ms < 0) {
    throw new HardhatConfigError('initialDate', `expected a date string such as "2024-01-01T00:00:00Z", got "${String(initialDate)}"`, network);
  }
  return Math.floor(ms / 1000);
}

/** mining.mempool.order, in chain-sim's words: Hardhat's `priority` is ordering by fees. */
export function poolOrder(order: unknown, network = 'hardhat'): 'fees' | 'fifo' {
  if (order === 'priority') return 'fees';
  if (order === 'fifo') return 'fifo';
  throw new HardhatConfigError('mining.mempool.order', `expected "priority" or "fifo", got "${String(order)}"`, network);
}

/** The HD accounts settings, checked (Hardhat derives keys from them as chain-sim then does). */
export function hdAccounts(
  accounts: Omit<Required<HardhatHDAccountsUserConfig>, 'accountsBalance'> & { accountsBalance: string | bigint },
  network = 'hardhat',
): Required<HardhatHDAccountsUserConfig> & { balance: bigint } {
  const { mnemonic, initialIndex, count, accountsBalance } = accounts;
  if (typeof mnemonic !== 'string' || ![12, 15, 18, 21, 24].includes(mnemonic.normalize('NFKD').split(' ').length)) {
    throw new HardhatConfigError('accounts.mnemonic', 'expected a BIP-39 mnemonic of 12, 15, 18, 21 or 24 words separated by single spaces', network);
  }
  if (!Number.isSafeInteger(initialIndex) || initialIndex < 0) {
    throw new HardhatConfigError('accounts.initialIndex', `expected a whole number, got ${initialIndex}`, network);
  }
  if (!Number.isSafeInteger(count) || count < 0) throw new HardhatConfigError('accounts.count', `expected a whole number, got ${count}`, network);
  return { ...accounts, accountsBalance: String(accountsBalance), balance: wei(accountsBalance, 'accounts.accountsBalance', network) };
}

function isZero(value: unknown): boolean {
  try {
    return BigInt(value as string | number) === 0n;
  } catch {
    return false;
  }
}

/** Every check of the mapping, without building anything: throws HardhatConfigError naming the field. */
export function checkHardhatNetwork(resolved: HardhatNetworkConfig, user: HardhatNetworkUserConfig = {}): void {
  poolOrder(resolved.mining.mempool.order);
  if (Array.isArray(resolved.accounts)) resolved.accounts.forEach(({ balance }, i) => wei(balance, `accounts[${i}].balance`));
  else hdAccounts(resolved.accounts as Required<HardhatHDAccountsUserConfig>);
  if (user.initialDate !== undefined) initialTimestamp(user.initialDate);
  refuseUnsupported(resolved, user);
}

/** Fields chain-sim cannot honour, refused only when the project sets them to something that would matter. */
function refuseUnsupported(resolved: HardhatNetworkConfig, user: HardhatNetworkUserConfig): void {
  if (user.minGasPrice !== undefined && !isZero(user.minGasPrice)) {
    throw new HardhatConfigError('minGasPrice', `chain-sim has no minimum gas price (Hardhat's applies before london only)${REMOVE_ADVICE}`);
  }
  // Hardhat 2.22 and later refuse the pair themselves when the hardfork is explicit; before, the default hardfork (shanghai) took it.
  if (user.enableTransientStorage === true && !atLeast(resolved.hardfork, 'cancun')) {
    throw new HardhatConfigError(
      'enableTransientStorage',
      `chain-sim enables transient storage (EIP-1153) with the hardfork, from cancun on, and this network's is ${resolved.hardfork}; set hardfork: "cancun" or later instead`,
    );
  }
  if (user.enableRip7212 === true && !atLeast(resolved.hardfork, 'osaka')) {
    throw new HardhatConfigError(
      'enableRip7212',
      `chain-sim has the P-256 precompile at 0x100 with the hardfork (EIP-7951, from osaka on), and this network's is ${resolved.hardfork}; set hardfork: "osaka" or later instead`,
    );
  }
}
