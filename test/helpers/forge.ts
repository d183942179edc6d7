/**
 * forge from npm for end-to-end tests, fetched as bench/anvil.ts fetches Anvil (the platform
 * package with `npm pack` into .bench-cache/, run by path), and a project that compiles offline
 * through solc-js (the shim of /work/shared/RECIPES.md: forge wants a solc binary).
 */
import { chmodSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { foundryBinary } from '../../bench/anvil.js';

export const FORGE_VERSION = '1.7.1';
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const require = createRequire(import.meta.url);

/** The forge binary, or undefined (reason printed) when it cannot be had: the caller skips. */
export function findForge(): string | undefined {
  if (process.env.FORGE_BIN) return process.env.FORGE_BIN;
  try {
    return foundryBinary(ROOT, 'forge', FORGE_VERSION);
  } catch (error) {
    console.warn(`skipping: no forge binary (${error instanceof Error ? error.message : String(error)})`);
    return undefined;
  }
}

/** Write a foundry project into `dir` that compiles with the solc-js of node_modules; `files` are paths → sources. */
export async function writeOfflineProject(dir: string, files: Readonly<Record<string, string>>): Promise<void> {
  const solcJs = path.dirname(require.resolve('solc/package.json'));
  const version = (require('solc') as { version(): string }).version().replace(/\.Emscripten\.clang$/, '.Linux.g++');
  const shim = path.join(dir, 'solc-shim.sh');
  await writeFile(
    shim,
    `#!/bin/bash
for a in "$@"; do
  if [ "$a" = "--version" ]; then echo "solc, the solidity compiler commandline interface"; echo "Version: ${version}"; exit 0; fi
done
exec node -e '
const solc = require(${JSON.stringify(solcJs)}); const fs = require("fs"); const path = require("path");
const findImports = (p) => { const f = path.resolve(process.cwd(), p); return fs.existsSync(f) ? { contents: fs.readFileSync(f, "utf8") } : { error: "not found " + p }; };
process.stdout.write(solc.compile(fs.readFileSync(0, "utf8"), { import: findImports }));'
`,
  );
  chmodSync(shim, 0o755);
  await writeFile(
    path.join(dir, 'foundry.toml'),
    `[profile.default]\nsrc = "src"\nscript = "script"\nout = "out"\nlibs = []\noffline = true\nsolc = ${JSON.stringify(shim)}\n`,
  );
  for (const [file, source] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), source);
  }
}
