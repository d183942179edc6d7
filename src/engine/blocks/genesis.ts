import { type Block, createBlock } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { type Address, createAccount } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';

import { type MinedBlock, minedBlock } from './blocks.js';
import { isPostMerge } from '../rules/hardforks.js';
import type { Alloc, TrackingStateManager } from '../state/stateDump.js';

export interface GenesisAccount {
  readonly address: Address;
  readonly balance: bigint;
}

/** Every header field a go-ethereum genesis file can set (the rest follow from the genesis fork). */
export interface GenesisHeader {
  readonly timestamp: bigint;
  readonly gasLimit: bigint;
  readonly difficulty: bigint;
  /** 8 bytes. */
  readonly nonce: Uint8Array;
  readonly mixHash: Uint8Array;
  readonly parentHash: Uint8Array;
  readonly coinbase: Address;
  readonly extraData: Uint8Array;
  readonly gasUsed: bigint;
  /** From London; go-ethereum's initial base fee (1 gwei) when absent. */
  readonly baseFeePerGas?: bigint;
  readonly excessBlobGas?: bigint;
  readonly blobGasUsed?: bigint;
}

export interface GenesisParams {
  readonly accounts: readonly GenesisAccount[];
  readonly gasLimit: bigint;
  readonly baseFee: bigint;
  readonly timestamp: bigint;
  readonly coinbase: Address;
  /** The genesis block's number (Anvil's --number); 0 unless given. */
  readonly number?: bigint;
  readonly extraData?: Uint8Array;
  /** More accounts, with code and storage (fixtures), written over the prefunded ones. */
  readonly alloc?: Alloc;
  /** A genesis file's header: it replaces the fields above (but for the state). */
  readonly header?: GenesisHeader;
}

/** Writes the prefunded accounts into the VM's state and returns the genesis block on top of it. */
export async function createGenesis(vm: VM, params: GenesisParams): Promise<MinedBlock> {
  const common = vm.common;
  for (const { address, balance } of params.accounts) {
    await vm.stateManager.putAccount(address, createAccount({ balance }));
  }
  if (params.alloc) await (vm.stateManager as TrackingStateManager).load(params.alloc);
  const stateRoot = await vm.stateManager.getStateRoot();
  const block = params.header
    ? fileGenesisBlock(common, params.header, stateRoot)
    : createBlock(
        {
          header: {
            number: params.number ?? 0n,
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
  return minedBlock(block, [], [], block.header.difficulty);
}

/**
 * Block 0 as go-ethereum builds it from a genesis file (core/genesis.go toBlockWithRoot):
 * the file's fields, then what the genesis fork adds (base fee from London, the empty
 * withdrawals root from Shanghai, blob gas and a zero beacon root from Cancun, the empty
 * requests hash from Prague; the ethereumjs header defaults for those are the same values).
 */
function fileGenesisBlock(common: Common, header: GenesisHeader, stateRoot: Uint8Array): Block {
  const cancun = common.isActivatedEIP(4844);
  if (!cancun && (header.excessBlobGas !== undefined || header.blobGasUsed !== undefined)) {
    throw new Error('excessBlobGas and blobGasUsed need Cancun active at genesis');
  }
  return createBlock(
    {
      header: {
        number: 0n,
        parentHash: header.parentHash,
        timestamp: header.timestamp,
        gasLimit: header.gasLimit,
        gasUsed: header.gasUsed,
        difficulty: header.difficulty,
        nonce: header.nonce,
        mixHash: header.mixHash,
        coinbase: header.coinbase,
        extraData: header.extraData,
        stateRoot,
        baseFeePerGas: common.isActivatedEIP(1559) ? (header.baseFeePerGas ?? INITIAL_BASE_FEE) : undefined,
        excessBlobGas: cancun ? (header.excessBlobGas ?? 0n) : undefined,
        blobGasUsed: cancun ? (header.blobGasUsed ?? 0n) : undefined,
      },
      withdrawals: common.isActivatedEIP(4895) ? [] : undefined,
    },
    { common, skipConsensusFormatValidation: true },
  );
}

/** go-ethereum's params.InitialBaseFee. */
const INITIAL_BASE_FEE = 1_000_000_000n;
