/**
 * Answer forms that differ between the tools sharing a name, chosen for the whole node. Shared
 * evm_* names answer as Hardhat (and mostly Anvil) does; with compat 'ganache' (the
 * chain-sim/ganache entry point) the ones where Ganache 7 answers differently follow Ganache.
 * vmErrorsOnRPCResponse (vmErrors.ts) wraps Ganache's sending names, whatever the compat. What
 * depends on the client asking (its client version, what a failed send answers) is clientRules.ts'.
 */
import type { ResolvedOptions } from '../options.js';
import { uint64 } from './codec.js';
import { GANACHE_CALL_METHODS, ganacheCallErrors } from './ganacheCallErrors.js';
import { invalidParams } from './errors.js';
import { type RpcMethod, defineMethod, param } from './method.js';
import type { MethodTable } from './table.js';
import { SENDING_METHODS, rejectingFailedSends } from './vmErrors.js';

/** A number of seconds or milliseconds: a JSON number or a hex quantity, as Ganache takes them. */
const amount = (value: unknown, path: string): bigint => {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw invalidParams(`invalid argument ${path}: expected a non-negative integer`);
    return BigInt(value);
  }
  return uint64(value, path);
};

/** Ganache 7's forms of names Hardhat (or Anvil) also serves. */
const GANACHE_FORMS: readonly RpcMethod[] = [
  // Ganache answers the clock's whole offset as a JSON number (Hardhat: a decimal string).
  defineMethod('evm_increaseTime', [param('seconds', amount)], async ({ chain }, seconds) => Number(await chain.increaseTime(seconds))),
  // Ganache takes a JavaScript time in milliseconds (Anvil: seconds) and answers the offset in seconds.
  defineMethod('evm_setTime', [param('milliseconds', amount)], async ({ chain }, ms) => {
    await chain.setTime(ms / 1000n);
    return Number(chain.clock.offset);
  }),
];

export function withCompatForms(table: MethodTable, options: Pick<ResolvedOptions, 'compat' | 'vmErrorsOnRPCResponse'>): MethodTable {
  if (options.compat === undefined && !options.vmErrorsOnRPCResponse) return table;
  const result = new Map(table);
  if (options.compat === 'ganache') {
    for (const method of GANACHE_FORMS) result.set(method.name, method);
    // eth_call and eth_estimateGas keep their names and answers; only their failures are worded as Ganache words them.
    const wrapped = new Map<RpcMethod, RpcMethod>();
    for (const [name, method] of result) {
      if (!GANACHE_CALL_METHODS.has(method.name)) continue;
      if (!wrapped.has(method)) wrapped.set(method, ganacheCallErrors(method));
      result.set(name, wrapped.get(method)!);
    }
  }
  if (options.vmErrorsOnRPCResponse) {
    for (const name of SENDING_METHODS) {
      const method = result.get(name);
      if (method) result.set(name, rejectingFailedSends(method));
    }
  }
  return result;
}
