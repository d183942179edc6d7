#!/usr/bin/env node
// Thin launcher: the CLI is bundled into dist/bundle/ by `npm run build` (run by `npm ci` via prepare).
import { main } from '../dist/bundle/cli.js';

const code = await main();
if (code !== 0) process.exit(code);
