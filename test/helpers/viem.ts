/** chain-sim's default chain as viem describes a chain (chain id 1337); tests pass their own transport URL. */
export const CHAIN_SIM_CHAIN = {
  id: 1337,
  name: 'chain-sim',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
} as const;
