// A Hardhat project whose only network is a running chain-sim (URL from CHAIN_SIM_URL).
module.exports = {
  defaultNetwork: 'chainsim',
  networks: { chainsim: { url: process.env.CHAIN_SIM_URL ?? 'http://127.0.0.1:8545' } },
};
