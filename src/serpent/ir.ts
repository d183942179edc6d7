// Intermediate representation between the Serpent tree and EVM assembly: a
// small LLL-like language. Every node yields zero or one stack value.
//  - memory variables (`set`/`get`/`ref`) live in fixed 32-byte slots;
//  - `with` variables live on the stack for the extent of their body;
//  - `code` embeds a separately compiled code unit and copies it to memory.

import type { Pos } from './errors.js';

export type IR =
  | { readonly k: 'num'; readonly v: bigint; readonly pos: Pos }
  | { readonly k: 'seq'; readonly items: readonly IR[]; readonly pos: Pos }
  | { readonly k: 'with'; readonly name: string; readonly init: IR; readonly body: IR; readonly pos: Pos }
  | { readonly k: 'set'; readonly name: string; readonly value: IR; readonly pos: Pos }
  | { readonly k: 'get'; readonly name: string; readonly pos: Pos }
  | { readonly k: 'ref'; readonly name: string; readonly pos: Pos }
  | { readonly k: 'if'; readonly cond: IR; readonly then: IR; readonly else: IR | null; readonly pos: Pos }
  | { readonly k: 'until'; readonly cond: IR; readonly body: IR; readonly pos: Pos }
  | { readonly k: 'alloc'; readonly size: IR; readonly pos: Pos }
  | { readonly k: 'code'; readonly unit: IR; readonly dest: IR; readonly runtime: boolean; readonly pos: Pos }
  | { readonly k: 'op'; readonly op: string; readonly args: readonly IR[]; readonly pos: Pos };

export const num = (v: bigint | number, pos: Pos): IR => ({ k: 'num', v: BigInt(v), pos });
export const seq = (items: readonly IR[], pos: Pos): IR => ({ k: 'seq', items, pos });
export const get = (name: string, pos: Pos): IR => ({ k: 'get', name, pos });
export const set = (name: string, value: IR, pos: Pos): IR => ({ k: 'set', name, value, pos });
export const ref = (name: string, pos: Pos): IR => ({ k: 'ref', name, pos });
export const withVar = (name: string, init: IR, body: IR, pos: Pos): IR => ({ k: 'with', name, init, body, pos });
export const iff = (cond: IR, then: IR, otherwise: IR | null, pos: Pos): IR => ({ k: 'if', cond, then, else: otherwise, pos });
export const until = (cond: IR, body: IR, pos: Pos): IR => ({ k: 'until', cond, body, pos });
export const alloc = (size: IR, pos: Pos): IR => ({ k: 'alloc', size, pos });
export const op = (name: string, args: readonly IR[], pos: Pos): IR => ({ k: 'op', op: name, args, pos });
