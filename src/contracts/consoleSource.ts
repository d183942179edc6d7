/**
 * console.log lines with the contract that printed them: `[Vault] withdraw 5`. The engine hands
 * over the code of the frame that called console.sol (consoleLog.ts); it is named like any
 * other code (a constructor's by its init code). Lines from code the project does not have,
 * and every line of a node without artifacts, are printed as they are.
 */
import type { ContractRegistry } from './registry.js';

export function attributedLine(registry: ContractRegistry, line: string, code: Uint8Array | undefined, creation: boolean): string {
  if (!registry.active || code === undefined) return line;
  const contract = (creation ? registry.identifyCreation(code) : registry.identify(code))?.contract;
  return contract ? `[${contract.name}] ${line}` : line;
}
