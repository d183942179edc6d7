import { createBlock } from '@ethereumjs/block';
import { Address, createAccount } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';

import type { MinedBlock } from './blocks.js';
import { isPostMerge } from './hardforks.js';
import { type Alloc, TrackingStateManager } from './stateDump.js';
import { toHex } from './hex.js';

export interface GenesisAccount {
  readonly address: Address;
  readonly balance: bigint;
}

export interface GenesisParams {
  readonly accounts: readonly GenesisAccount[];
  readonly gasLimit: bigint;
  readonly baseFee: bigint;
  readonly timestamp: bigint;
  readonly coinbase: Address;
  readonly extraData?: Uint8Array;
  /** More accounts, with code and storage (fixtures), written over the prefunded ones. */
  readonly alloc?: Alloc;
}

/** Writes the prefunded accounts into the VM's state and returns block 0 on top of it. */
export async function createGenesis(vm: VM, params: GenesisParams): Promise<MinedBlock> {
  const common = vm.common;
  for (const { address, balance } of params.accounts) {
    await vm.stateManager.putAccount(address, createAccount({ balance }));
  }
  if (params.alloc) await (vm.stateManager as TrackingStateManager).load(params.alloc);
  const stateRoot = await vm.stateManager.getStateRoot();
  const block = createBlock(
    {
      header: {
        number: 0n,
        gasLimit: params.gasLimit,
        timestamp: params.timestamp,
        coinbase: params.coinbase,
        extraData: params.extraData,
        stateRoot,
        difficulty: isPostMerge(common) ? 0n : 1n,
        baseFeePerGas: common.isActivatedEIP(1559) ? params.baseFee : undefined,
      },
      withdrawals: common.isActivatedEIP(4895) ? [] : undefined,
    },
    { common, skipConsensusFormatValidation: true },
  );
  const hash = block.hash();
  return {
    block,
    hash,
    hashHex: toHex(hash),
    number: 0n,
    senders: [],
    receipts: [],
    totalDifficulty: block.header.difficulty,
  };
}
