#!/usr/bin/env node
// `ganache`: chain-sim's CLI under Ganache's name (Ganache's -h, defaults and answers). Not in chain-sim's
// own bin map, so installing chain-sim never takes the `ganache` command: the chain-sim-ganache package
// (ganache-drop-in/), installed as `ganache`, links it.
import { loadCli } from './loadCli.js';

const { main, saveCache } = loadCli();
const code = await main(process.argv.slice(2), 'ganache', { listening: saveCache });
if (code !== 0) process.exit(code);
