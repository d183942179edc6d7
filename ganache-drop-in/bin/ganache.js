#!/usr/bin/env node
// The `ganache` (and `ganache-cli`) command: chain-sim's CLI with Ganache's flags, defaults and answers.
import 'chain-sim/bin/ganache.js';
