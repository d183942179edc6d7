/**
 * The first block of a forked chain: the upstream's pinned block, standing where a genesis
 * block stands on a local chain. Its hash is the upstream's (so the first local block's
 * parent hash links to the real chain), its header fields are the upstream's, and its state
 * root is the local overlay's after the prefunded accounts got their balances (forkState.ts):
 * the state every local read and revert starts from.
 */
import { type HeaderData, createBlock } from '@ethereumjs/block';
import { Account, Address, bigIntToBytes, createAddressFromString, setLengthLeft } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import type { BlockStore, MinedBlock } from './blocks.js';
import { type ForkAwareStateManager, type RemoteState, installForkRoot } from '../state/forkState.js';
import { toHex } from '../util/hex.js';
import type { TrieNodeDB } from '../state/trieDb.js';
import type { ForkSchedule } from '../rules/forkSchedule.js';
import type { RemoteHistory } from './remoteHistory.js';
import { bytesToUnprefixedHex } from '@ethereumjs/util';

/** A pinned upstream block, its state, its history, and how to learn older blocks' hashes (for BLOCKHASH). */
export interface ForkPoint {
  readonly remote: RemoteState;
  /** Blocks, transactions and receipts up to the pinned block (the block store reads them there). */
  readonly history: RemoteHistory;
  /** The pinned block's header fields (the state root is replaced by the overlay's). */
  readonly header: HeaderData;
  readonly number: bigint;
  readonly hash: Uint8Array;
  readonly totalDifficulty: bigint;
  /** A known network's fork schedule (local blocks follow it); undefined: the chain's one hardfork. */
  readonly schedule?: ForkSchedule;
  olderHash(number: bigint): Promise<Uint8Array>;
}

/** Accounts given a balance at the fork (the prefunded dev accounts); their nonce and code stay the upstream's. */
export interface ForkFunding {
  readonly addresses: readonly Address[];
  readonly balance: bigint;
  /** Accounts every block reads (the coinbase), fetched with them. */
  readonly warm?: readonly Address[];
}

/** EIP-4788's beacon roots contract (the library has its address as a constant, not a parameter). */
const BEACON_ROOTS = '0x000f3df6d732807ef1319fb7b8bb8522d0beac02';

/** The system contracts (and their caller) that blocks under the VM's rules call at their start and end. */
function systemAccounts(vm: VM): Address[] {
  const common = vm.common;
  const found: Address[] = [];
  const addressOf = (value: bigint) => new Address(setLengthLeft(bigIntToBytes(value), 20));
  if (common.isActivatedEIP(4788)) found.push(createAddressFromString(BEACON_ROOTS));
  for (const [eip, param] of [
    [2935, 'historyStorageAddress'],
    [7002, 'withdrawalRequestPredeployAddress'],
    [7251, 'consolidationRequestPredeployAddress'],
  ] as const) {
    if (common.isActivatedEIP(eip)) found.push(addressOf(common.param(param)));
  }
  if (common.isActivatedEIP(2935)) found.push(addressOf(common.param('systemAddress')));
  return found;
}

/** Put `vm` on the fork point's state and return its block, to be the store's first (the store must be empty). */
export async function startFork(vm: VM, store: BlockStore, trieNodes: TrieNodeDB, point: ForkPoint, funding: ForkFunding): Promise<MinedBlock> {
  const state = vm.stateManager as ForkAwareStateManager;
  await installForkRoot({
    get: async (hash) => trieNodes.get(bytesToUnprefixedHex(hash)),
    put: (hash, encoded) => trieNodes.put(bytesToUnprefixedHex(hash), encoded),
  });
  state.remote = point.remote;
  // All at once: the upstream gets one batch instead of one round trip per account. With them, what
  // every block reads (the coinbase, the system contracts of the rules in force): the first block
  // then waits for no upstream read of its own, and no send waits for them one at a time.
  const warm = [...(funding.warm ?? []), ...systemAccounts(vm)].filter((address) => !funding.addresses.some((funded) => funded.equals(address)));
  const [accounts] = await Promise.all([
    Promise.all(funding.addresses.map((address) => state.getAccount(address))),
    Promise.all(warm.map((address) => point.remote.account(address))),
  ]);
  for (const [i, address] of funding.addresses.entries()) {
    const account = accounts[i] ?? new Account();
    account.balance = funding.balance;
    await state.putAccount(address, account);
  }
  const stateRoot = await state.getStateRoot();
  const common = vm.common;
  // Fields of EIPs the chosen rules lack (--hardfork older than the upstream's) are left out: the header could not hold them.
  const header: HeaderData = { ...point.header, stateRoot };
  const byEip: ReadonlyArray<[number, keyof HeaderData]> = [
    [1559, 'baseFeePerGas'],
    [4895, 'withdrawalsRoot'],
    [4844, 'blobGasUsed'],
    [4844, 'excessBlobGas'],
    [4788, 'parentBeaconBlockRoot'],
    [7685, 'requestsHash'],
  ];
  for (const [eip, field] of byEip) if (!common.isActivatedEIP(eip)) delete header[field];
  const block = createBlock({ header }, { common, skipConsensusFormatValidation: true });
  // Headers are frozen but their hash cache is not: every block.hash() now gives the upstream's hash.
  (block.header as unknown as { cache: { hash?: Uint8Array } }).cache.hash = point.hash;
  const mined: MinedBlock = {
    block,
    hash: point.hash,
    hashHex: toHex(point.hash),
    number: point.number,
    senders: [],
    receipts: [],
    totalDifficulty: point.totalDifficulty,
  };
  store.startAt(point.number);
  store.append(mined);
  store.olderHash = (number) => point.olderHash(number);
  store.history = point.history;
  return mined;
}
