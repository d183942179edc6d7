// The ERC-20 used by the token workloads (fixtures/contracts/Token.sol): compiled once with solc-js (no
// network, the bundled compiler) and cached on disk, because loading solc costs
// seconds and hundreds of MB that would otherwise land on every run.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AbiCoder } from 'ethers';

// The project's own test token (fixtures/contracts/Token.sol), compiled here for an older EVM.
const SOURCE_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'contracts', 'Token.sol');
const SOURCE = readFileSync(SOURCE_FILE, 'utf8');

// paris: no PUSH0/MCOPY, so the bytecode runs on every tool's default hardfork.
const SETTINGS = { optimizer: { enabled: true, runs: 200 }, evmVersion: 'paris' };

export interface TokenArtifact {
  /** Creation bytecode, 0x-prefixed, without constructor arguments. */
  bytecode: string;
  solcVersion: string;
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { evm?: { bytecode?: { object?: string } } }>>;
}

interface Solc {
  version(): string;
  compile(input: string): string;
}

export function loadTokenArtifact(): TokenArtifact {
  const require = createRequire(import.meta.url);
  const solcVersion = (require('solc/package.json') as { version: string }).version;
  const key = createHash('sha256').update(SOURCE).update(JSON.stringify(SETTINGS)).update(solcVersion).digest('hex');
  const cacheFile = path.join(os.tmpdir(), 'chain-sim-bench-cache', `erc20-${key.slice(0, 16)}.json`);
  if (existsSync(cacheFile)) return JSON.parse(readFileSync(cacheFile, 'utf8')) as TokenArtifact;

  const solc = require('solc') as Solc;
  const input = {
    language: 'Solidity',
    sources: { 'Token.sol': { content: SOURCE } },
    settings: { ...SETTINGS, outputSelection: { '*': { '*': ['evm.bytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  const object = output.contracts?.['Token.sol']?.['Token']?.evm?.bytecode?.object;
  if (!object) throw new Error('solc produced no bytecode for Token');

  const artifact: TokenArtifact = { bytecode: `0x${object}`, solcVersion: solc.version() };
  mkdirSync(path.dirname(cacheFile), { recursive: true });
  // Written aside and renamed: test files run in parallel processes, and one may read while another writes.
  const partial = `${cacheFile}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify(artifact));
  renameSync(partial, cacheFile);
  return artifact;
}

// Hand-rolled ABI encoding: three static signatures do not justify an ABI coder.
const word = (value: bigint): string => value.toString(16).padStart(64, '0');
const addressWord = (address: string): string => address.slice(2).toLowerCase().padStart(64, '0');

/** Token(name, symbol, supply): the whole supply goes to the deployer. */
export const encodeConstructor = (artifact: TokenArtifact, supply: bigint): string =>
  artifact.bytecode + AbiCoder.defaultAbiCoder().encode(['string', 'string', 'uint256'], ['Bench', 'BNCH', supply]).slice(2);
/** transfer(address,uint256) */
export const encodeTransfer = (to: string, value: bigint): string => `0xa9059cbb${addressWord(to)}${word(value)}`;
/** balanceOf(address) */
export const encodeBalanceOf = (owner: string): string => `0x70a08231${addressWord(owner)}`;
/** Transfer(address,address,uint256) */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
