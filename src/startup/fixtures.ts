/**
 * `--fixture FILE` (repeatable): state files written into the genesis block, so a CI run
 * starts from known accounts and deployed contracts. Later files win for an account;
 * the first file that names a chain setting (chain id, hardfork, gas limit, timestamp)
 * provides it unless the user gave it explicitly.
 */
import type { AccountState } from '../engine/index.js';
import type { ChainSimOptions } from '../options.js';
import { StatePersistenceError, readStateFile } from '../persistence/persistence.js';
import type { StateFile } from '../persistence/stateFile.js';

export interface LoadedFixtures {
  readonly alloc: Map<string, AccountState>;
  readonly privateKeys: Uint8Array[];
  readonly timestamp: bigint | undefined;
  /** Chain settings the fixtures ask for. */
  readonly settings: Pick<ChainSimOptions, 'chainId' | 'hardfork' | 'gasLimit'>;
}

export async function readFixtures(paths: readonly string[]): Promise<LoadedFixtures> {
  const files: StateFile[] = [];
  for (const path of paths) {
    const file = await readStateFile(path);
    if (!file) throw new StatePersistenceError(path, 'no such file');
    files.push(file);
  }
  const first = <K extends keyof StateFile>(key: K): StateFile[K] | undefined => files.find((f) => f[key] !== undefined)?.[key];
  const alloc = new Map<string, AccountState>();
  for (const file of files) for (const [address, account] of file.alloc) alloc.set(address, account);
  return {
    alloc,
    privateKeys: files.flatMap((f) => f.privateKeys ?? []),
    timestamp: first('timestamp'),
    settings: { chainId: first('chainId'), hardfork: first('hardfork'), gasLimit: first('gasLimit') },
  };
}
