/**
 * solc's source maps: for each instruction of the code, the source range it came from, the
 * file (by source id), and whether it is a jump into (`i`) or out of (`o`) a function. The map
 * is compressed (a field left empty repeats the previous instruction's) and counts
 * instructions, not bytes: it is expanded once per code, by program counter.
 */
import type { Bytecode } from './compiled.js';

export interface SourceLocation {
  readonly start: number;
  readonly length: number;
  /** The source id; -1 for code the compiler generated (no source). */
  readonly file: number;
  readonly jump: 'i' | 'o' | '-';
}

const PUSH1 = 0x60;
const PUSH32 = 0x7f;

const expanded = new WeakMap<Bytecode, ReadonlyArray<SourceLocation | undefined>>();

/** Each instruction's location, indexed by its program counter (undefined between instructions or without a map). */
export function locationsByPc(bytecode: Bytecode): ReadonlyArray<SourceLocation | undefined> {
  let locations = expanded.get(bytecode);
  if (!locations) expanded.set(bytecode, (locations = expand(bytecode)));
  return locations;
}

function expand(bytecode: Bytecode): Array<SourceLocation | undefined> {
  const byPc: Array<SourceLocation | undefined> = [];
  if (bytecode.sourceMap === undefined) return byPc;
  const entries = bytecode.sourceMap.split(';');
  let previous: SourceLocation = { start: -1, length: 0, file: -1, jump: '-' };
  let pc = 0;
  const code = bytecode.code;
  for (const entry of entries) {
    if (pc >= code.length) break;
    const [start, length, file, jump] = entry.split(':');
    const location: SourceLocation = {
      start: start ? Number(start) : previous.start,
      length: length ? Number(length) : previous.length,
      file: file ? Number(file) : previous.file,
      jump: jump === 'i' || jump === 'o' || jump === '-' ? jump : previous.jump,
    };
    byPc[pc] = location;
    previous = location;
    const op = code[pc]!;
    pc += 1 + (op >= PUSH1 && op <= PUSH32 ? op - PUSH1 + 1 : 0);
  }
  return byPc;
}
