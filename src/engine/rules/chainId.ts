/**
 * Anvil's anvil_setChainId: later signatures, CHAINID, eth_chainId and net_version use the new
 * id. ethereumjs keeps the chain id in a Common's chain parameters, an object that every copy of
 * the Common shares (Common.copy is shallow): the transactions and blocks built so far hold such
 * copies, and a legacy EIP-155 transaction's signing hash (its sender, if recovered again) uses its
 * Common's id. So the live Commons get a new parameter object instead of a change to the shared
 * one, and what was built before keeps the id it was built with.
 */
import type { Common } from '@ethereumjs/common';

interface ChainParams {
  _chainParams: { chainId: number | bigint };
}

/** Give each of `commons` (the live VM's, the next block's) the chain id `chainId`. */
export function setChainIdOf(commons: readonly Common[], chainId: bigint): void {
  const stored = chainId <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(chainId) : chainId;
  for (const common of new Set(commons)) {
    const params = common as unknown as ChainParams;
    params._chainParams = { ...params._chainParams, chainId: stored };
  }
}
