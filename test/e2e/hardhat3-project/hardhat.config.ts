// A Hardhat 3 project whose Mocha tests run against a running `npx chain-sim`, selected as an
// ordinary HTTP network (`--network chainsim`). The URL comes from CHAIN_SIM_URL, defaulting to the
// node's default address.
import { createRequire } from 'node:module';
import hardhatEthers from '@nomicfoundation/hardhat-ethers';
import hardhatEthersChaiMatchers from '@nomicfoundation/hardhat-ethers-chai-matchers';
import hardhatMocha from '@nomicfoundation/hardhat-mocha';
import hardhatNetworkHelpers from '@nomicfoundation/hardhat-network-helpers';
import { defineConfig } from 'hardhat/config';

const require = createRequire(import.meta.url);
const out = process.env.HARDHAT_OUT;

export default defineConfig({
  plugins: [hardhatEthers, hardhatEthersChaiMatchers, hardhatMocha, hardhatNetworkHelpers],
  solidity: {
    version: '0.8.30',
    // Hardhat downloads its compilers; `path` makes it use the solc npm package's soljson.js instead
    // (the same 0.8.30 build), so compiling needs no network.
    path: require.resolve('solc/soljson.js'),
  },
  networks: {
    chainsim: {
      type: 'http',
      url: process.env.CHAIN_SIM_URL ?? 'http://127.0.0.1:8545',
    },
  },
  // The test harness keeps build output out of the source tree; a user's project would leave these out.
  ...(out === undefined ? {} : { paths: { artifacts: `${out}/artifacts`, cache: `${out}/cache` } }),
  test: { mocha: { timeout: 60_000 } },
});
