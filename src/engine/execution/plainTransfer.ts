/**
 * A plain value transfer applied without the EVM: what @ethereumjs/vm's runTx leaves behind
 * for it (nonce, balances, fee, tip to the coinbase, receipt, 21,000 gas), written straight
 * to the state manager. runTx for a transfer makes a block object for the transaction,
 * journals, warms addresses, builds an EVM message and a receipt: most of an automined
 * transfer's execution cost for three balance changes.
 *
 * Only a transaction whose outcome is certain takes this path; anything else (code at either
 * end, a delegated account (EIP-7702), a precompile, data or an access list, a check runTx
 * would fail, an empty account the transfer would touch, listeners that watch transactions,
 * rules that change gas or touch accounting) returns undefined and runs through the VM as before.
 * test/engine/plainTransfer.test.ts compares both paths on random transfers and edge cases.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import { Capability } from '@ethereumjs/tx';
import { Account, type Address, KECCAK256_NULL, bytesToUnprefixedHex, equalsBytes } from '@ethereumjs/util';
import { Bloom, type RunTxResult, type VM } from '@ethereumjs/vm';
import { CONSOLE_ADDRESS } from './consoleLog.js';

const TRANSFER_GAS = 21_000n;
const MAX_UINT256 = (1n << 256n) - 1n;

/** EIPs under which a transfer's accounting differs from the one below (state gas, access lists of blocks, binary trees...). */
const UNSUPPORTED_EIPS = [6800, 7708, 7778, 7864, 7928, 8037, 8246] as const;

/** Whether the rules of `vm` and its listeners let plain transfers take this path (asked per transaction: a few lookups). */
export function plainTransfersApply(vm: VM): boolean {
  const common = vm.common;
  if (!common.isActivatedEIP(1559)) return false; // earlier rules (empty-account cleanup, fees) differ
  if (common.consensusType() === 'poa') return false; // the clique signer is paid, not the coinbase
  for (const eip of UNSUPPORTED_EIPS) if (common.isActivatedEIP(eip)) return false;
  const events = vm.events as { listenerCount?: (name: string) => number } | undefined;
  const evmEvents = (vm.evm as { events?: { listenerCount(name: string): number } }).events;
  // Tracers (prestate, call and step tracers) watch the transaction: it must run for them.
  if ((events?.listenerCount?.('beforeTx') ?? 0) > 0 || (events?.listenerCount?.('afterTx') ?? 0) > 0) return false;
  if ((evmEvents?.listenerCount('step') ?? 0) > 0 || (evmEvents?.listenerCount('afterMessage') ?? 0) > 0) return false;
  return vm.DEBUG !== true;
}

/** Whether `address` is one of the VM's active precompiles (the rules' and chain-sim's own): a call runs it, with gas. */
function isPrecompile(vm: VM, address: Address): boolean {
  const precompiles = (vm.evm as { precompiles?: Map<string, unknown> }).precompiles;
  return precompiles === undefined || precompiles.has(bytesToUnprefixedHex(address.bytes));
}

const isEmpty = (account: Account): boolean => account.nonce === 0n && account.balance === 0n && equalsBytes(account.codeHash, KECCAK256_NULL);

/**
 * Applies `tx` from `sender` as runTx would in a block with `baseFee`, `coinbase` and
 * `gasUsedBefore` gas used, and returns runTx's result; undefined (nothing changed) when the
 * transaction is not a plain transfer whose outcome is certain.
 */
export async function applyPlainTransfer(
  vm: VM,
  tx: TypedTransaction,
  sender: Address,
  block: { readonly baseFee: bigint; readonly coinbase: Address; readonly gasUsedBefore: bigint },
): Promise<RunTxResult | undefined> {
  const to = tx.to;
  if (to === undefined || tx.type > 2 || tx.data.length !== 0 || tx.value < 0n) return undefined;
  if ('accessList' in tx && (tx.accessList as unknown[]).length > 0) return undefined;
  if (isPrecompile(vm, to) || to.equals(CONSOLE_ADDRESS)) return undefined;
  if (tx.getIntrinsicGas() !== TRANSFER_GAS || tx.gasLimit < TRANSFER_GAS) return undefined;
  const { baseFee, coinbase } = block;

  // runTx's checks, in its order; any failure goes to runTx for its error.
  const maxFeePerGas = tx.supports(Capability.EIP1559FeeMarket)
    ? (tx as TypedTransaction & { maxFeePerGas: bigint }).maxFeePerGas
    : (tx as TypedTransaction & { gasPrice: bigint }).gasPrice;
  if (maxFeePerGas < baseFee) return undefined;
  const state = vm.stateManager;
  const from = await state.getAccount(sender);
  if (from === undefined || !equalsBytes(from.codeHash, KECCAK256_NULL)) return undefined;
  if (from.balance < tx.getUpfrontCost(baseFee) || from.nonce !== tx.nonce) return undefined;
  if (tx.supports(Capability.EIP1559FeeMarket) && from.balance < tx.value + tx.gasLimit * maxFeePerGas) return undefined;
  if (!tx.supports(Capability.EIP1559FeeMarket) && from.balance < tx.value) return undefined;
  const recipient = to.equals(sender) ? from : await state.getAccount(to);
  if (recipient !== undefined && !equalsBytes(recipient.codeHash, KECCAK256_NULL)) return undefined;
  // An existing empty account the transfer touches is deleted (EIP-161): left to runTx.
  if (recipient !== undefined && tx.value === 0n && isEmpty(recipient)) return undefined;
  if (recipient !== undefined && recipient !== from && recipient.balance + tx.value > MAX_UINT256) return undefined; // the EVM's overflow error
  const tip = tx.supports(Capability.EIP1559FeeMarket)
    ? tx.getEffectivePriorityFee(baseFee)
    : (tx as TypedTransaction & { gasPrice: bigint }).gasPrice - baseFee;
  const gasPrice = tip + baseFee;
  const minerValue = TRANSFER_GAS * tip;
  const miner = coinbase.equals(sender) ? undefined : coinbase.equals(to) ? undefined : await state.getAccount(coinbase);
  if (miner !== undefined && minerValue === 0n && isEmpty(miner)) return undefined;

  // The changes: the sender pays gas and value and moves its nonce, the recipient receives,
  // the coinbase gets the tip (the base fee is burnt). Applied one account at a time, in
  // runTx's order, so that any of the three may be the same account.
  from.nonce += 1n;
  from.balance -= TRANSFER_GAS * gasPrice + tx.value;
  await state.putAccount(sender, from);
  if (tx.value > 0n && !to.equals(sender)) {
    const received = recipient ?? new Account();
    received.balance += tx.value;
    await state.putAccount(to, received);
  } else if (to.equals(sender)) {
    from.balance += tx.value;
    await state.putAccount(sender, from);
  }
  if (minerValue > 0n) {
    const paid = (await state.getAccount(coinbase)) ?? new Account();
    paid.balance += minerValue;
    await state.putAccount(coinbase, paid);
  }

  const bloom = new Bloom(undefined, vm.common);
  const amountSpent = TRANSFER_GAS * gasPrice;
  return {
    execResult: { returnValue: new Uint8Array(0), executionGasUsed: 0n, gasRefund: 0n, logs: [] },
    totalGasSpent: TRANSFER_GAS,
    blockGasSpent: TRANSFER_GAS,
    gasRefund: 0n,
    amountSpent,
    minerValue,
    bloom,
    receipt: { status: 1, cumulativeBlockGasUsed: block.gasUsedBefore + TRANSFER_GAS, bitvector: bloom.bitvector, logs: [] },
  } as unknown as RunTxResult;
}
