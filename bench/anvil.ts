// Anvil for the bench, from the npm registry. The @foundry-rs/anvil wrapper cannot be a
// devDependency (its lock entries for other platforms are missing, which breaks `npm ci`),
// so the platform package is fetched once with `npm pack` into .bench-cache/ and its
// binary run directly. ANVIL_BIN overrides this with any other anvil build.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export const ANVIL_VERSION = '1.7.1';

const PLATFORM_PACKAGES: Readonly<Record<string, string>> = {
  'linux-x64': 'anvil-linux-amd64',
  'linux-arm64': 'anvil-linux-arm64',
  'darwin-x64': 'anvil-darwin-amd64',
  'darwin-arm64': 'anvil-darwin-arm64',
};

export function anvilBinary(root: string): string {
  if (process.env.ANVIL_BIN) return process.env.ANVIL_BIN;
  const name = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`];
  if (!name) throw new Error(`no anvil package for ${process.platform}-${process.arch}; set ANVIL_BIN`);
  const dir = path.join(root, '.bench-cache', `${name}-${ANVIL_VERSION}`);
  const binary = path.join(dir, 'package', 'bin', 'anvil');
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true });
    const tarball = execFileSync('npm', ['pack', `@foundry-rs/${name}@${ANVIL_VERSION}`, '--silent', '--pack-destination', dir], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
      .trim()
      .split('\n')
      .pop()!;
    execFileSync('tar', ['-xzf', path.join(dir, tarball), '-C', dir]);
    chmodSync(binary, 0o755);
  }
  return binary;
}
