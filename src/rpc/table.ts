/**
 * The method table: every method under its canonical `chain_` name, its `eth_`
 * twin, and the names other tools' users call. Aliases are data.
 */
import type { RpcMethod } from './method.js';
import { executionMethods } from './methods/execution.js';
import { feeMethods } from './methods/fees.js';
import { nodeMethods } from './methods/node.js';
import { readMethods } from './methods/reads.js';
import { transactionMethods } from './methods/transactions.js';

export type MethodTable = ReadonlyMap<string, RpcMethod>;

/** Extra names for canonical methods, beyond the automatic chain_X → eth_X. */
export const EXTRA_ALIASES: Readonly<Record<string, readonly string[]>> = {};

export function buildMethodTable(groups: ReadonlyArray<readonly RpcMethod[]> = DEFAULT_GROUPS): MethodTable {
  const table = new Map<string, RpcMethod>();
  const add = (name: string, method: RpcMethod) => {
    if (table.has(name)) throw new Error(`method ${name} defined twice`);
    table.set(name, method);
  };
  for (const group of groups) {
    for (const method of group) {
      add(method.name, method);
      if (method.name.startsWith('chain_')) add(`eth_${method.name.slice('chain_'.length)}`, method);
      for (const alias of EXTRA_ALIASES[method.name] ?? []) add(alias, method);
    }
  }
  return table;
}

const DEFAULT_GROUPS = [nodeMethods, readMethods, executionMethods, transactionMethods, feeMethods];
