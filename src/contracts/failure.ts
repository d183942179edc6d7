/**
 * Why an execution failed, told with the project's contracts: the revert data decoded
 * (a custom error with its arguments, Error(string), a panic code), and the calls it failed
 * through, each named by contract and function. The call tree comes from a traced run (the
 * call tracer with each frame's code); the failure went down the calls that failed with the
 * data their caller failed with, to the frame where it started.
 */
import { bytesToBigInt, bytesToHex, equalsBytes } from '@ethereumjs/util';
import type { CallFrame } from '../engine/tracers/tracing.js';
import { type AbiItem, type AbiValue, decodeValues, parseType, signatureOf } from './abi.js';
import { hardhatValue } from './abiFormat.js';
import type { CompiledContract } from './compiled.js';
import type { ContractRegistry } from './registry.js';

/** Hardhat's names for what has no name of its own in the source (its stack traces use them). */
export const FALLBACK_FUNCTION = '<fallback>';
export const RECEIVE_FUNCTION = '<receive>';
export const CONSTRUCTOR_FUNCTION = 'constructor';
export const UNRECOGNIZED_FUNCTION = '<unrecognized-selector>';
export const UNKNOWN_FUNCTION = '<unknown>';
export const UNRECOGNIZED_CONTRACT = '<UnrecognizedContract>';

const ERROR_SELECTOR = '08c379a0';
const PANIC_SELECTOR = '4e487b71';

export interface DecodedArgument {
  readonly name: string;
  readonly type: string;
  readonly value: AbiValue;
}

export type RevertReason =
  | {
      readonly kind: 'customError';
      readonly name: string;
      readonly signature: string;
      readonly args: readonly DecodedArgument[];
      readonly declaredBy: CompiledContract;
    }
  | { readonly kind: 'errorString'; readonly text: string }
  | { readonly kind: 'panic'; readonly code: bigint }
  | { readonly kind: 'empty' }
  | { readonly kind: 'unrecognized' };

/** `InsufficientBalance(100, 1000)`: a custom error as Hardhat writes it in its messages. */
export function customErrorText(reason: Extract<RevertReason, { kind: 'customError' }>): string {
  return `${reason.name}(${reason.args.map((arg) => hardhatValue(arg.value)).join(', ')})`;
}

/** Decodes revert data: Error(string), Panic(uint256), or a custom error any known contract (or interface) declares. */
export function decodeRevert(registry: ContractRegistry | undefined, data: Uint8Array): RevertReason {
  if (data.length === 0) return { kind: 'empty' };
  if (data.length < 4) return { kind: 'unrecognized' };
  const selector = Buffer.from(data.subarray(0, 4)).toString('hex');
  const body = data.subarray(4);
  try {
    if (selector === ERROR_SELECTOR) {
      const [text] = decodeValues([{ kind: 'string' }], body);
      return { kind: 'errorString', text: (text as { value: string }).value };
    }
    if (selector === PANIC_SELECTOR && data.length === 36) return { kind: 'panic', code: bytesToBigInt(body) };
  } catch {
    return { kind: 'unrecognized' };
  }
  for (const { item, contract } of registry?.errors(selector) ?? []) {
    const args = decodeArguments(item.inputs ?? [], body);
    if (args) return { kind: 'customError', name: item.name ?? '', signature: signatureOf(item), args, declaredBy: contract };
  }
  return { kind: 'unrecognized' };
}

/** Values of `params` decoded from `data` with their names and types; undefined if the data does not decode. */
export function decodeArguments(params: NonNullable<AbiItem['inputs']>, data: Uint8Array): DecodedArgument[] | undefined {
  try {
    const types = params.map(parseType);
    const values = decodeValues(types, data);
    return params.map((param, i) => ({ name: param.name ?? '', type: param.type, value: values[i]! }));
  } catch {
    return undefined;
  }
}

/** A frame of the call tree with what the project knows of it. */
export interface NamedFrame {
  readonly frame: CallFrame;
  /** The contract whose code ran (the implementation's, in a DELEGATECALL's frame). */
  readonly contract: CompiledContract | undefined;
  /** `transfer`, or one of Hardhat's names: constructor, <fallback>, <receive>, <unrecognized-selector>, <unknown>. */
  readonly functionName: string;
  /** The function's ABI entry, when it has one. */
  readonly item: AbiItem | undefined;
}

/** Names the contract and function a frame ran. */
export function nameFrame(registry: ContractRegistry, frame: CallFrame): NamedFrame {
  const creation = frame.type === 'CREATE' || frame.type === 'CREATE2';
  const code = frame.code;
  const contract = code === undefined ? undefined : (creation ? registry.identifyCreation(code) : registry.identify(code))?.contract;
  if (creation) return { frame, contract, functionName: CONSTRUCTOR_FUNCTION, item: contract?.abi.find((entry) => entry.type === 'constructor') };
  if (!contract) return { frame, contract, functionName: UNKNOWN_FUNCTION, item: undefined };
  const has = (type: string) => contract.abi.some((entry) => entry.type === type);
  if (frame.input.length === 0 && has('receive')) return { frame, contract, functionName: RECEIVE_FUNCTION, item: undefined };
  if (frame.input.length >= 4) {
    const item = registry.functionOf(contract, Buffer.from(frame.input.subarray(0, 4)).toString('hex'));
    if (item) return { frame, contract, functionName: item.name ?? '', item };
  }
  return { frame, contract, functionName: has('fallback') ? FALLBACK_FUNCTION : UNRECOGNIZED_FUNCTION, item: undefined };
}

/**
 * The frames a failure went through, outermost first: from the root down the last failed call
 * whose output is the failing frame's own (the error passed up unchanged), to where it started.
 */
export function failurePath(root: CallFrame): CallFrame[] {
  const path = [root];
  let frame = root;
  for (;;) {
    let next: CallFrame | undefined;
    for (let i = frame.calls.length - 1; i >= 0; i--) {
      const call = frame.calls[i]!;
      if (call.type === 'SELFDESTRUCT' || call.error === undefined) continue;
      if (equalsBytes(call.output, frame.output)) next = call;
      break;
    }
    if (!next) return path;
    path.push(next);
    frame = next;
  }
}

/** The address a frame ran at, as users know it (a DELEGATECALL runs at its caller's). */
export function frameAddress(frame: CallFrame): string | undefined {
  const address = frame.type === 'DELEGATECALL' || frame.type === 'CALLCODE' ? frame.from : (frame.to ?? frame.createAddress);
  return address === undefined ? undefined : bytesToHex(address.bytes);
}
