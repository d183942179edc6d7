/** chain_exportGenesis: the running chain's block 0 as a go-ethereum genesis.json object (`--genesis` reads it back). */
import { exportGethGenesis } from '../../genesis/exportGenesis.js';
import { defineMethod } from '../method.js';

export const genesisMethods = [defineMethod('chain_exportGenesis', [], async ({ chain }) => exportGethGenesis(chain))];
