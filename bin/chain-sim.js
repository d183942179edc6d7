#!/usr/bin/env node
// Thin launcher: the CLI is bundled into dist/bundle/ by `npm run build` (run by `npm ci` via prepare)
// and loaded with V8's code cache (loadCli.js).
import { loadCli } from './loadCli.js';

const { main, saveCache } = loadCli();
const code = await main(process.argv.slice(2), 'chain-sim', { listening: saveCache });
if (code !== 0) process.exit(code);
