/**
 * Blocks produced elsewhere (--import, `geth export` files): each one is decoded, checked
 * against its parent (blockRules.ts), executed on the live VM with its own transactions,
 * coinbase, timestamp, prevRandao, withdrawals and system calls, compared with its header,
 * and appended with its senders and receipts. The first bad block stops the import with an
 * ImportError naming it; the chain and the state stay at the last good block.
 */
import { type Block, createBlockFromBytesArray } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { bytesToBigInt } from '@ethereumjs/util';
import { type RunBlockResult, type VM, runBlock } from '@ethereumjs/vm';
import { bodyProblem, headerProblem } from './blockRules.js';
import { type BlockStore, type MinedBlock, minedBlock } from './blocks.js';
import { PRELOADED_PARAMS } from '../rules/hardforks.js';
import { toHex } from '../util/hex.js';
import { buildReceipts } from '../execution/blockBuilder.js';
import { DeploymentRecorder } from '../execution/deployments.js';

/** One encoded block as read from a file, with its position for messages. */
export interface EncodedBlock {
  readonly bytes: Uint8Array;
  /** Byte offset of the block in its file. */
  readonly offset: number;
}

/** The first bad block: `block N: what did not match` (or its byte offset if it has no readable number). */
export class ImportError extends Error {
  constructor(
    readonly blockNumber: bigint | undefined,
    problem: string,
    offset?: number,
  ) {
    super(`${blockNumber === undefined ? `block at byte ${offset}` : `block ${blockNumber}`}: ${problem}`);
    this.name = 'ImportError';
  }
}

export interface ImportSummary {
  /** Blocks executed and appended. */
  readonly imported: number;
  /** Blocks the chain already had (same number and hash), e.g. the genesis block of a full `geth export`. */
  readonly known: number;
  readonly transactions: number;
}

export interface ImportTarget {
  readonly vm: VM;
  readonly store: BlockStore;
  /** Told of each appended block (the chain emits its 'block' event). */
  readonly appended: (mined: MinedBlock) => void;
  /** With a fork schedule: put the VM's Common on the fork of a block before it is decoded and run. */
  readonly alignFork?: (number: bigint, timestamp: bigint) => void;
}

/** Import blocks in order; resolves when all are in, rejects with ImportError at the first bad one. */
export async function importBlocks(target: ImportTarget, source: AsyncIterable<EncodedBlock>): Promise<ImportSummary> {
  let imported = 0;
  let known = 0;
  let transactions = 0;
  for await (const encoded of source) {
    const block = decodeBlock(encoded, target.vm.common, target.alignFork);
    const number = block.header.number;
    const head = target.store.head;
    if (number <= head.number) {
      checkKnown(block, target.store);
      known++;
      continue;
    }
    if (number !== head.number + 1n) throw new ImportError(number, `unknown ancestor: the chain's head is block ${head.number}`);
    const mined = await executeBlock(target.vm, block, head, target.store);
    target.store.append(mined);
    target.appended(mined);
    imported++;
    transactions += block.transactions.length;
  }
  return { imported, known, transactions };
}

export function decodeBlock(encoded: EncodedBlock, common: Common, alignFork: ImportTarget['alignFork']): Block {
  let values: unknown;
  try {
    values = RLP.decode(encoded.bytes);
    // Which transaction types and header fields are valid depends on the block's fork.
    const at = headerField(values, NUMBER);
    if (alignFork && at !== undefined) alignFork(at, headerField(values, TIMESTAMP) ?? 0n);
    return createBlockFromBytesArray(values as Parameters<typeof createBlockFromBytesArray>[0], { common, params: PRELOADED_PARAMS });
  } catch (error) {
    throw new ImportError(headerField(values, NUMBER), `not a valid block: ${clean(error)}`, encoded.offset);
  }
}

/** Positions of the number and timestamp in a header's RLP list. */
const NUMBER = 8;
const TIMESTAMP = 11;

/** A numeric header field read from the raw RLP (before decoding, or of a block that does not decode). */
function headerField(values: unknown, index: number): bigint | undefined {
  const header = Array.isArray(values) ? values[0] : undefined;
  const field = Array.isArray(header) ? header[index] : undefined;
  return field instanceof Uint8Array && field.length <= 8 ? bytesToBigInt(field) : undefined;
}

/** A block at or below the head must be the one the chain has (geth import skips known blocks). */
function checkKnown(block: Block, store: BlockStore): void {
  const number = block.header.number;
  const ours = store.byNumber(number)!;
  const theirs = toHex(block.hash());
  if (theirs === ours.hashHex) return;
  const hint = number === 0n ? ' (start chain-sim with the settings, fixtures or genesis of the exported chain)' : '';
  throw new ImportError(number, `hash ${theirs} differs from this chain's block ${number} ${ours.hashHex}${hint}`);
}

