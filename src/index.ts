/** chain-sim's public API. */
export { createProvider, ChainSimProvider, ProviderRpcError, type RequestArguments } from './provider.js';
export { createServer, ChainSimServer, type ListeningInfo } from './server/index.js';
export { type ChainSimOptions, DEFAULT_MNEMONIC, OptionError, type OptionErrorCode, UnknownOptionError } from './options.js';
export { VERSION } from './version.js';
export type { Json } from './rpc/json.js';
export { compileSerpent, SerpentError, type SerpentOutput, type SerpentFunction, type SerpentEvent } from './serpent/index.js';
// Ganache's shape too, so `npm install ganache@npm:chain-sim` serves `require('ganache')` and `import ganache from 'ganache'` (chain-sim/ganache).
export { default, provider, server, GanacheProvider, GanacheServer } from './ganache/index.js';
