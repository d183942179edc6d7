/** Whole-state controls: dump, load and reset (with Anvil's and Hardhat's names). */
import { gunzipSync, gzipSync } from 'node:zlib';
import { StateFileError, decodeStateFile, encodeStateFile } from '../../stateFile.js';
import type { StateFile } from '../../stateFile.js';
import { invalidParams } from '../errors.js';
import { defineMethod, optionalParam, param } from '../method.js';
import { resetOptions } from './fork.js';
import { dumpedState } from '../../stateCapture.js';

/** chain_loadState takes the JSON object; Anvil's clients send hex of gzipped JSON (or of plain JSON). */
const stateInput = (value: unknown, path: string): StateFile => {
  let json = value;
  if (typeof value === 'string') {
    // Not /^0x([0-9a-fA-F]{2})*$/: its group recurses per byte and overflows the stack on megabytes.
    if (!/^0x[0-9a-fA-F]*$/.test(value) || value.length % 2 !== 0) throw invalidParams(`invalid argument ${path}: expected a state object or hex data`);
    const raw = Buffer.from(value.slice(2), 'hex');
    try {
      const text = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw, { maxOutputLength: 256 * 1024 * 1024 }).toString('utf8') : raw.toString('utf8');
      json = JSON.parse(text);
    } catch {
      throw invalidParams(`invalid argument ${path}: not gzipped or plain JSON state`);
    }
  }
  // Anything else would load as an empty state and answer true.
  if (typeof json === 'object' && json !== null && !('alloc' in json) && !('accounts' in json)) {
    throw invalidParams(`invalid argument ${path}: a state needs "alloc" (chain_dumpState, a geth genesis) or "accounts" (Anvil's anvil_dumpState)`);
  }
  try {
    return decodeStateFile(json, path);
  } catch (error) {
    if (error instanceof StateFileError) throw invalidParams(`invalid argument ${error.message}`);
    throw error;
  }
};

export const stateMethods = [
  defineMethod('chain_dumpState', [], async (ctx) => encodeStateFile(await dumpedState(ctx.chain))),
  defineMethod('anvil_dumpState', [], async (ctx) => `0x${gzipSync(JSON.stringify(encodeStateFile(await dumpedState(ctx.chain)))).toString('hex')}`),
  defineMethod('chain_loadState', [param('state', stateInput)], async ({ chain }, state) => {
    await chain.loadState(state.alloc);
    return true;
  }),
  defineMethod('chain_reset', [optionalParam('options', resetOptions)], async ({ chain, fork }, request) => {
    if (fork) await fork.reset(request);
    else if (request) throw invalidParams('forking is not available on this node');
    else await chain.reset();
    return true;
  }),
];
