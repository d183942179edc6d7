/**
 * The project's contracts, as the node knows them: the compiler output under a few folders
 * (--artifacts, the working directory's Hardhat or Foundry project, chain_loadArtifacts),
 * read when something first needs it (a failure to explain, a trace to name, a console.log to
 * attribute) and read again when its files change (a recompile). Code is identified by its
 * bytes (bytecodeMatch.ts), once per distinct code (cached by its hash).
 *
 * Nothing is read at start but the folders' listings; a node with no artifacts does no work at all.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { type AbiItem, selectorOf, topicOf } from './abi.js';
import { ArtifactsError, type ArtifactUnit, checkArtifactPath, listUnits, noOutput } from './artifactFiles.js';
import { ArtifactFileError, contractsOfJson, contractsOfSplitBuildInfo } from './artifactFormats.js';
import { compareCode } from './bytecodeMatch.js';
import { type CompiledContract, qualifiedName } from './compiled.js';

/** A compiled contract that code matched; `exact` when its metadata matched too (the same build). */
export interface ContractMatch {
  readonly contract: CompiledContract;
  readonly exact: boolean;
}

/** An ABI entry with the contract that declares it. */
export interface Declared {
  readonly item: AbiItem;
  readonly contract: CompiledContract;
}

/** What a load added: the files read and the contracts in them (`contracts/Token.sol:Token`). */
export interface LoadSummary {
  readonly files: number;
  readonly contracts: readonly string[];
}

/** How long a listing of the folders stays current: a recompile is noticed this long after it at most. */
const RESCAN_MS = 1000;

interface LoadedUnit {
  readonly signature: string;
  readonly contracts: readonly CompiledContract[];
}

interface Index {
  readonly contracts: readonly CompiledContract[];
  readonly byRuntimeLength: ReadonlyMap<number, readonly CompiledContract[]>;
  readonly withCreation: readonly CompiledContract[];
  errors?: Map<string, Declared[]>;
  events?: Map<string, Declared[]>;
}

/**
 * The units read in this process, by their files, as they were at their signature: shared by every
 * registry. Each chain has a registry of its own over the same folders (a Hardhat 3 project's tests
 * open a chain per test file, and more), and each reading the project's build infos again took
 * longer than the tests themselves (OpenZeppelin Contracts': hundreds of megabytes of JSON per
 * chain). What was read is not changed afterwards, so sharing it is safe. A unit that could not be
 * read is not kept: each registry warns about it (or refuses it) itself.
 */
const readInProcess = new Map<string, LoadedUnit>();

export class ContractRegistry {
  private readonly roots: string[] = [];
  private readonly units = new Map<string, Map<string, LoadedUnit>>();
  /** Compiler output handed over in a request rather than read from files, by its id. */
  private readonly given = new Map<string, readonly CompiledContract[]>();
  private lastScan = Number.NEGATIVE_INFINITY;
  private index: Index | undefined;
  private readonly identified = new Map<string, ContractMatch | null>();
  private readonly functionsByContract = new WeakMap<CompiledContract, Map<string, AbiItem>>();
  private readonly eventsByContract = new WeakMap<CompiledContract, Map<string, AbiItem>>();
  private readonly warned = new Set<string>();

  constructor(
    roots: readonly string[],
    /** Where a file that cannot be read is reported (once per version of the file). */
    private readonly warn: (message: string) => void = () => {},
    private readonly now: () => number = () => performance.now(),
  ) {
    for (const root of roots) this.addRoot(root);
  }

  /** Whether any artifacts may exist: false means every question answers "unknown" at no cost. */
  get active(): boolean {
    return this.roots.length > 0 || this.given.size > 0;
  }

  /** Adds a file or folder (checked now: it must hold compiler output) and reads it at once; a folder already known is read again. */
  loadPath(given: string, cwd = process.cwd()): LoadSummary {
    const resolved = path.resolve(cwd, given);
    checkArtifactPath(given, resolved);
    const isNew = !this.roots.includes(resolved);
    this.addRoot(resolved);
    let loaded: Map<string, LoadedUnit>;
    try {
      loaded = this.scanRoot(resolved, true);
      if (![...loaded.values()].some((unit) => unit.contracts.length > 0)) throw new ArtifactsError(noOutput(given));
    } catch (error) {
      // A path that cannot be read is not kept: later reads would only warn about it again.
      if (isNew) {
        this.roots.splice(this.roots.indexOf(resolved), 1);
        this.units.delete(resolved);
      }
      throw error;
    }
    this.rebuild();
    const contracts = [...loaded.values()].flatMap((unit) => unit.contracts);
    return { files: loaded.size, contracts: [...new Set(contracts.map(qualifiedName))] };
  }

