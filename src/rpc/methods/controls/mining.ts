/**
 * Mining controls: blocks on demand (chain_mine with Hardhat's, Anvil's and Ganache's names, and
 * Anvil's forms that answer the blocks mined), automine, interval mining, and go-ethereum's
 * miner_start / miner_stop.
 */
import type { Chain } from '../../../engine/chain.js';
import { boolean, count, uint64 } from '../../codec.js';
import { invalidParams } from '../../errors.js';
import { formatBlock } from '../../format.js';
import type { Json } from '../../json.js';
import { defineMethod, optionalParam, param } from '../../method.js';

/** evm_mine's optional argument: a timestamp, or Ganache's { timestamp, blocks } object. */
const mineOptions = (value: unknown, path: string): { timestamp?: bigint; blocks?: bigint } => {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const fields = value as Record<string, unknown>;
    return {
      timestamp: fields.timestamp === undefined ? undefined : count(fields.timestamp, `${path}.timestamp`),
      blocks: fields.blocks === undefined ? undefined : count(fields.blocks, `${path}.blocks`),
    };
  }
  return { timestamp: count(value, path) };
};

const MAX_TIMER_MS = 2n ** 31n - 1n;

/** An interval in milliseconds for setInterval, whose longest is 2^31-1 ms (longer would silently become 1 ms). */
function timerMs(value: bigint, name: string, msPerUnit: bigint): number {
  if (value * msPerUnit > MAX_TIMER_MS) {
    throw invalidParams(`invalid argument 0 (${name}): at most ${MAX_TIMER_MS / msPerUnit} (about 24.8 days)`);
  }
  return Number(value * msPerUnit);
}

async function anvilIntervalMining(chain: Chain, seconds: bigint): Promise<void> {
  await chain.setIntervalMiningOnly(timerMs(seconds, 'seconds', 1000n));
}

export const miningMethods = [
  // Anvil's: the clock jumps `interval` seconds before each block (and stays ahead), so the first
  // block is already `interval` after the clock's time; without one, as chain_mine.
  defineMethod('anvil_mine', [optionalParam('blocks', count), optionalParam('interval', count)], async ({ chain }, blocks, interval) => {
    const n = blocks ?? 1n;
    if (!interval || n === 0n) {
      await chain.mineMany(n, interval);
      return null;
    }
    await chain.mineManyAhead(n, interval);
    return null;
  }),
  defineMethod(
    // What each tool answers: null (as Anvil), Hardhat's true.
    { name: 'chain_mine', variants: [{ name: 'hardhat_mine', answer: () => true }] },
    [optionalParam('blocks', count), optionalParam('interval', count)],
    async ({ chain }, blocks, interval) => {
      await chain.mineMany(blocks ?? 1n, interval);
      return null;
    },
  ),
  defineMethod('evm_mine', [optionalParam('timestamp', mineOptions)], async ({ chain }, options) => {
    // A timestamp of 0 means none, as in Hardhat (and Ganache, which tests it for truth).
    const timestamp = options?.timestamp === 0n ? undefined : options?.timestamp;
    await chain.mineMany(options?.blocks ?? 1n, undefined, timestamp);
    return '0x0';
  }),
  defineMethod({ name: 'chain_getAutomine', aliases: ['hardhat_getAutomine', 'anvil_getAutomine'] }, [], ({ chain }) => chain.automine),
  defineMethod({ name: 'chain_setAutomine', aliases: ['evm_setAutomine', 'anvil_setAutomine'] }, [param('enabled', boolean)], async ({ chain }, enabled) => {
    await chain.setAutomine(enabled);
    return true;
  }),
  // Hardhat's semantics (milliseconds; automine stays as it is).
  defineMethod('chain_setIntervalMining', [param('milliseconds', count)], async ({ chain }, ms) => {
    await chain.setIntervalMining(timerMs(ms, 'milliseconds', 1n));
    return true;
  }),
  // Anvil's: seconds, and one mining mode, so an interval turns automine off (0: no mining at all).
  defineMethod('anvil_setIntervalMining', [param('seconds', count)], async ({ chain }, seconds) => {
    await anvilIntervalMining(chain, seconds);
    return null;
  }),
  // Both tools serve this name, Hardhat in milliseconds, Anvil in seconds (viem sends each its
  // own): the rules of the tool whose own methods this node was last called by (RpcContext.dialect).
  defineMethod('evm_setIntervalMining', [param('interval', count)], async ({ chain, dialect }, interval) => {
    if (dialect?.current === 'anvil') {
      await anvilIntervalMining(chain, interval);
      return null;
    }
    await chain.setIntervalMining(timerMs(interval, 'milliseconds', 1n));
    return true;
  }),
  // In proof-of-work mode they start and stop handing out work (and the built-in miner).
  defineMethod('miner_start', [optionalParam('threads', count)], async ({ chain, pow }) => {
    if (pow) pow.start();
    else await chain.setAutomine(true);
    return true;
  }),
  defineMethod('miner_stop', [], async ({ chain, pow }) => {
    pow?.stop();
    await chain.setAutomine(false);
    await chain.setIntervalMining(0);
    return true;
  }),
  // Anvil answers seconds, or null without interval mining.
  defineMethod('anvil_getIntervalMining', [], ({ chain }) => (chain.intervalMs === undefined ? null : Math.max(1, Math.round(chain.intervalMs / 1000)))),
  // evm_mine / anvil_mine that answer the blocks they mined, with their transactions (Anvil).
  ...(['anvil_mine_detailed', 'evm_mine_detailed'] as const).map((name) =>
    defineMethod(name, [optionalParam('timestamp', uint64)], async ({ chain }, timestamp) => {
      const before = chain.head.number;
      await chain.mineMany(1n, undefined, timestamp === 0n ? undefined : timestamp);
      const mined: Json[] = [];
      for (let n = before + 1n; n <= chain.head.number; n++) mined.push(formatBlock(chain.resolve({ number: n }), true));
      return mined;
    }),
  ),
];
