/**
 * The contracts of test/contracts/project/ compiled into each layout chain-sim reads: a real
 * Hardhat 2 project (`hardhat compile`, offline through solc-js), solc standard-JSON files,
 * Hardhat 3's split build-info (its two files as Hardhat 3 writes them, from solc-js's output),
 * and a real Foundry project (`forge build` through the solc-js shim, when forge can be had).
 * Each is built once per test process, in a temporary folder removed at exit.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findForge, writeOfflineProject } from './forge.js';
import { runNode } from './cli.js';

const require = createRequire(import.meta.url);
export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const SOURCES = path.join(REPO, 'test/contracts/project/contracts');
const HARDHAT_CLI = path.join(REPO, 'node_modules/hardhat/internal/cli/cli.js');
const OFFLINE = path.join(REPO, 'test/e2e/hardhat-matchers/hardhat.offline.cjs');

const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(label: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `chain-sim-${label}-`));
  made.push(dir);
  return dir;
}

/** The project's Solidity files by name (`Token.sol`). */
export function projectSources(): Record<string, string> {
  return Object.fromEntries(
    readdirSync(SOURCES)
      .filter((f) => f.endsWith('.sol'))
      .map((f) => [f, readFileSync(path.join(SOURCES, f), 'utf8')]),
  );
}

export interface SolcRun {
  readonly input: { language: string; sources: Record<string, { content: string }>; settings: object };
  readonly output: {
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
    sources: Record<string, { id: number }>;
  };
  readonly longVersion: string;
}

const solcRuns = new Map<string, SolcRun>();

/**
 * The project compiled by solc-js, its files named `<prefix><File>.sol` (Hardhat's output
 * selection); `comment` is appended to every file (the same code, other metadata).
 */
export function compileProject(prefix = 'contracts/', optimizer = false, comment = '', header = ''): SolcRun {
  const key = `${prefix}|${optimizer}|${comment}|${header}`;
  const cached = solcRuns.get(key);
  if (cached) return cached;
  const solc = require('solc') as { compile(input: string, callbacks: object): string; version(): string };
  const sources = Object.fromEntries(Object.entries(projectSources()).map(([file, content]) => [`${prefix}${file}`, { content: header + content + comment }]));
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: optimizer, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: {
        '*': { '*': ['abi', 'evm.bytecode', 'evm.deployedBytecode', 'evm.methodIdentifiers', 'metadata'], '': ['ast'] },
      },
    },
  };
  const findImport = (file: string) => {
    const local = file.startsWith(prefix) ? path.join(SOURCES, file.slice(prefix.length)) : path.join(REPO, 'node_modules', file);
    try {
      return { contents: file.startsWith(prefix) ? header + readFileSync(local, 'utf8') + comment : readFileSync(local, 'utf8') };
    } catch {
      return { error: `not found: ${file}` };
    }
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport }));
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'));
  const run = { input, output, longVersion: solc.version() };
  solcRuns.set(key, run);
  return run;
}

/** One Solidity file compiled by solc-js for `evmVersion`, with the output the artifact readers take. */
export function compileSource(file: string, content: string, evmVersion: string): SolcRun {
  const solc = require('solc') as { compile(input: string): string; version(): string };
  const input = {
    language: 'Solidity',
    sources: { [file]: { content } },
    settings: {
      evmVersion,
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode', 'evm.deployedBytecode', 'metadata'], '': ['ast'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'));
  return { input, output, longVersion: solc.version() };
}

/** A folder holding solc's standard JSON: one file with `{ input, output }`. */
export function solcJsonFolder(): string {
  const dir = tempDir('solc-json');
  const { input, output } = compileProject();
  writeFileSync(path.join(dir, 'compiled.json'), JSON.stringify({ input, output }));
  return dir;
}

/**
 * Hardhat 3's build-info as Hardhat 3 writes it (hardhat/types/solidity: SolidityBuildInfo and
 * SolidityBuildInfoOutput): `artifacts/build-info/<id>.json` holds the input, with source names
 * under `project/` and `userSourceNameMap` from the user's names to those; `<id>.output.json` the output.
 */