async function executeBlock(vm: VM, block: Block, parent: MinedBlock, store: BlockStore): Promise<MinedBlock> {
  const { header } = block;
  const number = header.number;
  if (toHex(header.parentHash) !== parent.hashHex) {
    throw new ImportError(number, `parent hash ${toHex(header.parentHash)} is not the hash of block ${parent.number} ${parent.hashHex}`);
  }
  const problem = headerProblem(header, parent.block.header) ?? (await bodyProblem(block, store));
  if (problem) throw new ImportError(number, problem);
  const rootBefore = await vm.stateManager.getStateRoot();
  let result: RunBlockResult;
  // The contracts its transactions create, as a block mined here records them (deployments.ts).
  const deployments = new DeploymentRecorder();
  let index = 0;
  const beforeTx = () => deployments.startTransaction(index++);
  const afterTx = () => deployments.endTransaction();
  const detach = deployments.attach(vm.evm);
  vm.events.on('beforeTx', beforeTx);
  vm.events.on('afterTx', afterTx);
  try {
    result = await runBlock(vm, { block, skipBlockValidation: true, skipHardForkValidation: true });
  } catch (error) {
    await vm.stateManager.setStateRoot(rootBefore);
    throw new ImportError(number, (await diagnose(vm, block, rootBefore)) ?? clean(error));
  } finally {
    detach();
    vm.events.off('beforeTx', beforeTx);
    vm.events.off('afterTx', afterTx);
  }
  const senders = block.transactions.map((tx) => tx.getSenderAddress());
  const receipts = buildReceipts(block, senders, result.results, vm.common);
  return minedBlock(block, senders, receipts, parent.totalDifficulty + header.difficulty, undefined, deployments.found);
}

/** What a state root mismatch usually means for a file chain-sim exported. */
const STATE_ROOT_HINT =
  " (running the block on its parent's state gave another state than the block records: the chain it came from changed state outside any block, e.g. with test controls such as setBalance, setCode, setStorageAt or loadState, which a chain file cannot carry; `chain-sim export` warns about such chains)";

/**
 * runBlock names a mismatching root but not the values; run the block again generating
 * the fields, and compare them in go-ethereum's order (ValidateState) for a message with
 * both. The state is put back afterwards. Undefined if the run fails on something else.
 */
async function diagnose(vm: VM, block: Block, rootBefore: Uint8Array): Promise<string | undefined> {
  try {
    const run = await runBlock(vm, { block, generate: true, skipBlockValidation: true, skipHardForkValidation: true });
    const { header } = block;
    if (run.gasUsed !== header.gasUsed) return `gas used mismatch: have ${run.gasUsed}, want ${header.gasUsed}`;
    if (toHex(run.logsBloom) !== toHex(header.logsBloom)) return `logs bloom mismatch: have ${toHex(run.logsBloom)}, want ${toHex(header.logsBloom)}`;
    if (toHex(run.receiptsRoot) !== toHex(header.receiptTrie)) {
      return `receipts root mismatch: have ${toHex(run.receiptsRoot)}, want ${toHex(header.receiptTrie)}`;
    }
    if (run.requestsHash && header.requestsHash && toHex(run.requestsHash) !== toHex(header.requestsHash)) {
      return `requests hash mismatch: have ${toHex(run.requestsHash)}, want ${toHex(header.requestsHash)}`;
    }
    if (toHex(run.stateRoot) !== toHex(header.stateRoot))
      return `state root mismatch: have ${toHex(run.stateRoot)}, want ${toHex(header.stateRoot)}${STATE_ROOT_HINT}`;
    return undefined;
  } catch {
    return undefined;
  } finally {
    await vm.stateManager.setStateRoot(rootBefore);
  }
}

/**
 * ethereumjs appends its context ("(vm hf=… -> block number=… -> tx type=… hash=0x…)"); the
 * caller names the block already, so keep only the transaction's hash from it.
 */
function clean(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ');
  const context = /\s*\((vm hf=|block number=|block |tx )[\s\S]*\)\s*$/.exec(message);
  if (!context) return message;
  const tx = /-> tx [^>]*?hash=(0x[0-9a-f]{64})/.exec(context[0]) ?? /^\s*\(tx [^)]*?hash=(0x[0-9a-f]{64})/.exec(context[0]);
  const text = message.slice(0, context.index);
  return tx ? `transaction ${tx[1]}: ${text}` : text;
}
