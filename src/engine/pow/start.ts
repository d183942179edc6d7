// Assembles proof-of-work mode for a node: the Ethash cache store and the sealer.
import type { Chain } from '../chain.js';
import { EthashCacheStore } from './cacheStore.js';
import { CpuMiner } from './cpuMiner.js';
import type { DifficultySetting } from './difficulty.js';
import { PowSealer } from './sealer.js';

export interface PowStartOptions {
  readonly difficulty: DifficultySetting;
  /** Threads of the built-in CPU miner; 0 leaves mining to external miners. */
  readonly minerThreads: number;
  /** Cache file directory; undefined: the default (~/.cache/chain-sim/ethash), null: none. */
  readonly ethashCacheDir: string | null | undefined;
  readonly wallClock: (() => number) | undefined;
  readonly logger: (line: string) => void;
}

export function startPow(chain: Chain, options: PowStartOptions): PowSealer {
  const cacheStore = new EthashCacheStore({
    dir: options.ethashCacheDir,
    onWarning: (message) => options.logger(`chain-sim: ${message}`),
  });
  const sealer = new PowSealer(chain, { difficulty: options.difficulty, cacheStore, wallClock: options.wallClock });
  if (options.minerThreads > 0) {
    const miner = new CpuMiner(chain, sealer, cacheStore, options.minerThreads, options.wallClock, (error) =>
      options.logger(`chain-sim: built-in miner: ${error instanceof Error ? error.message : String(error)}`),
    );
    miner.start();
    sealer.onClose(() => miner.stop());
  }
  return sealer;
}
