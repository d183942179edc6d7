// The same project with chain-sim serving Hardhat 3's simulated networks in process: the one change
// is chainSim, first in `plugins` (before the plugins that extend connections). `hardhat test mocha`
// without --network then runs on the `default` network (edr-simulated), each connection a chain-sim
// chain of its own. scripts/install-hardhat3.mjs links this checkout as node_modules/chain-sim.
import chainSim from 'chain-sim/hardhat';
import { defineConfig } from 'hardhat/config';
import base from './hardhat.config.ts';

// CHAIN_SIM_LAST=1 puts it last instead, which chain-sim refuses (the harness checks the message).
const plugins = process.env.CHAIN_SIM_LAST === '1' ? [...(base.plugins ?? []), chainSim] : [chainSim, ...(base.plugins ?? [])];

export default defineConfig({ ...base, plugins });
