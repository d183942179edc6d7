// A Hardhat 2 project whose tests run on the built-in `hardhat` network, in process. The line
// below puts chain-sim under that network; HARDHAT_OWN_NETWORK=1 leaves it out, and the same
// tests run on Hardhat's own network (the harness runs both). Compiles offline with solc-js;
// artifacts go to HARDHAT_OUT. NETWORKS_HARDHAT (JSON) sets networks.hardhat for the mapping tests.
if (process.env.HARDHAT_OWN_NETWORK !== '1') require('chain-sim/hardhat');
require('@nomicfoundation/hardhat-chai-matchers');
require('@nomicfoundation/hardhat-ethers');
require('../hardhat-matchers/hardhat.offline.cjs');
const path = require('node:path');
const os = require('node:os');

const out = process.env.HARDHAT_OUT ?? path.join(os.tmpdir(), 'chain-sim-hardhat-plugin');
module.exports = {
  solidity: '0.8.30',
  networks: { hardhat: JSON.parse(process.env.NETWORKS_HARDHAT ?? '{}') },
  paths: { artifacts: path.join(out, 'artifacts'), cache: path.join(out, 'cache') },
  mocha: { timeout: 60000 },
};
