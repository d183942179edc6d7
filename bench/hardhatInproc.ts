// Hardhat 2's in-process network (EDR), as a test process gets it, for the bench's
// `hardhat-inproc` target (bench/targets.ts) and the CPU probe (bench/inprocCpu.ts).
//
// Hardhat's runtime environment is a per-process singleton: `require('hardhat')` reads the
// config of the current directory once and caches it. So the runtime is loaded once, and each
// network is a new provider from Hardhat's own `createProvider` (what `hre.network.provider`
// calls lazily on its first request): a fresh chain every time, none shared between starts.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Eip1193Provider } from './rpc.js';

interface HardhatRuntime {
  readonly config: unknown;
  readonly artifacts: unknown;
}

type CreateProvider = (config: unknown, networkName: string, artifacts?: unknown) => Promise<Eip1193Provider>;

let loaded: { configPath: string; hre: HardhatRuntime; createProvider: CreateProvider } | undefined;

/**
 * Loads Hardhat's runtime from the project whose config is `configPath` (see hardhatProject in
 * bench/targets.ts), once per process. Hardhat finds its config from the current directory, so
 * this changes into the project for the `require` and changes back: the other targets use
 * absolute paths, and nothing of Hardhat's reads the directory afterwards (its config paths are
 * absolute once resolved).
 */
function hardhatRuntime(configPath: string): { hre: HardhatRuntime; createProvider: CreateProvider } {
  if (loaded !== undefined) {
    if (loaded.configPath !== configPath) throw new Error(`Hardhat is already loaded from ${loaded.configPath} in this process`);
    return loaded;
  }
  const previous = process.cwd();
  process.env.HARDHAT_DISABLE_TELEMETRY_PROMPT = 'true';
  process.chdir(path.dirname(configPath));
  try {
    // Resolved from the project (its node_modules symlink): Hardhat refuses to run otherwise.
    const require = createRequire(configPath);
    const hre = require('hardhat') as HardhatRuntime;
    const { createProvider } = require('hardhat/internal/core/providers/construction') as { createProvider: CreateProvider };
    loaded = { configPath, hre, createProvider };
    return loaded;
  } finally {
    process.chdir(previous);
  }
}

/** Loads the runtime (first call only) without creating a network: the import cost, paid once per test process. */
export function loadHardhat(configPath: string): void {
  hardhatRuntime(configPath);
}

/**
 * A new Hardhat network provider on a fresh chain (genesis, the config's accounts). It has no
 * close method and starts nothing that runs on its own (no interval mining is configured): once
 * unreferenced, it is collected.
 */
export async function newHardhatNetwork(configPath: string): Promise<Eip1193Provider> {
  const { hre, createProvider } = hardhatRuntime(configPath);
  return createProvider(hre.config, 'hardhat', hre.artifacts);
}
