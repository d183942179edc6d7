/**
 * State and block overrides (go-ethereum's StateOverride and BlockOverrides), applied to a
 * throwaway copy of the state and a copy of the block header: nothing here touches the
 * chain's own VM, pool or snapshots. Used by eth_call, eth_estimateGas, eth_createAccessList,
 * eth_simulateV1 and (as a seam) debug_traceCall.
 */
import { type Block, createBlock } from '@ethereumjs/block';
import { Account, type Address, bytesToUnprefixedHex } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { getActivePrecompiles } from '@ethereumjs/evm';
import { EngineError, rejected } from '../util/errors.js';
import { PRELOADED_PARAMS } from '../rules/hardforks.js';

/** What one account's override sets; absent fields keep the account's own value. */
export interface AccountOverride {
  readonly balance?: bigint;
  readonly nonce?: bigint;
  readonly code?: Uint8Array;
  /** Replaces the whole storage: every slot not listed reads zero. */
  readonly state?: ReadonlyArray<readonly [Uint8Array, Uint8Array]>;
  /** Patches the listed slots only. */
  readonly stateDiff?: ReadonlyArray<readonly [Uint8Array, Uint8Array]>;
  /** Moves the precompile at this account to another address (the account then runs its code, if any). */
  readonly movePrecompileTo?: Address;
}

export interface StateOverride {
  readonly address: Address;
  readonly account: AccountOverride;
}

/** Header fields a call or a simulated block runs under. */
export interface BlockOverrides {
  readonly number?: bigint;
  readonly difficulty?: bigint;
  readonly time?: bigint;
  readonly gasLimit?: bigint;
  readonly feeRecipient?: Address;
  readonly prevRandao?: Uint8Array;
  readonly baseFeePerGas?: bigint;
  readonly blobBaseFee?: bigint;
  readonly beaconRoot?: Uint8Array;
  readonly withdrawals?: ReadonlyArray<{ index: bigint; validatorIndex: bigint; address: Address; amount: bigint }>;
}

/** An override go-ethereum refuses while applying it (-32000, in eth_simulateV1 too). */
export class OverrideError extends EngineError {
  constructor(message: string) {
    super('rejected', message);
    this.name = 'OverrideError';
  }
}

const key = (address: Address) => bytesToUnprefixedHex(address.bytes);

/**
 * Write `overrides` into `vm`'s state and precompile table, in go-ethereum's order (accounts
 * sorted by address) with its checks. `vm` must be a throwaway copy on the fork the call runs
 * under: precompiles are swapped in its EVM only. `checksum` renders addresses in messages.
 */
export async function applyStateOverrides(vm: VM, overrides: readonly StateOverride[], checksum: (address: Address) => string): Promise<void> {
  if (overrides.length === 0) return;
  const sorted = [...overrides].sort((a, b) => (key(a.address) < key(b.address) ? -1 : key(a.address) > key(b.address) ? 1 : 0));
  const named = new Set(sorted.map((entry) => key(entry.address)));
  const evm = vm.evm as unknown as { _precompiles: Map<string, unknown> };
  const precompiles = new Map(evm._precompiles);
  // Destinations of moved precompiles: go-ethereum refuses to override them afterwards.
  const moved = new Set<string>();
  for (const { address, account } of sorted) {
    const id = key(address);
    if (moved.has(id)) throw new OverrideError(`account ${checksum(address)} has already been overridden by a precompile`);
    const precompile = precompiles.get(id);
    if (account.movePrecompileTo !== undefined) {
      if (precompile === undefined) throw new OverrideError(`account ${checksum(address)} is not a precompile`);
      const target = key(account.movePrecompileTo);
      if (named.has(target)) throw new OverrideError(`account ${checksum(account.movePrecompileTo)} is already overridden`);
      precompiles.set(target, precompile);
      moved.add(target);
    }
    // Any override of a precompile's address takes the precompile away (its code, if given, runs instead).
    if (precompile !== undefined) precompiles.delete(id);
    if (account.state !== undefined && account.stateDiff !== undefined) {
      throw new OverrideError(`account ${checksum(address)} has both 'state' and 'stateDiff'`);
    }
    await writeAccount(vm, address, account);
  }
  evm._precompiles = new PrecompileTable(precompiles, [...evm._precompiles.keys()]);
}

/**
 * The precompiles after overrides: lookups see the moved and removed ones, but iteration (which
 * runTx uses to warm addresses, EIP-2929) yields the fork's own addresses, as go-ethereum warms
 * ActivePrecompiles(rules) whatever was moved.
 */
class PrecompileTable extends Map<string, unknown> {
  constructor(
    entries: Map<string, unknown>,
    private readonly warm: readonly string[],
  ) {
    super(entries);
  }

  override keys(): MapIterator<string> {
    return this.warm[Symbol.iterator]() as MapIterator<string>;
  }

