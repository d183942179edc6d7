// Bytecode -> mnemonic listing, for tests and debugging output.

import { opcode } from './opcodes.js';

const NAMES = new Map<number, string>();
for (const name of [
  'stop',
  'add',
  'mul',
  'sub',
  'div',
  'sdiv',
  'mod',
  'smod',
  'addmod',
  'mulmod',
  'exp',
  'signextend',
  'lt',
  'gt',
  'slt',
  'sgt',
  'eq',
  'iszero',
  'and',
  'or',
  'xor',
  'not',
  'byte',
  'shl',
  'shr',
  'sar',
  'sha3',
  'address',
  'balance',
  'origin',
  'caller',
  'callvalue',
  'calldataload',
  'calldatasize',
  'calldatacopy',
  'codesize',
  'codecopy',
  'gasprice',
  'extcodesize',
  'extcodecopy',
  'returndatasize',
  'returndatacopy',
  'extcodehash',
  'blockhash',
  'coinbase',
  'timestamp',
  'number',
  'difficulty',
  'gaslimit',
  'chainid',
  'selfbalance',
  'basefee',
  'pop',
  'mload',
  'mstore',
  'mstore8',
  'sload',
  'sstore',
  'jump',
  'jumpi',
  'pc',
  'msize',
  'gas',
  'jumpdest',
  'mcopy',
  'log0',
  'log1',
  'log2',
  'log3',
  'log4',
  'create',
  'call',
  'callcode',
  'return',
  'delegatecall',
  'create2',
  'staticcall',
  'revert',
  'invalid',
  'selfdestruct',
]) {
  NAMES.set(opcode(name)!.code, name.toUpperCase());
}

/** One instruction per entry, e.g. "PUSH1 0x20", "MSTORE", "0xef?" for unknown bytes. */
export function disassemble(code: Uint8Array): string[] {
  const out: string[] = [];
  for (let i = 0; i < code.length; i++) {
    const b = code[i]!;
    if (b >= 0x60 && b <= 0x7f) {
      const n = b - 0x5f;
      let hex = '';
      for (let k = 1; k <= n; k++) hex += (code[i + k] ?? 0).toString(16).padStart(2, '0');
      out.push(`PUSH${n} 0x${hex}`);
      i += n;
    } else if (b >= 0x80 && b <= 0x8f) out.push(`DUP${b - 0x7f}`);
    else if (b >= 0x90 && b <= 0x9f) out.push(`SWAP${b - 0x8f}`);
    else out.push(NAMES.get(b) ?? `0x${b.toString(16).padStart(2, '0')}?`);
  }
  return out;
}
