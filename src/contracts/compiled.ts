/**
 * A compiled contract as chain-sim keeps it, whichever tool wrote the artifact: its names, ABI,
 * and its creation and runtime code with the byte ranges a deployment fills in (library
 * addresses, immutables), which identification skips.
 */
import type { AbiItem } from './abi.js';

export interface ByteRange {
  readonly start: number;
  readonly length: number;
}

export interface Bytecode {
  /** The code as compiled, library placeholders as zero bytes. */
  readonly code: Uint8Array;
  /** Byte ranges a deployment fills in: linked library addresses and (runtime code) immutables, by start. */
  readonly variable: readonly ByteRange[];
  /** solc's source map of this code, when the artifact has it. */
  readonly sourceMap: string | undefined;
}

/** A function, modifier or contract of a source, where it is (byte offsets of the source, as solc's `src`). */
export interface Definition {
  readonly kind: 'function' | 'modifier' | 'constructor' | 'fallback' | 'receive' | 'contract';
  readonly name: string;
  /** The contract (or library, interface) it is declared in; none for a free function or a contract itself. */
  readonly contract: string | undefined;
  readonly start: number;
  readonly length: number;
  /** A function's modifier invocations in its header: which modifier, and where. */
  readonly modifiers: readonly { readonly name: string; readonly start: number }[];
}

/** One source file of a compilation: its name as the project knows it, its text (for line numbers), its definitions. */
export interface SourceFile {
  readonly name: string;
  readonly content: string | undefined;
  readonly definitions: readonly Definition[];
}

/** The sources of one compilation, by solc's source id (source maps name files by id). */
export interface Compilation {
  readonly sources: ReadonlyMap<number, SourceFile>;
}

export interface CompiledContract {
  readonly name: string;
  /** The source file as the project names it (`contracts/Token.sol`). */
  readonly sourceName: string;
  readonly abi: readonly AbiItem[];
  readonly creation: Bytecode | undefined;
  readonly runtime: Bytecode | undefined;
  /** The artifact file it was read from. */
  readonly file: string;
  readonly compilation: Compilation | undefined;
}

/** `contracts/Token.sol:Token`, the fully qualified name tools print. */
export function qualifiedName(contract: CompiledContract): string {
  return `${contract.sourceName}:${contract.name}`;
}

/** The byte offsets solc's linkReferences and immutableReferences give, flattened. */
function rangesOf(references: unknown): ByteRange[] {
  if (typeof references !== 'object' || references === null) return [];
  const ranges: ByteRange[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const entry of value) {
        const { start, length } = (entry ?? {}) as { start?: unknown; length?: unknown };
        if (typeof start === 'number' && typeof length === 'number') ranges.push({ start, length });
      }
    } else if (typeof value === 'object' && value !== null) {
      for (const inner of Object.values(value)) visit(inner);
    }
  };
  visit(references);
  return ranges;
}

/**
 * A library's runtime code starts with `PUSH20 <its own address> ADDRESS EQ` (the guard against
 * calls that are not DELEGATECALLs); solc leaves the address zero and the library's constructor
 * writes it: those 20 bytes are the deployment's.
 */
export function withLibraryGuard(runtime: Bytecode | undefined): Bytecode | undefined {
  const code = runtime?.code;
  if (!runtime || !code || code.length < 23 || code[0] !== 0x73 || code[21] !== 0x30 || code[22] !== 0x14) return runtime;
  if (code.subarray(1, 21).some((byte) => byte !== 0)) return runtime;
  return { ...runtime, variable: [{ start: 1, length: 20 }, ...runtime.variable].sort((a, b) => a.start - b.start) };
}

/** A library placeholder in solc's hex: `__$<34 hex digits>$__` (or the older `__Name____`), 40 characters. */
const PLACEHOLDER = /__.{36}__/g;

/**
 * solc's bytecode object (hex, with or without 0x, library placeholders in it) with its
 * references; undefined when there is no code (interfaces, abstract contracts) or it is not hex.
 */
export function parseBytecode(object: unknown, sourceMap: unknown, linkReferences: unknown, immutableReferences: unknown): Bytecode | undefined {
  if (typeof object !== 'string') return undefined;
  const text = object.startsWith('0x') ? object.slice(2) : object;
  if (text.length === 0 || text.length % 2 !== 0) return undefined;
  const variable = [...rangesOf(linkReferences), ...rangesOf(immutableReferences)];
  const placeholders = [...text.matchAll(PLACEHOLDER)];
  // Older artifacts list no linkReferences: the placeholders' places are the references then.
  if (rangesOf(linkReferences).length === 0) for (const match of placeholders) variable.push({ start: match.index / 2, length: 20 });
  const plain = placeholders.length === 0 ? text : text.replace(PLACEHOLDER, '0'.repeat(40));
  if (!/^[0-9a-fA-F]*$/.test(plain)) return undefined;
  variable.sort((a, b) => a.start - b.start);
  return { code: Uint8Array.from(Buffer.from(plain, 'hex')), variable, sourceMap: typeof sourceMap === 'string' && sourceMap !== '' ? sourceMap : undefined };
}
