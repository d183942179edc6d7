/**
 * Solidity stack traces: one frame per source-level call a failure went through, as Hardhat
 * gives them: each external frame of the failing path (failure.ts) unfolded into its internal
 * calls through solc's source maps. A frame's program counters (recorded by the engine's
 * StepRecorder) are walked up to the step that made the failing call (or failed): a JUMP marked
 * `i` enters a function (its call site is a line of the caller), one marked `o` leaves it;
 * modifiers are inlined by solc, so a location inside a modifier adds the modifier's frame
 * under its function's. Where the revert carried no data, Hardhat's inferred reasons are given:
 * a selector no function has, value sent to a non-payable function, a call to an account
 * without code.
 */
import type { CallFrame } from '../engine/tracers/tracing.js';
import type { FrameSteps } from '../engine/tracers/steps.js';
import type { CompiledContract, Definition, SourceFile } from './compiled.js';
import { type NamedFrame, UNRECOGNIZED_CONTRACT, UNRECOGNIZED_FUNCTION } from './failure.js';
import { type SourceLocation, locationsByPc } from './sourceMaps.js';

const JUMP = 0x56;

/** One frame of a Solidity stack trace. */
export interface SourceFrame {
  readonly contract: string;
  readonly function: string;
  /** The source file, when the contract is known. */
  readonly file: string | undefined;
  /** 1-based, when the source map and the source's text are known. */
  readonly line: number | undefined;
  /** The external frame this one belongs to. */
  readonly external: NamedFrame;
  /** The first (outermost) source frame of its external frame. */
  readonly entry: boolean;
}

export interface SolidityStack {
  /** Outermost first. */
  readonly frames: readonly SourceFrame[];
  /** Hardhat's words for a failure without revert data whose cause the code shows. */
  readonly inferred: string | undefined;
}

/** The stack of the failing path `path` (outermost first), with each frame's recorded steps. */
export function solidityStack(path: readonly NamedFrame[], steps: ReadonlyMap<CallFrame, FrameSteps>): SolidityStack {
  const frames: SourceFrame[] = [];
  let inferred: string | undefined;
  path.forEach((named, i) => {
    const child = path[i + 1]?.frame;
    const unfolded = unfold(named, steps.get(named.frame), child);
    frames.push(...unfolded.frames);
    if (!child) inferred = unfolded.inferred;
  });
  // A call that ran out of gas, whose caller then reverted (the transaction itself had gas left).
  const origin = path[path.length - 1]?.frame;
  if (path.length > 1 && origin?.error === 'out of gas') inferred = 'Transaction reverted: contract call run out of gas and made the transaction revert';
  return { frames, inferred };
}

