/**
 * Hardhat 3's `solidity` hooks for chain-sim: after a successful build, every open chain-sim
 * connection reads the project's build-info again, so that failures are explained (custom errors,
 * Solidity stack traces) with the code just compiled.
 */
import { buildInfoFolder } from '../projectArtifacts.js';
import { OPEN_CHAINS } from './openChains.js';
import type { HookContext } from './types.js';

export default async () => ({
  async processArtifactsAfterSuccessfulBuild(context: HookContext): Promise<void> {
    const { artifacts } = context.config.paths;
    if (artifacts === undefined) return;
    await Promise.all([...OPEN_CHAINS].map((provider) => provider.reloadArtifacts(buildInfoFolder(artifacts))));
  },
});
