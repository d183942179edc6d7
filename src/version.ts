/**
 * chain-sim's version, from its package.json. This file stays at the top of src/ on purpose: the
 * path is relative to the compiled module, and dist/src/version.js and the CLI's bundle
 * (dist/bundle/cli.cjs) sit at the same depth below the package's root.
 */
import { createRequire } from 'node:module';

export const VERSION: string = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
