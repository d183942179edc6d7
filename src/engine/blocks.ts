import type { Block } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import { Address } from '@ethereumjs/util';
import { toHex } from './hex.js';

export interface LogRecord {
  readonly address: Address;
  readonly topics: readonly Uint8Array[];
  readonly data: Uint8Array;
  /** Position of the log in its block (block-wide, as go-ethereum counts). */
  readonly logIndex: number;
}

export interface ReceiptRecord {
  readonly type: number;
  readonly from: Address;
  readonly to: Address | undefined;
  readonly contractAddress: Address | undefined;
  readonly gasUsed: bigint;
  readonly cumulativeGasUsed: bigint;
  /** 1 success, 0 failure; undefined before Byzantium, where `root` is set instead. */
  readonly status: 0 | 1 | undefined;
  readonly root: Uint8Array | undefined;
  readonly logs: readonly LogRecord[];
  readonly logsBloom: Uint8Array;
  readonly effectiveGasPrice: bigint;
  readonly blobGasUsed: bigint | undefined;
  readonly blobGasPrice: bigint | undefined;
}

/** A block as the node keeps it: the block, who sent each transaction, and its receipts. */
export interface MinedBlock {
  readonly block: Block;
  readonly hash: Uint8Array;
  readonly hashHex: string;
  readonly number: bigint;
  readonly senders: readonly Address[];
  readonly receipts: readonly ReceiptRecord[];
  readonly totalDifficulty: bigint;
}

export interface TransactionLocation {
  readonly mined: MinedBlock;
  readonly index: number;
}

/**
 * The canonical chain in memory: blocks by number and hash, and a
 * transaction-hash index. Appends and truncations are synchronous, so a
 * reader never sees a half-added block.
 */
export class BlockStore {
  private readonly chain: MinedBlock[] = [];
  private readonly byHash = new Map<string, MinedBlock>();
  private readonly txIndex = new Map<string, TransactionLocation>();

  get head(): MinedBlock {
    const head = this.chain[this.chain.length - 1];
    if (!head) throw new Error('block store is empty: genesis not added');
    return head;
  }

  get headNumber(): bigint {
    return BigInt(this.chain.length - 1);
  }

  append(mined: MinedBlock): void {
    if (mined.number !== BigInt(this.chain.length)) {
      throw new Error(`block ${mined.number} does not follow head ${this.chain.length - 1}`);
    }
    this.chain.push(mined);
    this.byHash.set(mined.hashHex, mined);
    // Empty blocks may be built lazily: do not make them materialise their body.
    if (mined.senders.length === 0) return;
    mined.block.transactions.forEach((tx: TypedTransaction, index: number) => {
      this.txIndex.set(toHex(tx.hash()), { mined, index });
    });
  }

  /** Drop every block above `number`; returns the dropped blocks, oldest first. */
  truncateAbove(number: bigint): MinedBlock[] {
    const keep = Number(number) + 1;
    const dropped = this.chain.splice(keep);
    for (const mined of dropped) {
      this.byHash.delete(mined.hashHex);
      if (mined.senders.length === 0) continue;
      for (const tx of mined.block.transactions) this.txIndex.delete(toHex(tx.hash()));
    }
    return dropped;
  }

  byNumber(number: bigint): MinedBlock | undefined {
    if (number < 0n || number >= BigInt(this.chain.length)) return undefined;
    return this.chain[Number(number)];
  }

  byHashHex(hashHex: string): MinedBlock | undefined {
    return this.byHash.get(hashHex.toLowerCase());
  }

  transaction(hashHex: string): TransactionLocation | undefined {
    return this.txIndex.get(hashHex.toLowerCase());
  }

  /** The EVM asks for ancestors' hashes (BLOCKHASH); serve them from memory. */
  asEvmBlockchain(): EVMMockBlockchainInterface {
    const source: EVMMockBlockchainInterface = {
      getBlock: async (blockId: number) => {
        const mined = this.byNumber(BigInt(blockId));
        const hash = mined ? mined.hash : new Uint8Array(32);
        return { hash: () => hash };
      },
      putBlock: async () => {},
      shallowCopy: () => source,
    };
    return source;
  }
}
