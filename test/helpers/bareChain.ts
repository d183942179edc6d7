/**
 * A VM on chain-sim's own state manager and trie, with a genesis block, and no node around it:
 * for engine tests that mine blocks two ways with mineBlock and compare them.
 */
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches } from '@ethereumjs/statemanager';
import { type Address, ValueEncoding, createZeroAddress } from '@ethereumjs/util';
import { type VM, createVM } from '@ethereumjs/vm';
import type { MinedBlock } from '../../src/engine/blocks/blocks.js';
import { createGenesis } from '../../src/engine/blocks/genesis.js';
import { createChainCommon } from '../../src/engine/rules/hardforks.js';
import { TrackingStateManager } from '../../src/engine/state/stateDump.js';
import { TrieNodeDB } from '../../src/engine/state/trieDb.js';

const GWEI = 1_000_000_000n;

/** Chain 1337 on `hardfork`: `accounts` funded at genesis (gas limit 30M, base fee 1 gwei, a fixed timestamp, the zero coinbase). */
export async function bareChain(hardfork: string, accounts: ReadonlyArray<{ address: Address; balance: bigint }>): Promise<{ vm: VM; genesis: MinedBlock }> {
  const common = createChainCommon(1337n, hardfork);
  const stateManager = new TrackingStateManager({
    common,
    caches: new Caches(),
    trie: new MerklePatriciaTrie({ useKeyHashing: true, common, db: new TrieNodeDB(), valueEncoding: ValueEncoding.Bytes }),
  });
  const vm = await createVM({ common, stateManager });
  const genesis = await createGenesis(vm, {
    accounts: [...accounts],
    gasLimit: 30_000_000n,
    baseFee: GWEI,
    timestamp: 1_700_000_000n,
    coinbase: createZeroAddress(),
  });
  return { vm, genesis };
}
