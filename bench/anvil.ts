// Anvil for the bench, from the npm registry. The @foundry-rs/anvil wrapper cannot be a
// devDependency (its lock entries for other platforms are missing, which breaks `npm ci`),
// so the platform package is fetched once with `npm pack` into .bench-cache/ and its
// binary run directly. ANVIL_BIN overrides this with any other anvil build.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';

export const ANVIL_VERSION = '1.7.1';

const PLATFORMS: Readonly<Record<string, string>> = {
  'linux-x64': 'linux-amd64',
  'linux-arm64': 'linux-arm64',
  'darwin-x64': 'darwin-amd64',
  'darwin-arm64': 'darwin-arm64',
};

export function anvilBinary(root: string): string {
  return process.env.ANVIL_BIN ?? foundryBinary(root, 'anvil', ANVIL_VERSION);
}

/**
 * A Foundry tool's binary from its npm platform package, fetched once with `npm pack` into
 * .bench-cache/. Fetched and unpacked in a folder of this process's own, then renamed into
 * place: the test files run in parallel processes, and one of them ran the binary while
 * another was still writing it (ETXTBSY).
 */
export function foundryBinary(root: string, tool: 'anvil' | 'forge', version: string): string {
  const platform = PLATFORMS[`${process.platform}-${process.arch}`];
  if (!platform) throw new Error(`no ${tool} package for ${process.platform}-${process.arch}; set ${tool.toUpperCase()}_BIN`);
  const name = `${tool}-${platform}`;
  const dir = path.join(root, '.bench-cache', `${name}-${version}`);
  const binary = path.join(dir, 'package', 'bin', tool);
  if (existsSync(binary)) return binary;
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  try {
    const tarball = execFileSync('npm', ['pack', `@foundry-rs/${name}@${version}`, '--silent', '--pack-destination', partial], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
      .trim()
      .split('\n')
      .pop()!;
    execFileSync('tar', ['-xzf', path.join(partial, tarball), '-C', partial]);
    chmodSync(path.join(partial, 'package', 'bin', tool), 0o755);
    try {
      renameSync(partial, dir);
    } catch (error) {
      // Another process put it in place meanwhile (kept), or a folder was left without the binary (replaced).
      if (!existsSync(binary)) {
        if (!existsSync(dir)) throw error;
        rmSync(dir, { recursive: true, force: true });
        renameSync(partial, dir);
      }
    }
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  return binary;
}
