/**
 * Where compiler output is on disk: the folders of a Hardhat project (artifacts/build-info/),
 * of a Foundry project (out/, with out/build-info/), a folder of solc standard-JSON files, or
 * one such file. Listing reads directory entries and file sizes only; the files themselves are
 * parsed when something needs them (registry.ts).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** A path given to --artifacts or chain_loadArtifacts that holds no compiler output chain-sim reads. */
export class ArtifactsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArtifactsError';
  }
}

/** What one parse reads: a JSON file, or Hardhat 3's build-info pair (input part, output part). */
export interface ArtifactUnit {
  readonly files: readonly string[];
  /** Changes when any of its files changes (modification time and size). */
  readonly signature: string;
}

const HARDHAT_CONFIGS = ['hardhat.config.js', 'hardhat.config.ts', 'hardhat.config.cjs', 'hardhat.config.mjs', 'hardhat.config.cts', 'hardhat.config.mts'];

/** The project folders of `cwd` that may hold artifacts (a Hardhat or a Foundry project's), found by their config files. */
export function detectProjects(cwd: string): string[] {
  const found: string[] = [];
  if (HARDHAT_CONFIGS.some((name) => existsSync(path.join(cwd, name)))) found.push(cwd);
  else if (existsSync(path.join(cwd, 'foundry.toml'))) found.push(cwd);
  return found;
}

/** Refuses a path that does not exist or holds no compiler output (for paths the user named). */
export function checkArtifactPath(given: string, resolved: string): void {
  if (!existsSync(resolved)) throw new ArtifactsError(`artifacts: no such file or directory: ${given}`);
  if (statSync(resolved).isDirectory() && listUnits(resolved).length === 0 && !isProject(resolved)) {
    throw new ArtifactsError(noOutput(given));
  }
}

export function noOutput(given: string): string {
  return `artifacts: ${given} holds no compiler output (expected a Hardhat project or its artifacts/build-info, a Foundry project or its out/, or solc standard-JSON files)`;
}

function isProject(dir: string): boolean {
  return detectProjects(dir).length > 0;
}

/** The units under `root`, in a stable order (later ones are newer builds where names sort by time). */
export function listUnits(root: string): ArtifactUnit[] {
  const stat = statOrUndefined(root);
  if (!stat) return [];
  if (!stat.isDirectory()) return [unit([root])];
  const hardhat = path.join(root, 'artifacts', 'build-info');
  if (existsSync(hardhat) || HARDHAT_CONFIGS.some((name) => existsSync(path.join(root, name)))) return jsonFolderUnits(hardhat);
  if (existsSync(path.join(root, 'foundry.toml'))) return foundryUnits(path.join(root, foundryOut(root)));
  if (hasSolFolders(root)) return foundryUnits(root);
  if (existsSync(path.join(root, 'build-info'))) return jsonFolderUnits(path.join(root, 'build-info'));
  return jsonFolderUnits(root);
}

/** foundry.toml's `out` (default "out"). */
function foundryOut(root: string): string {
  try {
    const match = /^\s*out\s*=\s*["']([^"']+)["']/m.exec(readFileSync(path.join(root, 'foundry.toml'), 'utf8'));
    return match?.[1] ?? 'out';
  } catch {
    return 'out';
  }
}

function hasSolFolders(dir: string): boolean {
  return entries(dir).some((entry) => entry.isDirectory() && entry.name.endsWith('.sol'));
}

/** Foundry's out/: build-info files, and the per-contract artifacts in its `<File>.sol/` folders. */
function foundryUnits(out: string): ArtifactUnit[] {
  const units = jsonFolderUnits(path.join(out, 'build-info'));
  const walk = (dir: string, depth: number) => {
    for (const entry of entries(dir)) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < 4 && !(depth === 0 && entry.name === 'build-info')) walk(full, depth + 1);
      } else if (depth > 0 && entry.name.endsWith('.json')) {
        units.push(unit([full]));
      }
    }
  };
  walk(out, 0);
  return units;
}

/** The JSON files of a folder; Hardhat 3's `<id>.json` and `<id>.output.json` as one unit. */
function jsonFolderUnits(dir: string): ArtifactUnit[] {
  const names = entries(dir)
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => entry.name)
    .sort();
  const present = new Set(names);
  const units: ArtifactUnit[] = [];
  for (const name of names) {
    if (name.endsWith('.output.json')) {
      const input = `${name.slice(0, -'.output.json'.length)}.json`;
      units.push(unit(present.has(input) ? [path.join(dir, input), path.join(dir, name)] : [path.join(dir, name)]));
    } else if (!present.has(`${name.slice(0, -'.json'.length)}.output.json`)) {
      units.push(unit([path.join(dir, name)]));
    }
  }
  return units;
}

function unit(files: string[]): ArtifactUnit {
  return { files, signature: files.map((file) => statSignature(file)).join('|') };
}

function statSignature(file: string): string {
  const stat = statOrUndefined(file);
  return stat ? `${stat.mtimeMs}:${stat.size}` : 'missing';
}

function statOrUndefined(file: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

function entries(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** The folders and files a node starts with: the paths given (each checked now), or the working directory's project. */
export function startupRoots(setting: { readonly paths: readonly string[]; readonly detect: boolean }, cwd = process.cwd()): string[] {
  if (!setting.detect) {
    return setting.paths.map((given) => {
      const resolved = path.resolve(cwd, given);
      checkArtifactPath(given, resolved);
      return resolved;
    });
  }
  return detectProjects(cwd);
}
