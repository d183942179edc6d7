#!/usr/bin/env node
// Thin launcher: the CLI lives in the compiled dist/ (built by `npm ci` via the prepare script).
import { main } from '../dist/src/cli.js';

const code = await main();
if (code !== 0) process.exit(code);
