// EVM opcodes callable from Serpent as functions (`mload(x)`, `~call(...)`).
// Names follow the reference (suicide, difficulty, sha3) plus later-fork
// aliases; stack-manipulation opcodes are excluded because the code generator
// owns the stack.

export interface OpcodeInfo {
  readonly code: number;
  readonly inputs: number;
  readonly outputs: number;
}

const table: [string, number, number, number][] = [
  ['stop', 0x00, 0, 0],
  ['add', 0x01, 2, 1],
  ['mul', 0x02, 2, 1],
  ['sub', 0x03, 2, 1],
  ['div', 0x04, 2, 1],
  ['sdiv', 0x05, 2, 1],
  ['mod', 0x06, 2, 1],
  ['smod', 0x07, 2, 1],
  ['addmod', 0x08, 3, 1],
  ['mulmod', 0x09, 3, 1],
  ['exp', 0x0a, 2, 1],
  ['signextend', 0x0b, 2, 1],
  ['lt', 0x10, 2, 1],
  ['gt', 0x11, 2, 1],
  ['slt', 0x12, 2, 1],
  ['sgt', 0x13, 2, 1],
  ['eq', 0x14, 2, 1],
  ['iszero', 0x15, 1, 1],
  ['and', 0x16, 2, 1],
  ['or', 0x17, 2, 1],
  ['xor', 0x18, 2, 1],
  ['not', 0x19, 1, 1],
  ['byte', 0x1a, 2, 1],
  ['shl', 0x1b, 2, 1],
  ['shr', 0x1c, 2, 1],
  ['sar', 0x1d, 2, 1],
  ['sha3', 0x20, 2, 1],
  ['keccak256', 0x20, 2, 1],
  ['address', 0x30, 0, 1],
  ['balance', 0x31, 1, 1],
  ['origin', 0x32, 0, 1],
  ['caller', 0x33, 0, 1],
  ['callvalue', 0x34, 0, 1],
  ['calldataload', 0x35, 1, 1],
  ['calldatasize', 0x36, 0, 1],
  ['calldatacopy', 0x37, 3, 0],
  ['codesize', 0x38, 0, 1],
  ['codecopy', 0x39, 3, 0],
  ['gasprice', 0x3a, 0, 1],
  ['extcodesize', 0x3b, 1, 1],
  ['extcodecopy', 0x3c, 4, 0],
  ['returndatasize', 0x3d, 0, 1],
  ['returndatacopy', 0x3e, 3, 0],
  ['extcodehash', 0x3f, 1, 1],
  ['blockhash', 0x40, 1, 1],
  ['coinbase', 0x41, 0, 1],
  ['timestamp', 0x42, 0, 1],
  ['number', 0x43, 0, 1],
  ['difficulty', 0x44, 0, 1],
  ['prevrandao', 0x44, 0, 1],
  ['gaslimit', 0x45, 0, 1],
  ['chainid', 0x46, 0, 1],
  ['selfbalance', 0x47, 0, 1],
  ['basefee', 0x48, 0, 1],
  ['blobhash', 0x49, 1, 1],
  ['blobbasefee', 0x4a, 0, 1],
  ['pop', 0x50, 1, 0],
  ['mload', 0x51, 1, 1],
  ['mstore', 0x52, 2, 0],
  ['mstore8', 0x53, 2, 0],
  ['sload', 0x54, 1, 1],
  ['sstore', 0x55, 2, 0],
  ['jump', 0x56, 1, 0],
  ['jumpi', 0x57, 2, 0],
  ['pc', 0x58, 0, 1],
  ['msize', 0x59, 0, 1],
  ['gas', 0x5a, 0, 1],
  ['jumpdest', 0x5b, 0, 0],
  ['tload', 0x5c, 1, 1],
  ['tstore', 0x5d, 2, 0],
  ['mcopy', 0x5e, 3, 0],
  ['log0', 0xa0, 2, 0],
  ['log1', 0xa1, 3, 0],
  ['log2', 0xa2, 4, 0],
  ['log3', 0xa3, 5, 0],
  ['log4', 0xa4, 6, 0],
  ['create', 0xf0, 3, 1],
  ['call', 0xf1, 7, 1],
  ['callcode', 0xf2, 7, 1],
  ['return', 0xf3, 2, 0],
  ['delegatecall', 0xf4, 6, 1],
  ['create2', 0xf5, 4, 1],
  ['staticcall', 0xfa, 6, 1],
  ['revert', 0xfd, 2, 0],
  ['invalid', 0xfe, 0, 0],
  ['suicide', 0xff, 1, 0],
  ['selfdestruct', 0xff, 1, 0],
];

const OPCODES: ReadonlyMap<string, OpcodeInfo> = new Map(table.map(([name, code, inputs, outputs]) => [name, { code, inputs, outputs }]));

/** Looks up an opcode by (case-insensitive) name. */
export function opcode(name: string): OpcodeInfo | undefined {
  return OPCODES.get(name.toLowerCase());
}

export function isOpcodeName(name: string): boolean {
  return OPCODES.has(name.toLowerCase());
}

export const OP = {
  STOP: 0x00,
  ADD: 0x01,
  SUB: 0x03,
  ISZERO: 0x15,
  MLOAD: 0x51,
  MSTORE: 0x52,
  MSTORE8: 0x53,
  JUMP: 0x56,
  JUMPI: 0x57,
  MSIZE: 0x59,
  JUMPDEST: 0x5b,
  POP: 0x50,
  CODECOPY: 0x39,
  PUSH1: 0x60,
  DUP1: 0x80,
  SWAP1: 0x90,
} as const;
