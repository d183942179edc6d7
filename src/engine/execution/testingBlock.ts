/**
 * testing_buildBlockV1 (execution-apis src/testing): a block built on the head from payload
 * attributes and given transactions (or the pool's), never added to the chain. It follows
 * go-ethereum's miner (BuildTestingPayload → generateWork): the timestamp must be after the
 * parent's, the gas limit moves toward the target by at most parent/1024 - 1, the header takes
 * the attributes' fee recipient, prevRandao, withdrawals and beacon root, and every given
 * transaction must apply or the whole call fails with go-ethereum's error.
 */
import type { Block } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import { type Address, toChecksumAddress } from '@ethereumjs/util';
import type { RunTxResult, VM } from '@ethereumjs/vm';
import type { MinedBlock } from '../blocks/blocks.js';
import { EngineError, rejected } from '../util/errors.js';
import { isPostMerge } from '../rules/hardforks.js';
import { addTransaction, effectiveGasPrice, startBlock } from './blockBuilder.js';
import { checkpointDepth, unwindTo } from '../state/unwind.js';
import { decodeRawTransaction, maxCost, maxFeePerGas, senderOf } from '../transactions/validation.js';

export interface Withdrawal {
  readonly index: bigint;
  readonly validatorIndex: bigint;
  readonly address: Address;
  readonly amount: bigint;
}

export interface TestingBlockRequest {
  /** Must be the head's hash, as go-ethereum requires. */
  readonly parentHash: Uint8Array;
  readonly timestamp: bigint;
  readonly prevRandao: Uint8Array;
  readonly feeRecipient: Address;
  readonly withdrawals?: readonly Withdrawal[];
  readonly parentBeaconBlockRoot?: Uint8Array;
  /** Signed transactions in order; undefined: take the pool's executable ones, skipping those that fail. */
  readonly transactions?: readonly Uint8Array[];
  readonly extraData: Uint8Array;
}

export interface TestingBlock {
  readonly block: Block;
  /** go-ethereum's blockValue: each transaction's effective tip times its gas used. */
  readonly blockValue: bigint;
  /** EIP-7685 requests with data (type byte first); undefined before Prague. */
  readonly requests?: readonly Uint8Array[];
}

export interface TestingBlockHost {
  /** A throwaway VM on the head's state. */
  readonly vm: VM;
  readonly head: MinedBlock;
  /** Put the VM on the fork of a block at (number, timestamp). */
  align(number: bigint, timestamp: bigint): void;
  /** The gas limit blocks strive for (go-ethereum's miner gas ceiling). */
  readonly targetGasLimit: bigint;
  /** Whether the new block is the London fork block (the parent's limit doubles first, as go-ethereum's miner does). */
  isLondonBlock(number: bigint): boolean;
  /** The pool's executable transactions, for a request without transactions. */
  pooled(): Promise<ReadonlyArray<{ readonly tx: TypedTransaction; readonly sender: Address }>>;
}

/**
 * go-ethereum's default --miner.gaslimit. The method exists to produce the payloads go-ethereum
 * would, so its gas limit moves toward this ceiling, not toward chain-sim's own block gas limit.
 */
export const GETH_MINER_GAS_CEIL = 60_000_000n;

/** go-ethereum's core.CalcGasLimit: toward `desired` by at most parent/1024 - 1. */
export function calcGasLimit(parentGasLimit: bigint, desired: bigint): bigint {
  const delta = parentGasLimit / 1024n - 1n;
  const target = desired < 5000n ? 5000n : desired;
  if (parentGasLimit < target) return parentGasLimit + delta > target ? target : parentGasLimit + delta;
  if (parentGasLimit > target) return parentGasLimit - delta < target ? target : parentGasLimit - delta;
  return parentGasLimit;
}

