/**
 * Contract size limits (EIP-170 code, EIP-3860 init code): lifted altogether (Hardhat's and
 * Ganache's allowUnlimitedContractSize) or set to another size (Anvil's --code-size-limit).
 * Given as EVM options, so every copy of the VM (calls, the pending block) keeps them: a
 * copy's EVM is built from the cached options, and its params would otherwise restore 24576.
 */
import { type EVMOpts, paramsEVM } from '@ethereumjs/evm';

/** 'unlimited', a code size in bytes (init code may be twice as large, as EIP-3860 has it), or undefined for the forks' own. */
export type CodeSizeLimit = number | 'unlimited' | undefined;

export function evmOptionsFor(limit: CodeSizeLimit): Partial<EVMOpts> | undefined {
  if (limit === undefined) return undefined;
  if (limit === 'unlimited') return { allowUnlimitedContractSize: true, allowUnlimitedInitCodeSize: true };
  const params = structuredClone(paramsEVM) as Record<string, Record<string, unknown>>;
  for (const [eip, fields] of Object.entries(params)) {
    if ('maxCodeSize' in fields) params[eip] = { ...fields, maxCodeSize: limit };
    if ('maxInitCodeSize' in fields) params[eip] = { ...params[eip], maxInitCodeSize: 2 * limit };
  }
  return { params: params as EVMOpts['params'] };
}
