/**
 * Which contracts a block's transactions created: top-level creations and those made by
 * contracts (CREATE, CREATE2 in a call, e.g. a factory), without the ones undone by a revert
 * of their frame or of any frame around it. The block store indexes them (blocks.ts) for
 * chain_deployedContracts and the explorer's list of deployed contracts.
 *
 * Why the EVM's message events: `newContract` names each created address, `beforeMessage`
 * the frame it is created in (its caller is the creator), `afterMessage` whether that frame
 * was undone. The results' `createdAddresses` would cost nothing more, but the EVM keeps it
 * only from Cancun on (EIP-6780) and without the creator. The listeners are attached around
 * each transaction that runs in the EVM (plain transfers, which create nothing, are applied
 * without it, and a listener on `afterMessage` would send them through it: plainTransfer.ts),
 * and cost a push and a pop per call frame.
 */
import type { EVMInterface, EVMResult, Message } from '@ethereumjs/evm';
import type { Address } from '@ethereumjs/util';

/** A contract created by a block's transaction. */
export interface DeploymentRecord {
  readonly address: Address;
  /** The account whose transaction (top level) or contract (CREATE/CREATE2 in a call) created it. */
  readonly creator: Address;
  /** The creating transaction's index in its block. */
  readonly transaction: number;
}

interface Creation {
  readonly address: Address;
  readonly creator: Address;
}

/** The frames open in the transaction being run, each with how many creations came before it. */
interface Frame {
  readonly caller: Address;
  readonly mark: number;
}

/** The EVM's error a frame ends with when nothing of it is undone: Frontier's code store out of gas. */
const KEPT_ERROR = 'code store out of gas';

export class DeploymentRecorder {
  /** What the block's transactions created so far, in order. */
  readonly found: DeploymentRecord[] = [];
  private current: { readonly transaction: number; readonly creations: Creation[]; readonly frames: Frame[] } | undefined;
  private frontier = false;

  private readonly beforeMessage = (message: Message): void => {
    const current = this.current;
    if (current) current.frames.push({ caller: message.caller, mark: current.creations.length });
  };

  private readonly newContract = (event: { address: Address }): void => {
    const current = this.current;
    const frame = current?.frames.at(-1);
    if (current && frame) current.creations.push({ address: event.address, creator: frame.caller });
  };

  private readonly afterMessage = (result: EVMResult): void => {
    const current = this.current;
    const frame = current?.frames.pop();
    if (!current || !frame) return;
    const error = result.execResult.exceptionError;
    // As the EVM reverts its journal (evm.js runCall): every failure but Frontier's code store out of gas.
    if (error && !(this.frontier && error.error === KEPT_ERROR)) current.creations.length = frame.mark;
  };

  /** Listens to `evm`'s message events; returns the function that stops listening. */
  attach(evm: EVMInterface): () => void {
    this.frontier = evm.common.hardfork() === 'chainstart';
    const events = evm.events;
    if (!events) return () => {};
    events.on('beforeMessage', this.beforeMessage);
    events.on('newContract', this.newContract);
    events.on('afterMessage', this.afterMessage);
    return () => {
      events.off('beforeMessage', this.beforeMessage);
      events.off('newContract', this.newContract);
      events.off('afterMessage', this.afterMessage);
    };
  }

  /** A transaction at `index` of the block starts; creations outside one (system calls) are not recorded. */
  startTransaction(index: number): void {
    this.current = { transaction: index, creations: [], frames: [] };
  }

  /** The transaction ran and is in the block: what it created is kept. */
  endTransaction(): void {
    const current = this.current;
    this.current = undefined;
    if (!current) return;
    for (const creation of current.creations) this.found.push({ ...creation, transaction: current.transaction });
  }

  /** The transaction is not in the block (refused, or its run was given up): nothing of it is kept. */
  abandonTransaction(): void {
    this.current = undefined;
  }

  /** Runs the transaction at `index` of the block on `evm`, listening; keeps its creations if it completes. */
  async during<T>(evm: EVMInterface, index: number, run: () => Promise<T>): Promise<T> {
    const detach = this.attach(evm);
    this.startTransaction(index);
    try {
      const result = await run();
      this.endTransaction();
      return result;
    } finally {
      this.abandonTransaction();
      detach();
    }
  }
}

/**
 * The top-level creations of a block's receipts, for blocks whose internal creations were not
 * recorded (a state file saved before they were).
 */
export function deploymentsFromReceipts(
  receipts: ReadonlyArray<{ readonly from: Address; readonly contractAddress: Address | undefined; readonly status: 0 | 1 | undefined }>,
): DeploymentRecord[] {
  return receipts.flatMap((receipt, transaction) =>
    receipt.contractAddress && receipt.status !== 0 ? [{ address: receipt.contractAddress, creator: receipt.from, transaction }] : [],
  );
}