function unfold(named: NamedFrame, recorded: FrameSteps | undefined, child: CallFrame | undefined): SolidityStack {
  const { frame, contract } = named;
  const plain = (line?: number): SourceFrame => ({
    contract: contract?.name ?? UNRECOGNIZED_CONTRACT,
    function: named.functionName,
    file: contract?.sourceName,
    line,
    external: named,
    entry: true,
  });
  const creation = frame.type === 'CREATE' || frame.type === 'CREATE2';
  const bytecode = creation ? contract?.creation : contract?.runtime;
  const sources = contract?.compilation?.sources;
  const noData = frame.error !== undefined && frame.output.length === 0 && !child;
  if (!contract || !bytecode || !sources || !recorded || recorded.pcs.length === 0) return { frames: [plain()], inferred: undefined };

  // Failures the compiler's dispatcher makes before any of the contract's code runs.
  if (noData && named.functionName === UNRECOGNIZED_FUNCTION) {
    const declared = definitionOf(sources, contract.name, 'contract');
    const inferred =
      frame.input.length === 0
        ? "Transaction reverted: function selector was not recognized and there's no fallback nor receive function"
        : "Transaction reverted: function selector was not recognized and there's no fallback function";
    return { frames: [{ ...plain(declared && lineOf(declared.file, declared.def.start)), file: declared?.file.name ?? contract.sourceName }], inferred };
  }
  // A function or fallback that is not payable refuses value before anything else runs: exactly these failures.
  const value = frame.value ?? 0n;
  const fallback = contract.abi.find((entry) => entry.type === 'fallback');
  const refusesValue =
    value > 0n &&
    ((named.item !== undefined && named.item.stateMutability !== 'payable') ||
      (named.functionName === '<fallback>' && fallback !== undefined && fallback.stateMutability !== 'payable'));
  if (noData && refusesValue) {
    const declared = functionDefinition(sources, contract, named);
    const inferred =
      named.item !== undefined
        ? `Transaction reverted: non-payable function was called with value ${value}`
        : frame.input.length === 0
          ? `Transaction reverted: there's no receive function, fallback function is not payable and was called with value ${value}`
          : `Transaction reverted: fallback function is not payable and was called with value ${value}`;
    return { frames: [{ ...plain(declared && lineOf(declared.file, declared.def.start)), file: declared?.file.name ?? contract.sourceName }], inferred };
  }

  const locations = locationsByPc(bytecode);
  const callIndex = child ? frame.calls.filter((call) => call.type !== 'SELFDESTRUCT').indexOf(child) : -1;
  const last = callIndex >= 0 ? recorded.callsAt[callIndex]! : recorded.pcs.length - 1;
  // The internal calls open at the last step: where each was called from, and where it began.
  const open: { site: SourceLocation; begin: SourceLocation | undefined }[] = [];
  let pending: (typeof open)[number] | undefined;
  for (let s = 0; s <= last; s++) {
    const pc = recorded.pcs[s]!;
    const location = locations[pc];
    if (pending) {
      pending.begin = location;
      pending = undefined;
    }
    if (bytecode.code[pc] !== JUMP || !location) continue;
    if (location.jump === 'i') open.push((pending = { site: location, begin: undefined }));
    else if (location.jump === 'o') open.pop();
  }
  const finalLocation = locations[recorded.pcs[last]!];
  // Levels in code the compiler generated (checked arithmetic, ABI coding: no source of the project's) are not the user's frames.
  const inSource = (location: SourceLocation | undefined) => location !== undefined && sources.has(location.file);
  const levels = [
    ...open.map((o, i) => ({ point: o.site, begin: i > 0 ? open[i - 1]!.begin : undefined })),
    { point: finalLocation, begin: open.at(-1)?.begin },
  ];
  // The dispatcher's jump into an external function's body is marked as a call from the whole function: not a source-level call.
  const isEntryJump = (location: SourceLocation | undefined) => {
    const file = location && sources.get(location.file);
    const def = file && location ? containing(file, location) : undefined;
    return def !== undefined && def.kind !== 'contract' && def.start === location!.start && def.length === location!.length;
  };
  const kept = levels.filter((level, i) => (i === 0 || inSource(level.point)) && !(i < levels.length - 1 && isEntryJump(level.point)));
  const frames: SourceFrame[] = [];
  kept.forEach(({ point, begin: beginning }, level) => {
    const file = point && point.file >= 0 ? sources.get(point.file) : undefined;
    const at = file && point ? containing(file, point) : undefined;
    // The function this level runs: the one its entry jumped to, else the one around its point.
    const beginFile = beginning && beginning.file >= 0 ? sources.get(beginning.file) : undefined;
    const entered = beginFile && beginning ? containing(beginFile, beginning) : undefined;
    let fn: { def: Definition; file: SourceFile } | undefined = entered && entered.kind !== 'modifier' ? { def: entered, file: beginFile! } : undefined;
    if (!fn && at && at.kind !== 'modifier' && at.kind !== 'contract') fn = { def: at, file: file! };
    if (!fn && level === 0) fn = functionDefinition(sources, contract, named);
    const base = { contract: contract.name, external: named, entry: frames.length === 0 };
    if (at?.kind === 'modifier' && fn) {
      const invocation = fn.def.modifiers.find((m) => m.name === at.name);
      frames.push({ ...base, function: functionName(fn.def), file: fn.file.name, line: lineOf(fn.file, invocation?.start ?? fn.def.start) });
      frames.push({ ...base, entry: false, function: at.name, file: file!.name, line: lineOf(file!, point!.start) });
    } else {
      const def = fn?.def ?? at;
      frames.push({
        ...base,
        function: def && def.kind !== 'contract' ? functionName(def) : named.functionName,
        file: file?.name ?? fn?.file.name ?? contract.sourceName,
        line: file && point ? lineOf(file, point.start) : undefined,
      });
    }
  });

  let inferred: string | undefined;
  if (noData && frame.error === 'execution reverted') {
    // solc checks a callee has code (EXTCODESIZE) before calling it, and reverts without data when it has none.
    const sizes = [...recorded.codeSizes].filter(([step]) => step <= last);
    const lastSize = sizes[sizes.length - 1];
    const lastCall = recorded.callsAt[recorded.callsAt.length - 1] ?? -1;
    const calls = frame.calls.filter((call) => call.type !== 'SELFDESTRUCT');
    if (lastSize && lastSize[1] === 0n && lastSize[0] > lastCall) inferred = 'Transaction reverted: function call to a non-contract account';
    // After a call that succeeded, solc checks what it returned (its size, then the ABI decoder's checks, in generated code),
    // and reverts at the call's own location or in that generated code when it is short.
    else if (
      lastCall >= 0 &&
      calls[calls.length - 1]?.error === undefined &&
      (sameLocation(locations[recorded.pcs[lastCall]!], finalLocation) || !inSource(finalLocation))
    ) {
      inferred = 'Transaction reverted: function returned an unexpected amount of data';
    }
  }
  return { frames, inferred };
}

