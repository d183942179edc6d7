// Ethash proof of work for chain-sim's pow mode (chain_getWork / chain_submitWork).
// Public surface of src/engine/pow; each concern lives in its own module.
export { EPOCH_LENGTH, epochOf, seedHash, cacheSize, datasetSize } from './params.js';
export { EthashCacheStore, type EthashCacheStoreOptions, type CacheBuilderFn } from './cacheStore.js';
export { defaultCacheDir } from './cacheFile.js';
export { hashimotoLight, type HashimotoOutput } from './hashimoto.js';
export { boundaryOf, verifySeal } from './seal.js';
export { sealHashOf } from './sealHash.js';
export { mineSeal, type MineOptions, type Seal } from './miner.js';
