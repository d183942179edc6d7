/**
 * Names the contract and function a failed transaction or call entered, from the project's
 * artifacts, for the stack of the error the test sees: `at Reverter.withReason (contracts/Reverter.sol)`.
 * Hardhat's network prints a full Solidity stack trace with lines; until chain-sim has those (its
 * own issue), this names the top-level contract: the one whose deployed code is at `to`, or whose
 * creation code starts the input of a deployment. Nothing is read until a failure asks for it;
 * then the artifacts are indexed once, by code length.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { HardhatNetworkProvider, FailedExecution } from './provider.js';

/** The fields of a Hardhat artifact the locator reads. */
export interface ArtifactLike {
  readonly contractName: string;
  readonly sourceName: string;
  readonly abi: readonly AbiItem[];
  readonly bytecode: string;
  readonly deployedBytecode: string;
}

interface AbiItem {
  readonly type: string;
  readonly name?: string;
  readonly inputs?: readonly AbiParam[];
}

interface AbiParam {
  readonly type: string;
  readonly components?: readonly AbiParam[];
}

/** Code with the bytes an artifact leaves open (library links, immutables: zeros there) marked free. */
interface CodePattern {
  readonly bytes: Uint8Array;
  /** True where any byte matches: a link placeholder, or a zero byte of the artifact (an immutable's slot, maybe). */
  readonly free: Uint8Array;
}

interface IndexedContract {
  readonly artifact: ArtifactLike;
  readonly deployed: CodePattern;
  readonly creation: CodePattern;
  /** Function names by 4-byte selector (hex, no 0x). */
  readonly functions: ReadonlyMap<string, string>;
}

/** A hex string with `__$...$__` link placeholders, as a pattern. */
function patternOf(hex: string): CodePattern {
  const text = hex.replace(/^0x/, '');
  const bytes = new Uint8Array(text.length / 2);
  const free = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const pair = text.slice(2 * i, 2 * i + 2);
    if (/^[0-9a-fA-F]{2}$/.test(pair)) {
      bytes[i] = Number.parseInt(pair, 16);
      free[i] = bytes[i] === 0 ? 1 : 0;
    } else free[i] = 1; // inside a link placeholder
  }
  return { bytes, free };
}

function matches(pattern: CodePattern, code: Uint8Array, length: number): boolean {
  if (code.length < length || pattern.bytes.length !== length) return false;
  for (let i = 0; i < length; i++) if (pattern.free[i] === 0 && pattern.bytes[i] !== code[i]) return false;
  return true;
}

/** The canonical type of an ABI parameter (tuples spelled out), as selectors hash it. */
function canonical(param: AbiParam): string {
  if (!param.type.startsWith('tuple')) return param.type;
  return `(${(param.components ?? []).map(canonical).join(',')})${param.type.slice('tuple'.length)}`;
}

function functionsOf(abi: readonly AbiItem[]): Map<string, string> {
  const functions = new Map<string, string>();
  for (const item of abi) {
    if (item.type !== 'function' || item.name === undefined) continue;
    const signature = `${item.name}(${(item.inputs ?? []).map(canonical).join(',')})`;
    functions.set(Buffer.from(keccak_256(new TextEncoder().encode(signature)).subarray(0, 4)).toString('hex'), item.name);
  }
  return functions;
}

function bytesOf(hex: unknown): Uint8Array {
  return typeof hex === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(hex) ? Uint8Array.from(Buffer.from(hex.slice(2), 'hex')) : new Uint8Array();
}

/** The locator the provider calls on a failure; `load` reads the project's artifacts (once). */
export function contractLocator(load: () => Promise<readonly ArtifactLike[]>) {
  let index: Promise<IndexedContract[]> | undefined;
  const contracts = () =>
    (index ??= load().then((artifacts) =>
      artifacts
        .filter((artifact) => artifact.deployedBytecode.length > 2)
        .map((artifact) => ({
          artifact,
          deployed: patternOf(artifact.deployedBytecode),
          creation: patternOf(artifact.bytecode),
          functions: functionsOf(artifact.abi),
        })),
    ));

  return async (failure: FailedExecution, provider: HardhatNetworkProvider): Promise<readonly string[]> => {
    const call = await callOf(failure, provider);
    if (call === undefined) return [];
    const known = await contracts();
    if (call.to === undefined) {
      const created = known.find(({ creation }) => matches(creation, call.input, creation.bytes.length));
      return created ? [`${created.artifact.contractName}.constructor (${created.artifact.sourceName})`] : [];
    }
    const code = bytesOf(await provider.chain().request({ method: 'eth_getCode', params: [call.to, 'latest'] }));
    const entered = known.find(({ deployed }) => matches(deployed, code, code.length));
    if (entered === undefined) return [];
    const selector = Buffer.from(call.input.subarray(0, 4)).toString('hex');
    const name = call.input.length >= 4 ? (entered.functions.get(selector) ?? '<unrecognized-selector>') : '<receive or fallback>';
    return [`${entered.artifact.contractName}.${name} (${entered.artifact.sourceName})`];
  };
}

/** The `to` and input of the failed call or transaction. */
async function callOf(failure: FailedExecution, provider: HardhatNetworkProvider): Promise<{ to: string | undefined; input: Uint8Array } | undefined> {
  let request: unknown = failure.params[0];
  if (failure.method === 'eth_sendRawTransaction') {
    if (failure.transactionHash === undefined) return undefined;
    request = await provider.chain().request({ method: 'eth_getTransactionByHash', params: [failure.transactionHash] });
  }
  if (typeof request !== 'object' || request === null) return undefined;
  const { to, data, input } = request as { to?: unknown; data?: unknown; input?: unknown };
  return { to: typeof to === 'string' ? to : undefined, input: bytesOf(input ?? data) };
}
