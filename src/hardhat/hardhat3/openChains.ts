/**
 * The chain-sim connections not yet closed, for a build to reload their artifacts
 * (solidityHooks.ts). A module of its own so that the build's hook loads nothing of chain-sim.
 */
export interface ReloadsArtifacts {
  reloadArtifacts(folder: string): Promise<void>;
}

export const OPEN_CHAINS = new Set<ReloadsArtifacts>();
