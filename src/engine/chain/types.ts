/** The engine's public types and limits (the facade in ../chain.ts re-exports them). */
import type { Address } from '@ethereumjs/util';
import type { OwnedAccount } from '../accounts/accounts.js';
import type { MinedBlock } from '../blocks/blocks.js';
import type { WallClock } from '../mining/clock.js';
import { MAX_TIMESTAMP } from '../mining/clock.js';
import type { CodeSizeLimit } from '../rules/codeSize.js';
import type { ReservedBlocks } from '../blocks/emptyRanges.js';
import { EngineError } from '../util/errors.js';
import type { CallRequest } from '../execution/execution.js';
import type { ConsoleAddressCase, ConsoleSource } from '../execution/consoleLog.js';
import type { ForkSchedule } from '../rules/forkSchedule.js';
import type { ForkPoint } from '../blocks/forkStart.js';
import type { GenesisHeader } from '../blocks/genesis.js';
import type { Alloc } from '../state/stateDump.js';
import type { MiningMode } from '../mining/policy.js';
import type { PoolOrder } from '../transactions/txpool.js';

export type BlockTag = 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized';

/** Which block a read refers to; hashes are 0x-prefixed lower-case hex. */
export type BlockRef = { readonly tag: BlockTag } | { readonly number: bigint } | { readonly hash: string; readonly requireCanonical?: boolean };

export const LATEST: BlockRef = { tag: 'latest' };

export interface EngineOptions {
  readonly chainId: bigint;
  readonly hardfork: string;
  readonly accounts: readonly OwnedAccount[];
  readonly balance: bigint;
  readonly gasLimit: bigint;
  readonly baseFee: bigint;
  readonly coinbase: Address;
  readonly order?: PoolOrder;
  readonly genesisTimestamp?: bigint;
  /** The genesis block's number (Anvil's --number): later blocks count on from it. Default 0. */
  readonly genesisNumber?: bigint;
  /** Accounts written into the genesis state after the prefunded ones (fixtures). */
  readonly genesisAlloc?: Alloc;
  readonly wallClock?: WallClock;
  /** 'pow': no automine; blocks come from solutions to chain_getWork (pow/sealer.ts). Default 'instant'. */
  readonly mining?: 'instant' | 'pow';
  /**
   * The mining mode configured at start-up, which a reset restores: automine (default: on unless
   * proof of work) and interval mining in milliseconds, a fixed period or a random one in
   * [min, max] (Hardhat's mining.interval).
   */
  readonly miningMode?: MiningMode;
  /**
   * A genesis file: its fork schedule replaces `hardfork`, its header fields the genesis
   * settings above, and the genesis state is `genesisAlloc` alone (no prefunded accounts).
   */
  readonly genesis?: { readonly schedule: ForkSchedule; readonly header: GenesisHeader };
  /** Fork an upstream chain (fork/): its pinned block replaces the genesis block, its state lies under the local one. */
  readonly fork?: ForkPoint;
  /** Contract size limit: bytes, 'unlimited', or undefined for the forks' own (codeSize.ts). */
  readonly codeSizeLimit?: CodeSizeLimit;
  /** How console.log prints addresses (execution/consoleLog.ts); default checksummed. */
  readonly consoleAddresses?: ConsoleAddressCase;
}

/** How one send answers. */
export interface SendOptions {
  /**
   * Under automine, wait for the transaction's block and throw TransactionFailedError if it failed
   * there (it stays mined), as Hardhat's node answers. Without it the hash is answered first and
   * the block built right after, as go-ethereum and Anvil do. Without automine the hash is
   * answered either way: there is no block to wait for.
   */
  readonly awaitOutcome?: boolean;
}

/** What the state setters (chain_setBalance, chain_setCode, chain_setNonce) change in an account. */
export interface AccountChange {
  readonly balance?: bigint;
  readonly nonce?: bigint;
  readonly code?: Uint8Array;
}

export interface ChainEvents {
  /** A block was appended to the canonical chain. */
  block: [MinedBlock];
  /** Empty blocks were reserved after the head (emptyRanges.ts): no 'block' event for each. */
  reserved: [ReservedBlocks];
  /** A transaction entered the pool (emitted even when automine mines it at once). */
  pendingTransaction: [string];
  /** Blocks left the canonical chain (snapshot revert, reset, reorganisation), oldest first. */
  reorg: [MinedBlock[]];
  /** The state went back to an earlier point (snapshot revert, reset): states built since are gone. */
  rewound: [];
  /** The chain id changed (anvil_setChainId, or a reset back to the configured one): EIP-1193's chainChanged. */
  chainChanged: [bigint];
  /** A contract called Solidity's console.log in a transaction or an eth_call: the line it printed, and who printed it. */
  consoleLog: [string, ConsoleSource];
  /** A background task (interval mining, printing console.log lines) failed. */
  error: [unknown];
}

/** The `from` a transaction request must name (eth_sendTransaction, eth_signTransaction). */
export function senderOfRequest(request: CallRequest, method: string): Address {
  if (!request.from) throw new EngineError('invalidInput', `missing "from" for ${method}`);
  return request.from;
}

/** A bound on one chain_mine call, so a typo cannot wedge the node for hours. */
export const MAX_BLOCKS_PER_MINE = 1_000_000n;

/** Block headers store the timestamp as a uint64. */
export function assertTimestamp(timestamp: bigint): void {
  if (timestamp > MAX_TIMESTAMP || timestamp < 0n) {
    throw new EngineError('invalidInput', `timestamp ${timestamp} is outside the uint64 range of block headers`);
  }
}

/** Fee suggestions for clients that ask (go-ethereum answers base fee + suggested tip). */
export const SUGGESTED_TIP = 1_000_000_000n;
