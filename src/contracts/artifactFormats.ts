/**
 * The compiler output each tool writes, read into CompiledContracts:
 * - solc's standard JSON output (`{ contracts, sources }`), alone or with its input as
 *   `{ input, output }`; Hardhat 2's build-info is that with `_format: hh-sol-build-info-1`,
 *   Foundry's (with `--build-info`) the same with `source_id_to_path`;
 * - Hardhat 3's build-info, split in two files: `<id>.json` (the input and the project's
 *   source names, `userSourceNameMap`) and `<id>.output.json` (the output);
 * - Foundry's per-contract artifacts (`out/Token.sol/Token.json`: abi, bytecode,
 *   deployedBytecode with its immutableReferences, metadata naming the source).
 * A JSON file of any other shape holds no contracts (Hardhat's per-contract artifacts among
 * them: their build-info says everything they say, and more).
 */
import path from 'node:path';
import type { AbiItem } from './abi.js';
import { type Compilation, type CompiledContract, type Definition, type SourceFile, parseBytecode, withLibraryGuard } from './compiled.js';

/** A file the tools write that is not valid JSON (a compile still writing it, a damaged file). */
export class ArtifactFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = 'ArtifactFileError';
  }
}

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The contracts of one parsed JSON document read from `file`. */
export function contractsOfJson(json: unknown, file: string): CompiledContract[] {
  if (!isObject(json)) return [];
  if (isObject(json.output) && isObject(json.output.contracts)) {
    const names = displayNames(json);
    return contractsOfOutput(json.output, file, compilationOf(json.output, json.input, json.source_id_to_path, names), names);
  }
  if (isObject(json.contracts)) return contractsOfOutput(json, file, compilationOf(json, undefined, undefined, new Map()), new Map());
  if (Array.isArray(json.abi) && isObject(json.deployedBytecode)) return [foundryContract(json, file)];
  return [];
}

/** Hardhat 3's build-info: the input part (names) and the output part, read from their two files. */
export function contractsOfSplitBuildInfo(input: unknown, output: unknown, file: string): CompiledContract[] {
  if (!isObject(output) || !isObject(output.output) || !isObject(output.output.contracts)) return [];
  const names = isObject(input) ? displayNames(input) : new Map<string, string>();
  return contractsOfOutput(output.output, file, compilationOf(output.output, isObject(input) ? input.input : undefined, undefined, names), names);
}

/** Hardhat 3 compiles `project/contracts/Token.sol` for the user's `contracts/Token.sol`: the user's names are shown. */
function displayNames(buildInfo: Obj): Map<string, string> {
  const map = buildInfo.userSourceNameMap;
  if (!isObject(map)) return new Map();
  return new Map(Object.entries(map).flatMap(([user, input]) => (typeof input === 'string' ? [[input, user] as const] : [])));
}

/** The compilation's sources by id: names (the user's), texts from the input, definitions from the output's ASTs. */
function compilationOf(output: Obj, input: unknown, sourceIdToPath: unknown, names: ReadonlyMap<string, string>): Compilation {
  const texts = isObject(input) && isObject(input.sources) ? input.sources : {};
  const sources = new Map<number, SourceFile>();
  const add = (id: number, name: string, ast: unknown) => {
    const given = texts[name];
    const content = isObject(given) && typeof given.content === 'string' ? given.content : undefined;
    sources.set(id, { name: names.get(name) ?? name, content, definitions: definitionsOf(ast) });
  };
  if (isObject(output.sources)) {
    for (const [name, source] of Object.entries(output.sources)) {
      if (isObject(source) && typeof source.id === 'number') add(source.id, name, source.ast);
    }
  }
  if (isObject(sourceIdToPath)) {
    for (const [id, name] of Object.entries(sourceIdToPath)) if (typeof name === 'string' && !sources.has(Number(id))) add(Number(id), name, undefined);
  }
  return { sources };
}

/** solc's `src`: "start:length:file". */
function range(src: unknown): { start: number; length: number } | undefined {
  if (typeof src !== 'string') return undefined;
  const [start, length] = src.split(':').map(Number);
  return start === undefined || length === undefined || Number.isNaN(start) || Number.isNaN(length) ? undefined : { start, length };
}

