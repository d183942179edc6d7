/**
 * Accounts and storage: reads at a block, proofs, dumps, and the setters that change the live
 * state without a block (as Hardhat and Anvil do). Runs inside a queue task.
 */
import { type MerkleStateManager, type Proof, getMerkleStateProof } from '@ethereumjs/statemanager';
import { Account, type Address, setLengthLeft } from '@ethereumjs/util';
import { EngineError, rejected } from '../util/errors.js';
import type { Alloc } from '../state/stateDump.js';
import { stateAt } from './calls.js';
import type { ChainCore } from './core.js';
import type { AccountChange, BlockRef } from './types.js';

export async function getBalance(core: ChainCore, address: Address, ref: BlockRef): Promise<bigint> {
  const vm = await stateAt(core, ref);
  return (await vm.stateManager.getAccount(address))?.balance ?? 0n;
}

/** The account nonce at a block; `pending` also counts the sender's queued transactions. */
export async function getTransactionCount(core: ChainCore, address: Address, ref: BlockRef): Promise<bigint> {
  const vm = await stateAt(core, ref);
  const nonce = (await vm.stateManager.getAccount(address))?.nonce ?? 0n;
  return 'tag' in ref && ref.tag === 'pending' ? core.pool.nextNonce(address, nonce) : nonce;
}

export async function getCode(core: ChainCore, address: Address, ref: BlockRef): Promise<Uint8Array> {
  const vm = await stateAt(core, ref);
  return vm.stateManager.getCode(address);
}

export async function getStorageAt(core: ChainCore, address: Address, slot: Uint8Array, ref: BlockRef): Promise<Uint8Array> {
  const vm = await stateAt(core, ref);
  const value = await vm.stateManager.getStorage(address, setLengthLeft(slot, 32));
  return setLengthLeft(value, 32);
}

/** An EIP-1186 proof of an account and some of its storage slots (32 bytes each) at a block. */
export async function getProof(core: ChainCore, address: Address, slots: readonly Uint8Array[], ref: BlockRef): Promise<Proof> {
  const vm = await stateAt(core, ref);
  return getMerkleStateProof(vm.stateManager as MerkleStateManager, address, [...slots]);
}

/** Block 0's state root (setters since may have changed the live state without a block), if the chain still has its state. */
export async function genesisRoot(core: ChainCore): Promise<Uint8Array> {
  const root = core.blocks.byNumber(core.blocks.firstNumber)!.block.header.stateRoot;
  if (!(await core.state.hasStateRoot(root))) throw rejected('state of block 0 is not available (not kept across a restart)');
  return root;
}

/** Write accounts over the current state without mining (chain_loadState, fixtures). */
export function loadState(core: ChainCore, alloc: Alloc): Promise<void> {
  return core.state.load(alloc);
}

/**
 * A nonce set as Hardhat's hardhat_setNonce sets it: never lower than the account's, and
 * not while transactions wait in the pool (their nonces were checked against the old one).
 */
export async function raiseNonce(core: ChainCore, address: Address, nonce: bigint): Promise<void> {
  if (core.pool.size > 0) throw rejected('Cannot set account nonce when the transaction pool is not empty');
  const current = (await core.vm.stateManager.getAccount(address))?.nonce ?? 0n;
  if (nonce < current) throw new EngineError('invalidInput', `New nonce (${nonce}) must not be smaller than the existing nonce (${current})`);
  await modifyAccount(core, address, { nonce });
}

/** Change an account outside any transaction; no block is mined (as Hardhat and Anvil). */
export async function modifyAccount(core: ChainCore, address: Address, change: AccountChange): Promise<void> {
  const sm = core.vm.stateManager;
  const account = (await sm.getAccount(address)) ?? new Account();
  if (change.balance !== undefined) account.balance = change.balance;
  if (change.nonce !== undefined) account.nonce = change.nonce;
  await sm.putAccount(address, account);
  if (change.code !== undefined) await sm.putCode(address, change.code);
  // Flush the caches into the trie: otherwise the next block's header keeps the old state root.
  await sm.getStateRoot();
}

export async function setStorageAt(core: ChainCore, address: Address, slot: Uint8Array, value: Uint8Array): Promise<void> {
  const sm = core.vm.stateManager;
  if (!(await sm.getAccount(address))) await sm.putAccount(address, new Account());
  await sm.putStorage(address, setLengthLeft(slot, 32), value.every((b) => b === 0) ? new Uint8Array() : value);
  await sm.getStateRoot(); // as in modifyAccount: the next block's header must include the change
}
