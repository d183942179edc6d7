// A Hardhat project whose tests run the chai matchers against a running node (URL from CHAIN_SIM_URL),
// selected either as Hardhat's `localhost` network or as another name (`chainsim`); hardhat-ethers
// treats a node that calls itself Hardhat differently under `localhost` (RECIPES.md).
// Compiles offline with the solc npm package (hardhat.offline.cjs); artifacts go to HARDHAT_OUT.
require('@nomicfoundation/hardhat-chai-matchers');
require('@nomicfoundation/hardhat-ethers');
require('./hardhat.offline.cjs');
const path = require('node:path');
const os = require('node:os');

const out = process.env.HARDHAT_OUT ?? path.join(os.tmpdir(), 'chain-sim-hardhat-matchers');
const url = process.env.CHAIN_SIM_URL ?? 'http://127.0.0.1:8545';
module.exports = {
  solidity: '0.8.30',
  networks: { localhost: { url }, chainsim: { url } },
  paths: { artifacts: path.join(out, 'artifacts'), cache: path.join(out, 'cache') },
  mocha: { timeout: 60000 },
};
