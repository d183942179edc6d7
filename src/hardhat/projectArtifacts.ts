/**
 * Where chain-sim reads a Hardhat project's compiler output (Hardhat 2's and 3's `paths.artifacts`,
 * its build-info folder): the plugins hand it over as the `artifacts` option, rather than leave
 * chain-sim to look in the working directory, which is not the project when the artifacts go
 * elsewhere or Hardhat runs from another folder. After a recompile the plugins load the folder
 * again (chain_loadArtifacts), so that failures are explained with the new code at once.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The folder of Hardhat's build-info files (both majors write them there). */
export function buildInfoFolder(artifacts: string): string {
  return path.join(artifacts, 'build-info');
}

/**
 * chain-sim's `artifacts` option for the project: its build-info folder once something has been
 * compiled; before that, the project itself when its artifacts are in the default place (chain-sim
 * finds them there once compiled); otherwise none, until a recompile loads the folder.
 */
export function artifactsOption(root: string, artifacts: string): string | false {
  const folder = buildInfoFolder(artifacts);
  if (existsSync(folder)) return folder;
  return path.resolve(artifacts) === path.resolve(root, 'artifacts') ? path.resolve(root) : false;
}