export async function buildTestingBlock(host: TestingBlockHost, request: TestingBlockRequest): Promise<TestingBlock> {
  const parent = host.head;
  if (toHexKey(request.parentHash) !== toHexKey(parent.hash)) throw rejected('parentHash is not current head');
  const parentTime = parent.block.header.timestamp;
  if (parentTime >= request.timestamp) throw rejected(`invalid timestamp, parent ${parentTime} given ${request.timestamp}`);
  const number = parent.number + 1n;
  host.align(number, request.timestamp);
  const { vm } = host;
  const common = vm.common;
  if (!isPostMerge(common)) throw rejected('testing_buildBlockV1 builds proof-of-stake blocks only: the next block is before the merge');
  const shanghai = common.isActivatedEIP(4895);
  if (!shanghai && request.withdrawals !== undefined) throw rejected('unexpected withdrawals before shanghai');
  const parentGasLimit = host.isLondonBlock(number) ? parent.block.header.gasLimit * 2n : parent.block.header.gasLimit;
  const gasLimit = calcGasLimit(parentGasLimit, host.targetGasLimit);
  // Decode first: a malformed transaction fails the call before anything runs.
  const given = request.transactions?.map((raw, i) => {
    try {
      const tx = decodeRawTransaction(raw, common);
      return { tx, sender: senderOf(tx) };
    } catch (error) {
      throw rejected(`invalid transaction ${i}: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  const builder = await startBlock(vm, {
    parentBlock: parent.block,
    withdrawals: shanghai
      ? (request.withdrawals ?? []).map((w) => ({ index: w.index, validatorIndex: w.validatorIndex, address: w.address, amount: w.amount }))
      : undefined,
    headerData: {
      coinbase: request.feeRecipient,
      timestamp: request.timestamp,
      gasLimit,
      extraData: request.extraData,
      difficulty: 0n,
      mixHash: request.prevRandao,
      parentBeaconBlockRoot: common.isActivatedEIP(4788) ? (request.parentBeaconBlockRoot ?? new Uint8Array(32)) : undefined,
    },
  });
  // The builder computed the base fee from the parent (the library keeps it in its header data).
  const baseFee = toBigInt((builder as unknown as { headerData?: { baseFeePerGas?: unknown } }).headerData?.baseFeePerGas);
  const ran: Array<{ tx: TypedTransaction; result: RunTxResult }> = [];
  const candidates = given ?? (await host.pooled());
  for (const { tx, sender } of candidates) {
    const depth = checkpointDepth(vm);
    try {
      if (given) await precheck(vm, tx, sender, gasLimit - builder.gasUsed, baseFee);
      ran.push({ tx, result: await addTransaction(vm, builder, tx, sender) });
    } catch (error) {
      await unwindTo(vm, depth);
      // Given transactions must all apply (go-ethereum: "all passed transactions HAVE to be valid"); pooled ones are skipped.
      if (given) throw error instanceof EngineError ? error : rejected(error instanceof Error ? error.message : String(error));
    }
  }
  const { block, requests } = await builder.build();
  const blockValue = ran.reduce(
    (sum, { tx, result }) => sum + (effectiveGasPrice(tx, block.header.baseFeePerGas) - (block.header.baseFeePerGas ?? 0n)) * result.totalGasSpent,
    0n,
  );
  return { block, blockValue, requests: requests?.filter((r) => r.bytes.length > 1).map((r) => r.bytes) };
}

/** go-ethereum's state-transition pre-checks, in its order and words, before ethereumjs runs the transaction. */
async function precheck(vm: VM, tx: TypedTransaction, sender: Address, gasLeft: bigint, baseFee: bigint | undefined): Promise<void> {
  const who = toChecksumAddress(sender.toString());
  const account = await vm.stateManager.getAccount(sender);
  const state = account?.nonce ?? 0n;
  if (tx.nonce > state) throw rejected(`nonce too high: address ${who}, tx: ${tx.nonce} state: ${state}`);
  if (tx.nonce < state) throw rejected(`nonce too low: address ${who}, tx: ${tx.nonce} state: ${state}`);
  if (gasLeft < tx.gasLimit) throw rejected('gas limit reached');
  const feeCap = maxFeePerGas(tx);
  if (baseFee !== undefined && feeCap < baseFee) {
    throw rejected(`max fee per gas less than block base fee: address ${who}, maxFeePerGas: ${feeCap}, baseFee: ${baseFee}`);
  }
  const balance = account?.balance ?? 0n;
  const cost = maxCost(tx);
  if (balance < cost) throw rejected(`insufficient funds for gas * price + value: address ${who} have ${balance} want ${cost}`);
}

function toBigInt(value: unknown): bigint | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'bigint') return value;
  if (value instanceof Uint8Array) return value.length === 0 ? 0n : BigInt(`0x${toHexKey(value)}`);
  return BigInt(value as string | number);
}

function toHexKey(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}
