/**
 * Resets and forking at run time: chain_reset (hardhat_reset, anvil_reset) back to the chain's
 * start, or onto another fork point with the `forking` options decoded here, and anvil_setRpcUrl.
 */
import type { ForkRequest } from '../../../fork/controller.js';
import type { ParamPath } from '../../codec.js';
import { invalidParams } from '../../errors.js';
import { defineMethod, optionalParam, param } from '../../method.js';

function blockNumberOf(value: unknown, path: string): bigint | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|\d+)$/.test(value)) return BigInt(value);
  throw invalidParams(`invalid argument ${path}.forking.blockNumber: expected a block number, got ${JSON.stringify(value)}`);
}

/**
 * `{ forking: { jsonRpcUrl, blockNumber } }` (Hardhat, viem, Anvil; Anvil's blockNumber alone keeps
 * the URL). viem sends `{ forking: { jsonRpcUrl: undefined } }` for a plain reset: undefined then.
 */
function resetOptions(value: unknown, path: ParamPath): ForkRequest | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidParams(`invalid argument ${path}: expected an options object`);
  const forking = (value as { forking?: unknown }).forking;
  if (forking === undefined || forking === null) return undefined;
  if (typeof forking !== 'object' || Array.isArray(forking)) throw invalidParams(`invalid argument ${path}.forking: expected { jsonRpcUrl, blockNumber }`);
  const { jsonRpcUrl, blockNumber } = forking as { jsonRpcUrl?: unknown; blockNumber?: unknown };
  const number = blockNumberOf(blockNumber, path);
  if (jsonRpcUrl === undefined || jsonRpcUrl === null) return number === undefined ? undefined : { blockNumber: number };
  if (typeof jsonRpcUrl !== 'string' || !/^https?:\/\/./.test(jsonRpcUrl)) {
    throw invalidParams(`invalid argument ${path}.forking.jsonRpcUrl: expected an http(s) URL`);
  }
  return { url: jsonRpcUrl, blockNumber: number };
}

export const forkMethods = [
  defineMethod(
    { name: 'chain_reset', aliases: ['hardhat_reset', 'anvil_reset'] },
    [optionalParam('options', resetOptions)],
    async ({ chain, fork }, request) => {
      if (fork) await fork.reset(request);
      else if (request) throw invalidParams('forking is not available on this node');
      else await chain.reset();
      return true;
    },
  ),
  defineMethod(
    'anvil_setRpcUrl',
    [
      param('url', (value: unknown, path: ParamPath) => {
        if (typeof value !== 'string' || !/^https?:\/\/./.test(value)) throw invalidParams(`invalid argument ${path}: expected an http(s) URL`);
        return value;
      }),
    ],
    async ({ fork }, url) => {
      if (!fork) throw invalidParams('forking is not available on this node');
      fork.setRpcUrl(url);
      return null;
    },
  ),
];
