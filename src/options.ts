/**
 * The options: one table of rows (options/table.ts) from which the option types, the CLI's
 * flags and the options reference are derived, and resolveOptions (options/resolve.ts).
 */
export { DEFAULT_DIFFICULTY, DEFAULT_MNEMONIC } from './options/chainRows.js';
export { POW_DEFAULT_HARDFORK, type ResolvedOptions, resolveOptions } from './options/resolve.js';
export { type ChainSimOptions, OPTION_DECLARATIONS, OPTION_TABLE, type OptionDeclaration } from './options/table.js';
export { OptionError, type OptionErrorCode, UnknownOptionError } from './options/values.js';
export { GANACHE_DETERMINISTIC_MNEMONIC, type KeyedAccount } from './options/toolParsers.js';