  /** Adds compiler output given as a value (a build-info, `{ input, output }`, or solc's output). */
  loadOutput(json: unknown): LoadSummary {
    const id = typeof (json as { id?: unknown })?.id === 'string' ? (json as { id: string }).id : `given #${this.given.size + 1}`;
    const contracts = contractsOfJson(json, `(${id})`);
    if (contracts.length === 0)
      throw new ArtifactsError('artifacts: the value holds no contracts (expected solc standard-JSON output, alone or as { input, output }, or a build-info)');
    this.given.set(id, contracts);
    this.rebuild();
    return { files: 0, contracts: [...new Set(contracts.map(qualifiedName))] };
  }

  /** Every contract known (the files read first if they changed). */
  contracts(): readonly CompiledContract[] {
    return this.current()?.contracts ?? [];
  }

  /** The contract whose runtime code `code` is, if any. */
  identify(code: Uint8Array): ContractMatch | undefined {
    if (code.length === 0) return undefined;
    const index = this.current();
    if (!index) return undefined;
    const key = Buffer.from(keccak_256(code)).toString('hex');
    const cached = this.identified.get(key);
    if (cached !== undefined) return cached ?? undefined;
    const found = best(index.byRuntimeLength.get(code.length) ?? [], (contract) => compareCode(code, contract.runtime!));
    this.identified.set(key, found ?? null);
    return found;
  }

  /** The contract whose creation code `initCode` starts with (constructor arguments follow it). */
  identifyCreation(initCode: Uint8Array): ContractMatch | undefined {
    const index = this.current();
    if (!index || initCode.length === 0) return undefined;
    return best(index.withCreation, (contract) => compareCode(initCode, contract.creation!));
  }

  /** The custom errors (any contract's, interfaces' too) whose selector is `selector` (8 hex digits). */
  errors(selector: string): readonly Declared[] {
    const index = this.current();
    if (!index) return [];
    index.errors ??= declarations(index.contracts, 'error', selectorOf);
    return index.errors.get(selector) ?? [];
  }

  /** The events (any contract's) whose first topic is `topic` (64 hex digits). */
  events(topic: string): readonly Declared[] {
    const index = this.current();
    if (!index) return [];
    index.events ??= declarations(index.contracts, 'event', topicOf);
    return index.events.get(topic) ?? [];
  }

  /** `contract`'s function with this selector (8 hex digits). */
  functionOf(contract: CompiledContract, selector: string): AbiItem | undefined {
    let map = this.functionsByContract.get(contract);
    if (!map) this.functionsByContract.set(contract, (map = byKey(contract.abi, 'function', selectorOf)));
    return map.get(selector);
  }

  /** `contract`'s event with this first topic (64 hex digits). */
  eventOf(contract: CompiledContract, topic: string): AbiItem | undefined {
    let map = this.eventsByContract.get(contract);
    if (!map) this.eventsByContract.set(contract, (map = byKey(contract.abi, 'event', topicOf)));
    return map.get(topic);
  }

  private addRoot(root: string): void {
    if (!this.roots.includes(root)) this.roots.push(root);
  }

  /** The index, with the folders listed again if the last listing is older than RESCAN_MS. */
  private current(): Index | undefined {
    if (!this.active) return undefined;
    if (this.now() - this.lastScan >= RESCAN_MS) {
      let changed = this.index === undefined;
      for (const root of this.roots) if (this.scanRoot(root, false).changed) changed = true;
      this.lastScan = this.now();
      if (changed) this.rebuild();
    }
    return this.index;
  }

  /** Lists `root` and reads the units that are new or changed; `strict`: a file that cannot be read is an error. */
  private scanRoot(root: string, strict: boolean): Map<string, LoadedUnit> & { changed?: boolean } {
    const previous = this.units.get(root) ?? new Map<string, LoadedUnit>();
    const next: Map<string, LoadedUnit> & { changed?: boolean } = new Map();
    let changed = false;
    for (const unit of listUnits(root)) {
      const key = unit.files.join('|');
      const known = previous.get(key);
      if (known && known.signature === unit.signature) {
        next.set(key, known);
        continue;
      }
      changed = true;
      const processKey = unit.files.map((file) => path.resolve(file)).join('|');
      const shared = readInProcess.get(processKey);
      if (shared?.signature === unit.signature) {
        next.set(key, shared);
        continue;
      }
      const contracts = this.read(unit, strict);
      if (contracts === undefined) {
        next.set(key, { signature: unit.signature, contracts: [] });
        continue;
      }
      const loaded = { signature: unit.signature, contracts };
      readInProcess.set(processKey, loaded);
      next.set(key, loaded);
    }
    if (next.size !== previous.size) changed = true;
    this.units.set(root, next);
    next.changed = changed;
    return next;
  }

