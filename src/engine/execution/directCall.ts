/**
 * eth_call and eth_estimateGas runs without runTx. For a call that pays no fees, most of
 * what runTx does is bookkeeping the call throws away: fees at a gas price of 0, the
 * coinbase's reward, a receipt and its bloom, six account writes (each an RLP encoding)
 * and as many reads, then a revert. An eth_call of a token's balanceOf spent a third of
 * its time there. This keeps what a call can observe of runTx: the warm addresses and
 * slots (EIP-2929, 2930, 3651), the gas left after the intrinsic cost, the sender's nonce
 * raised before the message runs, and a message at gas price 0; and the gas runTx would
 * charge (refund cap, EIP-7623 floor) for estimates. All of it inside the caller's
 * checkpoint, which is reverted.
 *
 * Calls that pay fees, creations, blob calls, and the forks whose EIPs change what runTx
 * does around the message go through runTx as before; so do limits below the intrinsic
 * cost and values above the sender's balance, for runTx's errors.
 * test/integration/directCall.test.ts compares the two on the same calls.
 */
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { ExecResult } from '@ethereumjs/evm';
import { type TypedTransaction, getCalldataFloorGas } from '@ethereumjs/tx';
import { type Address, bytesToUnprefixedHex } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import type { CallRequest } from './execution.js';

/** EIPs that add work of runTx around the message (Amsterdam's, binary-tree witnesses). */
const RUN_TX_EIPS = [2780, 6800, 7708, 7864, 7928, 8037];

/** Whether the call can skip runTx: no fees, a recipient, no blobs, and a fork without RUN_TX_EIPS. */
export function callsDirectly(common: Common, request: CallRequest): boolean {
  if (request.gasPrice !== undefined || request.maxFeePerGas !== undefined || request.maxPriorityFeePerGas !== undefined) return false;
  if (request.to === undefined || (request.blobVersionedHashes?.length ?? 0) > 0) return false;
  // Authorizations are applied by runTx before the message runs.
  if (request.authorizationList !== undefined) return false;
  return !RUN_TX_EIPS.some((eip) => common.isActivatedEIP(eip));
}

/** The fields of runTx's result that calls and estimates read. */
export interface Execution {
  readonly execResult: ExecResult;
  /** Gas charged: used, less the capped refund, at least the EIP-7623 floor. */
  readonly totalGasSpent: bigint;
  /** Refunds earned before the cap (0 when the floor applied), as runTx reports them. */
  readonly gasRefund: bigint;
}

/**
 * Runs `tx`'s message from `caller` (which callsDirectly accepted) in `block`. Undefined
 * when its gas limit is below the intrinsic cost or its value above the sender's balance:
 * runTx says why.
 */
export async function callDirectly(vm: VM, block: Block, tx: TypedTransaction, caller: Address): Promise<Execution | undefined> {
  const intrinsic = tx.getIntrinsicGas();
  const floor = getCalldataFloorGas(tx, caller); // EIP-7623; 0 before Prague
  if (tx.gasLimit < intrinsic || tx.gasLimit < floor) return undefined;
  if (tx.value > 0n && ((await vm.stateManager.getAccount(caller))?.balance ?? 0n) < tx.value) return undefined;
  const { journal, precompiles } = vm.evm;
  const common = vm.common;
  journal.cleanJournal();
  try {
    if (common.isActivatedEIP(2929)) {
      for (const address of precompiles.keys()) journal.addAlwaysWarmAddress(address);
      journal.addAlwaysWarmAddress(bytesToUnprefixedHex(caller.bytes));
      journal.addAlwaysWarmAddress(bytesToUnprefixedHex(tx.to!.bytes));
      if (common.isActivatedEIP(3651)) journal.addAlwaysWarmAddress(bytesToUnprefixedHex(block.header.coinbase.bytes));
    }
    if ('accessList' in tx) {
      for (const [address, slots] of tx.accessList) {
        const addressHex = bytesToUnprefixedHex(address);
        journal.addAlwaysWarmAddress(addressHex);
        for (const slot of slots) journal.addAlwaysWarmSlot(addressHex, bytesToUnprefixedHex(slot));
      }
    }
    // runCall raises the sender's nonce at depth 0, as runTx does before it.
    const { execResult } = await vm.evm.runCall({
      block,
      gasPrice: 0n,
      caller,
      origin: caller,
      gasLimit: tx.gasLimit - intrinsic,
      to: tx.to,
      value: tx.value,
      data: tx.data,
    });
    return { execResult, ...chargedGas(common, execResult, intrinsic, floor) };
  } finally {
    journal.cleanJournal();
    vm.stateManager.originalStorageCache.clear();
  }
}

/** runTx's gas accounting (before Amsterdam): refunds capped at a fifth (a half before London), then the floor. */
function chargedGas(common: Common, exec: ExecResult, intrinsic: bigint, floor: bigint): { totalGasSpent: bigint; gasRefund: bigint } {
  const used = exec.executionGasUsed + intrinsic;
  const earned = exec.gasRefund ?? 0n;
  const cap = used / common.param('maxRefundQuotient');
  const spent = used - (earned < cap ? earned : cap);
  return spent < floor ? { totalGasSpent: floor, gasRefund: 0n } : { totalGasSpent: spent, gasRefund: earned };
}