export function hardhat3Project(): string {
  const dir = tempDir('hardhat3');
  // Hardhat 3 compiles the user's contracts/Token.sol as project/contracts/Token.sol: the same run, its source names prefixed.
  const run = compileProject();
  const prefixed = <T>(byName: Record<string, T>) =>
    Object.fromEntries(Object.entries(byName).map(([name, value]) => [name.startsWith('contracts/') ? `project/${name}` : name, value]));
  const input = { ...run.input, sources: prefixed(run.input.sources) };
  const output = { ...run.output, contracts: prefixed(run.output.contracts), sources: prefixed(run.output.sources) };
  const longVersion = run.longVersion;
  const id = 'solc-0_8_30-0123456789abcdef0123456789abcdef01234567';
  const buildInfo = path.join(dir, 'artifacts', 'build-info');
  mkdirSync(buildInfo, { recursive: true });
  const userSourceNameMap = Object.fromEntries(
    Object.keys(input.sources).map((name) => [name.startsWith('project/') ? name.slice('project/'.length) : name, name]),
  );
  writeFileSync(
    path.join(buildInfo, `${id}.json`),
    JSON.stringify({ _format: 'hh3-sol-build-info-1', id, solcVersion: '0.8.30', solcLongVersion: longVersion, userSourceNameMap, input }),
  );
  writeFileSync(path.join(buildInfo, `${id}.output.json`), JSON.stringify({ _format: 'hh3-sol-build-info-output-1', id, output }));
  writeFileSync(path.join(dir, 'hardhat.config.ts'), 'export default {};\n');
  return dir;
}

let hardhat2: Promise<string> | undefined;

/** A Hardhat 2 project compiled by `hardhat compile` (offline: solc-js): artifacts/build-info/ as Hardhat writes it. */
export function hardhat2Project(): Promise<string> {
  hardhat2 ??= (async () => {
    const dir = tempDir('hardhat2');
    mkdirSync(path.join(dir, 'contracts'));
    for (const [file, content] of Object.entries(projectSources())) writeFileSync(path.join(dir, 'contracts', file), content);
    symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
    writeFileSync(path.join(dir, 'hardhat.config.cjs'), `require(${JSON.stringify(OFFLINE)});\nmodule.exports = { solidity: '0.8.30' };\n`);
    const run = await runNode([HARDHAT_CLI, 'compile', '--quiet'], { cwd: dir, env: { HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' } });
    if (run.code !== 0) throw new Error(`hardhat compile failed:\n${run.stdout}\n${run.stderr}`);
    return dir;
  })();
  return hardhat2;
}

let foundry: Promise<string | undefined> | undefined;

/** A Foundry project built by `forge build` (with --build-info); undefined when forge cannot be had. */
export function foundryProject(): Promise<string | undefined> {
  foundry ??= (async () => {
    const forge = findForge();
    if (!forge) return undefined;
    const dir = tempDir('foundry');
    await writeOfflineProject(dir, Object.fromEntries(Object.entries(projectSources()).map(([file, content]) => [`src/${file}`, content])));
    symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
    writeFileSync(path.join(dir, 'remappings.txt'), 'hardhat/=node_modules/hardhat/\n');
    execFileSync(forge, ['build', '--build-info', '--evm-version', 'cancun'], { cwd: dir, stdio: 'pipe' });
    return dir;
  })();
  return foundry;
}

/** Anything with EIP-1193's request: the in-process provider, or a forked one. */
export interface Requester {
  request(args: { method: string; params?: readonly unknown[] }): Promise<unknown>;
}

export const DEPLOYER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

/**
 * Deploys `name` of `run` with ABI-encoded constructor arguments (hex without 0x), its library
 * placeholders filled with `libraries` (library name to address); answers the address.
 */
export async function deploy(provider: Requester, run: SolcRun, name: string, args = '', libraries: Record<string, string> = {}): Promise<string> {
  const contract = Object.values(run.output.contracts).find((byName) => byName[name])?.[name];
  if (!contract) throw new Error(`no contract ${name}`);
  let code = contract.evm.bytecode.object;
  const links = (contract.evm.bytecode as { linkReferences?: Record<string, Record<string, { start: number; length: number }[]>> }).linkReferences ?? {};
  for (const byLibrary of Object.values(links)) {
    for (const [library, places] of Object.entries(byLibrary)) {
      const address = libraries[library];
      if (!address) throw new Error(`${name} needs library ${library}`);
      for (const { start } of places) code = code.slice(0, start * 2) + address.slice(2).toLowerCase() + code.slice(start * 2 + 40);
    }
  }
  const hash = await provider.request({ method: 'eth_sendTransaction', params: [{ from: DEPLOYER, data: `0x${code}${args}`, gas: '0xf42400' }] });
  const receipt = (await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: string; status: string };
  if (receipt.status !== '0x1') throw new Error(`deploying ${name} failed`);
  return receipt.contractAddress;
}

/** A 32-byte ABI word (hex without 0x) for a number or an address. */
export function word(value: bigint | number | string): string {
  const n = typeof value === 'string' ? BigInt(value) : BigInt(value);
  return n.toString(16).padStart(64, '0');
}