  /** The unit's contracts; undefined when it could not be read (warned about, or thrown when `strict`). */
  private read(unit: ArtifactUnit, strict: boolean): CompiledContract[] | undefined {
    try {
      const [first, second] = unit.files.map(readJson);
      return second === undefined ? contractsOfJson(first, unit.files[0]!) : contractsOfSplitBuildInfo(first, second, unit.files[1]!);
    } catch (error) {
      if (!(error instanceof ArtifactFileError)) throw error;
      if (strict) throw new ArtifactsError(`artifacts: ${error.message}`);
      const key = `${unit.files.join('|')}@${unit.signature}`;
      if (!this.warned.has(key)) {
        this.warned.add(key);
        this.warn(`artifacts: skipped ${error.message}`);
      }
      return undefined;
    }
  }

  private rebuild(): void {
    const seen = new Set<string>();
    const contracts: CompiledContract[] = [];
    const all = [...[...this.units.values()].flatMap((units) => [...units.values()].flatMap((unit) => unit.contracts)), ...[...this.given.values()].flat()];
    // The same contract of the same build read twice (Foundry's build-info and its per-contract file) is kept once.
    for (const contract of all) {
      const key = identityOf(contract);
      if (seen.has(key)) continue;
      seen.add(key);
      contracts.push(contract);
    }
    const byRuntimeLength = new Map<number, CompiledContract[]>();
    for (const contract of contracts) {
      if (!contract.runtime) continue;
      const list = byRuntimeLength.get(contract.runtime.code.length) ?? [];
      list.push(contract);
      byRuntimeLength.set(contract.runtime.code.length, list);
    }
    this.index = { contracts, byRuntimeLength, withCreation: contracts.filter((c) => c.creation !== undefined) };
    this.identified.clear();
  }
}

/**
 * A contract's name and code hash, which tell the same contract read twice. Kept per contract
 * object for the process: the objects are shared by every registry (readInProcess), and each
 * new chain hashing every contract's code again took most of its registry's first build
 * (OpenZeppelin Contracts' 815 contracts: about 140 ms a chain).
 */
const identities = new WeakMap<CompiledContract, string>();

function identityOf(contract: CompiledContract): string {
  let identity = identities.get(contract);
  if (identity === undefined) {
    identity = `${qualifiedName(contract)}:${contract.runtime ? Buffer.from(keccak_256(contract.runtime.code)).toString('hex') : ''}`;
    identities.set(contract, identity);
  }
  return identity;
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ArtifactFileError(file, (error as NodeJS.ErrnoException).code ?? 'cannot be read');
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ArtifactFileError(file, `not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** The best match among `candidates`: an exact one (same metadata) over one that matches all but metadata; later builds first. */
function best(candidates: readonly CompiledContract[], compare: (contract: CompiledContract) => 'exact' | 'code' | undefined): ContractMatch | undefined {
  let found: ContractMatch | undefined;
  for (let i = candidates.length - 1; i >= 0; i--) {
    const contract = candidates[i]!;
    const result = compare(contract);
    if (result === 'exact') return { contract, exact: true };
    if (result === 'code' && !found) found = { contract, exact: false };
  }
  return found;
}

function byKey(abi: readonly AbiItem[], type: string, key: (item: AbiItem) => string): Map<string, AbiItem> {
  const map = new Map<string, AbiItem>();
  for (const item of abi) if (item.type === type) map.set(safeKey(item, key), item);
  return map;
}

function declarations(contracts: readonly CompiledContract[], type: string, key: (item: AbiItem) => string): Map<string, Declared[]> {
  const map = new Map<string, Declared[]>();
  for (const contract of contracts) {
    for (const item of contract.abi) {
      if (item.type !== type) continue;
      const k = safeKey(item, key);
      const list = map.get(k) ?? [];
      list.push({ item, contract });
      map.set(k, list);
    }
  }
  return map;
}

/**
 * An ABI entry's selector or topic, kept per entry for the process: entries are shared by every
 * registry (readInProcess), and each chain hashing every signature of the project again cost
 * its first decoded failure about 50 ms on OpenZeppelin Contracts. An entry whose types are not
 * the ABI's gets a key nothing matches (it is never shown).
 */
const keys = new WeakMap<(item: AbiItem) => string, WeakMap<AbiItem, string>>();

function safeKey(item: AbiItem, key: (item: AbiItem) => string): string {
  let known = keys.get(key);
  if (!known) keys.set(key, (known = new WeakMap()));
  let found = known.get(item);
  if (found === undefined) {
    try {
      found = key(item);
    } catch {
      found = '';
    }
    known.set(item, found);
  }
  return found;
}