  override entries(): MapIterator<[string, unknown]> {
    return this.warm.map((key): [string, unknown] => [key, this.get(key)])[Symbol.iterator]() as MapIterator<[string, unknown]>;
  }
}

async function writeAccount(vm: VM, address: Address, change: AccountOverride): Promise<void> {
  const state = vm.stateManager;
  if (change.nonce !== undefined || change.balance !== undefined) {
    const account = (await state.getAccount(address)) ?? new Account();
    if (change.nonce !== undefined) account.nonce = change.nonce;
    if (change.balance !== undefined) account.balance = change.balance;
    await state.putAccount(address, account);
  }
  if (change.code !== undefined) {
    if ((await state.getAccount(address)) === undefined) await state.putAccount(address, new Account());
    await state.putCode(address, change.code);
  }
  if (change.state !== undefined) {
    if ((await state.getAccount(address)) === undefined) await state.putAccount(address, new Account());
    await state.clearStorage(address);
  }
  for (const [slot, value] of change.state ?? change.stateDiff ?? []) {
    if ((await state.getAccount(address)) === undefined) await state.putAccount(address, new Account());
    await state.putStorage(address, slot, value);
  }
}

/**
 * The block a call runs in with `overrides`' header fields (go-ethereum's MakeHeader plus the
 * blob base fee, which no header field carries). `beaconRoot` and `withdrawals` belong to
 * eth_simulateV1; other methods refuse them as go-ethereum does.
 */
export function blockWithOverrides(block: Block, overrides: BlockOverrides | undefined): Block {
  if (overrides === undefined) return block;
  if (overrides.beaconRoot !== undefined) throw rejected('block override "beaconRoot" is not supported for this RPC method');
  if (overrides.withdrawals !== undefined) throw rejected('block override "withdrawals" is not supported for this RPC method');
  const header = block.header.toJSON();
  const changed = {
    ...header,
    // A call's context has no gas used: the header's own (the block's transactions') could exceed an overridden gas limit.
    gasUsed: 0n,
    ...(overrides.number !== undefined && { number: overrides.number }),
    ...(overrides.difficulty !== undefined && { difficulty: overrides.difficulty }),
    ...(overrides.time !== undefined && { timestamp: overrides.time }),
    ...(overrides.gasLimit !== undefined && { gasLimit: overrides.gasLimit }),
    ...(overrides.feeRecipient !== undefined && { coinbase: overrides.feeRecipient }),
    ...(overrides.prevRandao !== undefined && { mixHash: overrides.prevRandao }),
    ...(overrides.baseFeePerGas !== undefined && { baseFeePerGas: overrides.baseFeePerGas }),
  };
  // Not frozen: a blob base fee override replaces the header's getBlobGasPrice.
  const result = createBlock(
    { header: changed },
    { common: block.common, skipConsensusFormatValidation: true, params: PRELOADED_PARAMS, freeze: overrides.blobBaseFee === undefined },
  );
  if (overrides.blobBaseFee !== undefined) {
    const fee = overrides.blobBaseFee;
    Object.defineProperty(result.header, 'getBlobGasPrice', { value: () => fee });
  }
  return result;
}

/** The overrides a single call may carry (eth_call's third and fourth parameters). */
export interface CallOverrides {
  readonly state?: readonly StateOverride[];
  readonly block?: BlockOverrides;
}

/** Whether a call needs a throwaway copy of its state at all. */
export function hasOverrides(overrides: CallOverrides | undefined): overrides is CallOverrides {
  return overrides !== undefined && ((overrides.state?.length ?? 0) > 0 || overrides.block !== undefined);
}

/**
 * Apply `overrides` to `vm` (the chain's own VM or a historical one) inside a state checkpoint;
 * the returned function reverts the checkpoint and puts the precompile table back. Cheaper than
 * a throwaway copy of the VM for a single call.
 */
export async function applyStateOverridesReversibly(
  vm: VM,
  overrides: readonly StateOverride[],
  checksum: (address: Address) => string,
): Promise<() => Promise<void>> {
  const evm = vm.evm as unknown as { _precompiles: Map<string, unknown> };
  const saved = evm._precompiles;
  await vm.stateManager.checkpoint();
  const restore = async () => {
    evm._precompiles = saved;
    await vm.stateManager.revert();
  };
  try {
    await applyStateOverrides(vm, overrides, checksum);
  } catch (error) {
    await restore();
    throw error;
  }
  return restore;
}

/** Put back the fork's own precompiles (eth_simulateV1 moves them per block, as go-ethereum does). */
export function resetPrecompiles(vm: VM): void {
  const evm = vm.evm as unknown as { _precompiles: Map<string, unknown>; _customPrecompiles: unknown };
  evm._precompiles = getActivePrecompiles(vm.common, evm._customPrecompiles as never) as Map<string, unknown>;
}
