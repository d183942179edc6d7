/** Test controls: snapshots, mining, time travel, state setters, impersonation (with Hardhat/Anvil/Ganache names). */
import { clientVersionOf } from '../clientRules.js';
import { address, boolean, data, fixedData, hash, index, quantity, storageSlot, storageValue, uint256, uint64 } from '../codec.js';
import { encodeData, encodeQuantity } from '../encode.js';
import { invalidParams } from '../errors.js';
import type { Chain } from '../../engine/chain.js';
import { defineMethod, optionalParam, param } from '../method.js';

/** Snapshot ids: Ganache sends numbers or hex strings; accept both. */
const snapshotId = (value: unknown, path: string): number => {
  if (typeof value !== 'number') return index(value, path);
  if (!Number.isSafeInteger(value) || value < 0)
    throw invalidParams(`invalid argument ${path}: expected a non-negative integer or a hex quantity, got ${value}`);
  return value;
};

/** Seconds or counts: a QUANTITY, or a plain JSON number as Ganache and Hardhat accept. */
export const count = (value: unknown, path: string): bigint => {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw invalidParams(`invalid argument ${path}: expected a non-negative integer`);
    return BigInt(value);
  }
  return uint64(value, path);
};

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

export const controlMethods = [
  defineMethod('chain_snapshot', [], async ({ chain }) => encodeQuantity(await chain.snapshot())),
  defineMethod({ name: 'evm_snapshot', aliases: ['anvil_snapshot'] }, [], async ({ chain }) => encodeQuantity(await chain.snapshot())),
  // chain_revert keeps the snapshot for further reverts; evm_revert uses it up, as in Ganache/Hardhat.
  defineMethod('chain_revert', [param('snapshotId', snapshotId)], ({ chain }, id) => chain.revert(id, false)),
  defineMethod({ name: 'evm_revert', aliases: ['anvil_revert'] }, [param('snapshotId', snapshotId)], ({ chain }, id) => chain.revert(id, true)),

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

  defineMethod(
    {
      // Each answers the clock's whole offset in its tool's own form: a quantity here, Hardhat's
      // decimal string ("an exception", its source says), Anvil's JSON number.
      name: 'chain_increaseTime',
      answer: (offset: bigint) => encodeQuantity(offset),
      variants: [
        { name: 'evm_increaseTime', answer: (offset: bigint) => offset.toString() },
        { name: 'anvil_increaseTime', answer: (offset: bigint) => Number(offset) },
      ],
    },
    [param('seconds', count)],
    ({ chain }, seconds) => chain.increaseTime(seconds),
  ),
  defineMethod(
    { name: 'chain_setNextBlockTimestamp', aliases: ['evm_setNextBlockTimestamp', 'anvil_setNextBlockTimestamp'] },
    [param('timestamp', count)],
    async ({ chain }, timestamp) => {
      await chain.setNextBlockTimestamp(timestamp);
      return null;
    },
  ),
  defineMethod({ name: 'chain_setTime', aliases: ['evm_setTime', 'anvil_setTime'] }, [param('timestamp', count)], async ({ chain }, timestamp) => {
    await chain.setTime(timestamp);
    return true;
  }),

  defineMethod(
    { name: 'chain_setBlockTimestampInterval', aliases: ['anvil_setBlockTimestampInterval'] },
    [param('seconds', count)],
    async ({ chain }, seconds) => {
      // Timestamps must increase from block to block.
      if (seconds === 0n) throw invalidParams('invalid argument 0 (seconds): must be at least 1');
      await chain.setBlockTimestampInterval(seconds);
      return true;
    },
  ),
  defineMethod({ name: 'chain_removeBlockTimestampInterval', aliases: ['anvil_removeBlockTimestampInterval'] }, [], ({ chain }) =>
    chain.removeBlockTimestampInterval(),
  ),

  defineMethod(
    { name: 'chain_setBalance', aliases: ['hardhat_setBalance', 'anvil_setBalance', 'evm_setAccountBalance'] },
    [param('address', address), param('balance', uint256)],
    async ({ chain }, who, balance) => {
      await chain.modifyAccount(who, { balance });
      return true;
    },
  ),
  defineMethod(
    { name: 'chain_setCode', aliases: ['hardhat_setCode', 'anvil_setCode', 'evm_setAccountCode'] },
    [param('address', address), param('code', data)],
    async ({ chain }, who, code) => {
      await chain.modifyAccount(who, { code });
      return true;
    },
  ),
  defineMethod(
    { name: 'chain_setNonce', aliases: ['anvil_setNonce', 'evm_setAccountNonce'] },
    [param('address', address), param('nonce', uint64)],
    async ({ chain }, who, nonce) => {
      await chain.modifyAccount(who, { nonce });
      return true;
    },
  ),
  // Hardhat refuses to lower a nonce or to change one while the pool holds transactions; Anvil and Ganache do neither.
  defineMethod('hardhat_setNonce', [param('address', address), param('nonce', uint64)], async ({ chain }, who, nonce) => {
    await chain.raiseNonce(who, nonce);
    return true;
  }),
  defineMethod(
    { name: 'chain_setStorageAt', aliases: ['hardhat_setStorageAt', 'anvil_setStorageAt', 'evm_setAccountStorageAt'] },
    [param('address', address), param('position', storageSlot), param('value', storageValue)],
    async ({ chain }, who, slot, value) => {
      await chain.setStorageAt(who, slot, value);
      return true;
    },
  ),

  defineMethod(
    { name: 'chain_impersonateAccount', aliases: ['hardhat_impersonateAccount', 'anvil_impersonateAccount'] },
    [param('address', address)],
    async ({ chain }, who) => {
      await chain.impersonate(who);
      return true;
    },
  ),
  defineMethod(
    { name: 'chain_stopImpersonatingAccount', aliases: ['hardhat_stopImpersonatingAccount', 'anvil_stopImpersonatingAccount'] },
    [param('address', address)],
    async ({ chain }, who) => {
      await chain.stopImpersonating(who);
      return true;
    },
  ),
  defineMethod({ name: 'chain_autoImpersonateAccount', aliases: ['anvil_autoImpersonateAccount'] }, [param('enabled', boolean)], async ({ chain }, enabled) => {
    await chain.configure({ impersonateAll: enabled });
    return true;
  }),
  defineMethod({ name: 'chain_setCoinbase', aliases: ['hardhat_setCoinbase', 'anvil_setCoinbase'] }, [param('address', address)], async ({ chain }, who) => {
    await chain.configure({ coinbase: who });
    return true;
  }),
  defineMethod(
    { name: 'chain_setNextBlockBaseFeePerGas', aliases: ['hardhat_setNextBlockBaseFeePerGas', 'anvil_setNextBlockBaseFeePerGas'] },
    [param('baseFee', uint256)],
    async ({ chain }, fee) => {
      await chain.setNextBaseFee(fee);
      return true;
    },
  ),
  defineMethod(
    { name: 'chain_setPrevRandao', aliases: ['hardhat_setPrevRandao', 'anvil_setNextBlockPrevRandao'] },
    [param('prevRandao', fixedData(32))],
    async ({ chain }, value) => {
      await chain.setNextPrevRandao(value);
      return true;
    },
  ),
  defineMethod(
    { name: 'chain_setBlockGasLimit', aliases: ['evm_setBlockGasLimit', 'anvil_setBlockGasLimit'] },
    [param('gasLimit', quantity(63))],
    async ({ chain }, limit) => {
      if (limit < 5000n) throw invalidParams('invalid argument 0 (gasLimit): must be at least 5000');
      await chain.configure({ blockGasLimit: limit });
      return true;
    },
  ),
  defineMethod(
    {
      name: 'chain_dropTransaction',
      aliases: ['hardhat_dropTransaction'],
      // Anvil answers with the dropped transaction's hash, or null when it was not in the pool.
      variants: [{ name: 'anvil_dropTransaction', answer: (dropped, h) => (dropped ? h : null) }],
    },
    [param('transactionHash', hash)],
    ({ chain }, h) => chain.dropTransaction(h),
  ),
  defineMethod('anvil_dropAllTransactions', [], async ({ chain }) => {
    await chain.dropTransactions();
    return null;
  }),
  defineMethod('anvil_removePoolTransactions', [param('address', address)], async ({ chain }, who) => {
    await chain.dropTransactions(who);
    return null;
  }),

  defineMethod(
    { name: 'chain_setLoggingEnabled', aliases: ['hardhat_setLoggingEnabled', 'anvil_setLoggingEnabled'] },
    [param('enabled', boolean)],
    ({ requestLog }, enabled) => {
      requestLog.enabled = enabled;
      return true;
    },
  ),

  // What hardhat_metadata answers: tools look for this method to recognise a development node.
  defineMethod({ name: 'chain_metadata', aliases: ['hardhat_metadata', 'anvil_metadata'] }, [], ({ chain, rules, version, fork }) => ({
    clientVersion: clientVersionOf(rules, version),
    chainId: Number(chain.chainId),
    instanceId: encodeData(chain.instanceId),
    latestBlockNumber: Number(chain.head.number),
    latestBlockHash: chain.head.hashHex,
    // Hardhat's field for a forked chain (docs/forking.md).
    ...(fork?.session
      ? { forkedNetwork: { chainId: Number(fork.session.chainId), forkBlockNumber: Number(fork.session.number), forkBlockHash: fork.session.hashHex } }
      : {}),
  })),
];
