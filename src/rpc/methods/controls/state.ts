/** Whole-state controls: dump and load (with Anvil's and Hardhat's names). */
import { gunzipSync, gzipSync } from 'node:zlib';
import { StateFileError, decodeStateFile, encodeStateFile } from '../../../stateFile.js';
import type { StateFile } from '../../../stateFile.js';
import { invalidParams } from '../../errors.js';
import { EngineError } from '../../../engine/util/errors.js';
import { type RpcContext, defineMethod, param } from '../../method.js';
import { dumpedState } from '../../../stateCapture.js';

function currentState({ chain, fork }: RpcContext): Promise<StateFile> {
  // On a fork the state is an overlay on the upstream's: its local accounts alone would load as another state (docs/forking.md).
  if (fork?.session)
    throw new EngineError(
      'unsupported',
      "chain_dumpState / anvil_dumpState: not on a fork (the state is the upstream's at the pinned block under local changes; a dump of the local accounts would not restore it): use --state FILE, which records the fork",
    );
  return dumpedState(chain);
}

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
  defineMethod(
    {
      name: 'chain_dumpState',
      // Anvil's form: the same file gzipped, as hex. viem's hardhat mode sends hardhat_dumpState
      // and wants Anvil's form, which anvil_loadState and hardhat_loadState take.
      variants: [{ name: 'anvil_dumpState', aliases: ['hardhat_dumpState'], answer: (file) => `0x${gzipSync(JSON.stringify(file)).toString('hex')}` }],
    },
    [],
    async (ctx) => encodeStateFile(await currentState(ctx)),
  ),
  defineMethod({ name: 'chain_loadState', aliases: ['anvil_loadState', 'hardhat_loadState'] }, [param('state', stateInput)], async ({ chain }, state) => {
    await chain.loadState(state.alloc);
    return true;
  }),
];
