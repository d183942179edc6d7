/** The plugin's id, as Hardhat 3 names it in messages. */
export const PLUGIN_ID = 'chain-sim';