function sameLocation(a: SourceLocation | undefined, b: SourceLocation | undefined): boolean {
  return a !== undefined && b !== undefined && a.start === b.start && a.length === b.length && a.file === b.file;
}

function functionName(def: Definition): string {
  if (def.kind === 'constructor') return 'constructor';
  if (def.kind === 'fallback') return '<fallback>';
  if (def.kind === 'receive') return '<receive>';
  return def.name;
}

/** The innermost function or modifier around `location` (the contract itself when none is). */
function containing(file: SourceFile, location: SourceLocation): Definition | undefined {
  let found: Definition | undefined;
  for (const def of file.definitions) {
    if (def.start > location.start || def.start + def.length < location.start + location.length) continue;
    if (!found || def.length < found.length) found = def;
  }
  return found;
}

/** The definition of the function a frame called, found by its kind or name in the contract. */
function functionDefinition(
  sources: ReadonlyMap<number, SourceFile>,
  contract: CompiledContract,
  named: NamedFrame,
): { def: Definition; file: SourceFile } | undefined {
  const kind =
    named.functionName === 'constructor'
      ? 'constructor'
      : named.functionName === '<fallback>'
        ? 'fallback'
        : named.functionName === '<receive>'
          ? 'receive'
          : 'function';
  let inherited: { def: Definition; file: SourceFile } | undefined;
  for (const file of sources.values()) {
    for (const def of file.definitions) {
      if (def.kind !== kind || (kind === 'function' && def.name !== named.functionName)) continue;
      if (def.contract === contract.name) return { def, file };
      inherited ??= { def, file };
    }
  }
  return inherited;
}

function definitionOf(sources: ReadonlyMap<number, SourceFile>, name: string, kind: Definition['kind']): { def: Definition; file: SourceFile } | undefined {
  for (const file of sources.values()) {
    const def = file.definitions.find((d) => d.kind === kind && d.name === name);
    if (def) return { def, file };
  }
  return undefined;
}

const lineStarts = new WeakMap<SourceFile, number[]>();

/** The 1-based line of a byte offset of the file (solc counts bytes of UTF-8); undefined without its text. */
function lineOf(file: SourceFile, offset: number): number | undefined {
  if (file.content === undefined) return undefined;
  let starts = lineStarts.get(file);
  if (!starts) {
    starts = [0];
    const bytes = Buffer.from(file.content, 'utf8');
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) starts.push(i + 1);
    lineStarts.set(file, starts);
  }
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}
