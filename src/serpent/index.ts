// Public entry point of the Serpent compiler:
//   source -> lexer/parser (generic tree with positions) -> program structure
//   (functions, storage layout, dispatcher) -> types and user macros ->
//   lowering to IR -> code generation -> bytecode.

import { selectorHex, wordHex } from './abi.js';
import { compileUnit } from './codegen.js';
import { LIMITS, SerpentError, semanticError, START, type Pos } from './errors.js';
import type { IR } from './ir.js';
import { Lowerer } from './lower.js';
import { applyTypes, MacroExpander } from './macros.js';
import { parseProgram } from './parser.js';
import { own } from './own.js';
import { preprocess, type ProgramInfo } from './program.js';

export { SerpentError } from './errors.js';
export type { SerpentErrorKind } from './errors.js';

export interface SerpentFunction {
  name: string;
  signature: string;
  /** 0x + 8 hex digits. */
  selector: string;
  inputs: string[];
  /** ABI type of the return value when it can be inferred; absent for none. */
  output?: string;
}

export interface SerpentEvent {
  name: string;
  signature: string;
  /** 0x + 64 hex digits. */
  topic: string;
}

export interface SerpentOutput {
  /** Creation code: runs init, returns the runtime code. */
  bytecode: Uint8Array;
  runtime: Uint8Array;
  functions: SerpentFunction[];
  events: SerpentEvent[];
}

export interface SerpentOptions {
  /** Other source files by name, for `inset("name")` and `create("name")`. */
  readonly files?: Readonly<Record<string, string>>;
}

export function compileSerpent(source: string, options: SerpentOptions = {}): SerpentOutput {
  try {
    if (typeof source !== 'string') throw semanticError(START, 'source must be a string');
    const { info, ir } = toIR(source, options, 0);
    const sink: { runtime: Uint8Array | null } = { runtime: null };
    const bytecode = compileUnit(ir, sink);
    return { bytecode, runtime: sink.runtime ?? new Uint8Array(0), functions: functionsOf(info), events: eventsOf(info) };
  } catch (e) {
    if (e instanceof SerpentError) throw e;
    if (e instanceof RangeError) throw semanticError(START, 'program is too large or too deeply nested');
    throw semanticError(START, `internal compiler error: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Whole pipeline up to IR; `create("file")` re-enters it for that file. */
function toIR(source: string, options: SerpentOptions, nesting: number): { info: ProgramInfo; ir: IR } {
  const program = parseProgram(source, options);
  const { info, tree } = preprocess(program);
  const typed = applyTypes(tree, info.types, info.prefixTypes);
  const expanded = new MacroExpander(info.macros).expand(typed);
  const compileFile = (name: string, pos: Pos): IR => {
    const text = own(options.files, name);
    if (text === undefined) throw semanticError(pos, `create: file '${name}' not found (provide it in options.files)`);
    if (nesting >= LIMITS.insetDepth) throw semanticError(pos, 'create() files are nested too deeply (cycle?)');
    try {
      return toIR(text, options, nesting + 1).ir;
    } catch (e) {
      if (e instanceof SerpentError) throw semanticError(pos, `in file '${name}': ${e.message}`);
      throw e;
    }
  };
  return { info, ir: new Lowerer(info, compileFile).lower(expanded) };
}

function functionsOf(info: ProgramInfo): SerpentFunction[] {
  return info.functions.map((f) => {
    const out: SerpentFunction = { name: f.name, signature: f.signature, selector: selectorHex(f.selector), inputs: [...f.argTypes] };
    if (f.outType !== '' && f.outType !== '_') out.output = f.outType;
    return out;
  });
}

function eventsOf(info: ProgramInfo): SerpentEvent[] {
  return [...info.events.values()].map((e) => ({ name: e.name, signature: e.signature, topic: wordHex(e.topic) }));
}
