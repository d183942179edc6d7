/** A JavaScript proof-of-work miner for tests: chain_getWork → mineSeal → chain_submitWork. */
import { expect } from 'chai';
import { mineSeal } from '../../src/engine/pow/ethash.js';
import { epoch0Cache } from '../engine/pow/helpers.js';
import { type Rpc, newNode } from './chain.js';
import type { ChainSimOptions } from '../../src/index.js';

export interface Solution {
  readonly powHash: string;
  readonly nonce: string;
  readonly mixDigest: string;
}

export const toHex = (bytes: Uint8Array): string => `0x${Buffer.from(bytes).toString('hex')}`;
export const fromHex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text.slice(2), 'hex'));

/** The difficulty a boundary stands for (2^256 / boundary). */
export function difficultyOf(boundary: string): bigint {
  return (1n << 256n) / BigInt(boundary);
}

/** A pow-mode node whose Ethash store reads the epoch-0 cache file the test fixture wrote. */
export async function newPowNode(options: ChainSimOptions = {}): Promise<ReturnType<typeof newNode>> {
  const { dir } = await epoch0Cache();
  return newNode({ mining: 'pow', hardfork: undefined, difficulty: 4, ethashCacheDir: dir, ...options });
}

/** Solve the current work (epoch 0: tests stay far below block 30000). */
export async function solveWork(rpc: Rpc, startNonce = 0n): Promise<Solution> {
  const [powHash, , boundary] = await rpc<[string, string, string]>('chain_getWork');
  const { cache } = await epoch0Cache();
  const seal = mineSeal(cache, 0, fromHex(powHash), difficultyOf(boundary), { startNonce });
  expect(seal, 'a seal within the miner attempt limit').to.not.equal(undefined);
  return { powHash, nonce: toHex(seal!.nonce), mixDigest: toHex(seal!.mixDigest) };
}

export function submit(rpc: Rpc, s: Solution): Promise<boolean> {
  return rpc<boolean>('chain_submitWork', [s.nonce, s.powHash, s.mixDigest]);
}

/** Solve and submit the current work; the block is sealed. */
export async function mineOne(rpc: Rpc): Promise<Solution> {
  const solution = await solveWork(rpc);
  expect(await submit(rpc, solution), 'submitWork of a valid solution').to.equal(true);
  return solution;
}
