/**
 * A failed execution as Hardhat's network reports it (its SolidityError has this shape): the
 * message Hardhat gives, the revert payload, the transaction's hash for a send, and no `code`.
 * A module of its own, so that chain-sim/hardhat can export it without loading the engine.
 */
export class HardhatRevertError extends Error {
  constructor(
    message: string,
    /** The revert payload (0x hex): the chai matchers decode it. */
    readonly data: string,
    readonly transactionHash: string | undefined,
  ) {
    super(message);
  }
}
