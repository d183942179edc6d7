/** A Hardhat 3 network connection on chain-sim: Hardhat's connection's name, config and id, chain-sim's provider. */
import type { NetworkConnection } from './types.js';

export class ChainSimConnection implements NetworkConnection {
  provider: unknown;

  constructor(
    readonly id: number,
    readonly networkName: string,
    readonly networkConfig: NetworkConnection['networkConfig'],
    readonly chainType: string,
    private readonly closing: (connection: ChainSimConnection) => Promise<void>,
  ) {
    this.close = this.close.bind(this);
  }

  async close(): Promise<void> {
    await this.closing(this);
  }
}
