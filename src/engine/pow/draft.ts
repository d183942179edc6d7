// A proof-of-work block before and after its seal: executed with uncles and
// their rewards (the caller keeps the live state where it was until a seal
// arrives), then rebuilt with the miner's nonce and mix digest.
import { Block, type BlockHeader, createBlockHeaderFromBytesArray } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { Account } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { type MinedBlock, minedBlock } from '../blocks/blocks.js';
import { PRELOADED_PARAMS } from '../rules/hardforks.js';
import { type BlockTemplate, type MiningOutcome, mineBlock } from '../execution/blockBuilder.js';
import type { PooledTransaction } from '../transactions/txpool.js';
import { uncleRewards } from './uncles.js';

// Positions in the raw header list (every fork).
const UNCLE_HASH_INDEX = 1;
const STATE_ROOT_INDEX = 3;
const MIX_HASH_INDEX = 13;
const NONCE_INDEX = 14;

/**
 * Executes `candidates` on `vm` (whose state is the parent's; the caller rolls it back) and
 * returns the unsealed block. @ethereumjs/vm's block builder pays the block reward
 * but knows nothing of uncles, so their rewards are credited here and the state
 * root and uncle hash patched in, as go-ethereum's accumulateRewards does.
 */
export async function buildDraft(
  vm: VM,
  parent: MinedBlock,
  candidates: readonly PooledTransaction[],
  template: BlockTemplate,
  uncles: readonly BlockHeader[],
): Promise<MiningOutcome> {
  const outcome = await mineBlock(vm, parent, candidates, template);
  if (uncles.length === 0) return outcome;
  const { header } = outcome.mined.block;
  const rewards = uncleRewards(
    vm.common.param('minerReward'),
    header.number,
    uncles.map((u) => u.number),
  );
  await credit(vm, header.coinbase, rewards.includer);
  for (const [i, uncle] of uncles.entries()) await credit(vm, uncle.coinbase, rewards.uncles[i]!);
  const raw = header.raw();
  raw[UNCLE_HASH_INDEX] = keccak_256(RLP.encode(uncles.map((u) => u.raw())));
  raw[STATE_ROOT_INDEX] = await vm.stateManager.getStateRoot();
  return withHeader(outcome, raw, uncles, vm.common);
}

/** The draft with its seal: same contents, so the same seal hash, but a new block hash. */
export function sealDraft(draft: MiningOutcome, nonce: Uint8Array, mixDigest: Uint8Array, common: Common): MiningOutcome {
  const raw = draft.mined.block.header.raw();
  raw[MIX_HASH_INDEX] = mixDigest;
  raw[NONCE_INDEX] = nonce;
  return withHeader(draft, raw, draft.mined.block.uncleHeaders, common);
}

async function credit(vm: VM, address: BlockHeader['coinbase'], amount: bigint): Promise<void> {
  const account = (await vm.stateManager.getAccount(address)) ?? new Account();
  account.balance += amount;
  await vm.stateManager.putAccount(address, account);
}

function withHeader(outcome: MiningOutcome, raw: Uint8Array[], uncles: readonly BlockHeader[], common: Common): MiningOutcome {
  const opts = { common, skipConsensusFormatValidation: true, params: PRELOADED_PARAMS };
  const { block: old } = outcome.mined;
  // The Block constructor keeps the transaction objects as they are (impersonated senders included).
  const block = new Block(createBlockHeaderFromBytesArray(raw, opts), [...old.transactions], [...uncles], old.withdrawals, opts);
  const { senders, receipts, totalDifficulty } = outcome.mined;
  const { preStateRoot, deployments } = outcome.mined;
  return { ...outcome, mined: minedBlock(block, senders, receipts, totalDifficulty, preStateRoot, deployments) };
}