/** The contracts, functions and modifiers of a compact AST: they sit at its first two levels. */
function definitionsOf(ast: unknown): Definition[] {
  if (!isObject(ast) || !Array.isArray(ast.nodes)) return [];
  const definitions: Definition[] = [];
  const functionOf = (node: Obj, contract: string | undefined) => {
    const where = range(node.src);
    if (!where) return;
    if (node.nodeType === 'ModifierDefinition') {
      definitions.push({ kind: 'modifier', name: String(node.name ?? ''), contract, ...where, modifiers: [] });
    } else if (node.nodeType === 'FunctionDefinition') {
      const kind = node.kind === 'constructor' || node.kind === 'fallback' || node.kind === 'receive' ? node.kind : 'function';
      const modifiers = (Array.isArray(node.modifiers) ? node.modifiers : []).flatMap((invocation) => {
        const name = isObject(invocation) && isObject(invocation.modifierName) ? invocation.modifierName.name : undefined;
        const at = isObject(invocation) ? range(invocation.src) : undefined;
        return typeof name === 'string' && at ? [{ name, start: at.start }] : [];
      });
      definitions.push({ kind, name: String(node.name ?? ''), contract, ...where, modifiers });
    }
  };
  for (const node of ast.nodes) {
    if (!isObject(node)) continue;
    if (node.nodeType === 'ContractDefinition') {
      const name = String(node.name ?? '');
      const where = range(node.src);
      if (where) definitions.push({ kind: 'contract', name, contract: undefined, ...where, modifiers: [] });
      for (const member of Array.isArray(node.nodes) ? node.nodes : []) if (isObject(member)) functionOf(member, name);
    } else {
      functionOf(node, undefined);
    }
  }
  return definitions;
}

function contractsOfOutput(output: Obj, file: string, compilation: Compilation, names: ReadonlyMap<string, string>): CompiledContract[] {
  const contracts: CompiledContract[] = [];
  for (const [sourceName, byName] of Object.entries(output.contracts as Obj)) {
    if (!isObject(byName)) continue;
    for (const [name, entry] of Object.entries(byName)) {
      if (!isObject(entry)) continue;
      const evm = isObject(entry.evm) ? entry.evm : {};
      const bytecode = isObject(evm.bytecode) ? evm.bytecode : {};
      const deployed = isObject(evm.deployedBytecode) ? evm.deployedBytecode : {};
      contracts.push({
        name,
        sourceName: names.get(sourceName) ?? sourceName,
        abi: abiOf(entry.abi),
        creation: parseBytecode(bytecode.object, bytecode.sourceMap, bytecode.linkReferences, undefined),
        runtime: withLibraryGuard(parseBytecode(deployed.object, deployed.sourceMap, deployed.linkReferences, deployed.immutableReferences)),
        file,
        compilation,
      });
    }
  }
  return contracts;
}

/** forge's `out/Token.sol/Token.json`; the metadata's compilationTarget names the source, else the folder does. */
function foundryContract(json: Obj, file: string): CompiledContract {
  const metadata = isObject(json.metadata) ? json.metadata : parseMetadata(json.rawMetadata);
  const settings = isObject(metadata?.settings) ? metadata.settings : {};
  const target = isObject(settings.compilationTarget) ? Object.entries(settings.compilationTarget)[0] : undefined;
  const bytecode = isObject(json.bytecode) ? json.bytecode : {};
  const deployed = json.deployedBytecode as Obj;
  return {
    name: typeof target?.[1] === 'string' ? target[1] : path.basename(file, '.json'),
    sourceName: target?.[0] ?? path.basename(path.dirname(file)),
    abi: abiOf(json.abi),
    creation: parseBytecode(bytecode.object, bytecode.sourceMap, bytecode.linkReferences, undefined),
    runtime: withLibraryGuard(parseBytecode(deployed.object, deployed.sourceMap, deployed.linkReferences, deployed.immutableReferences)),
    file,
    compilation: undefined,
  };
}

function parseMetadata(raw: unknown): Obj | undefined {
  if (typeof raw !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The ABI's entries that have a type (solc's are all well-formed; anything else is dropped). */
function abiOf(abi: unknown): AbiItem[] {
  return Array.isArray(abi) ? abi.filter((item): item is AbiItem => isObject(item) && typeof item.type === 'string') : [];
}
