/**
 * One frame of a call tree decoded with the project's contracts, as values rather than words
 * (namedTrace.ts writes words; src/rpc/namedTraceOutput.ts writes these as JSON): the contract
 * and function it ran, its arguments, and its return values or the error it reverted with;
 * and an event decoded with its declaration.
 */
import type { CallFrame, CallLog } from '../engine/index.js';
import { type AbiItem, type AbiParam, decodeValues, parseType, selectorOf, signatureOf } from './abi.js';
import type { CompiledContract } from './compiled.js';
import { type DecodedArgument, FALLBACK_FUNCTION, type NamedFrame, type RevertReason, decodeArguments, decodeRevert, nameFrame } from './failure.js';
import type { ContractRegistry } from './registry.js';

export interface DecodedFrame {
  readonly named: NamedFrame;
  readonly contract: CompiledContract;
  /**
   * `transfer(address,uint256)`, when the function (or constructor) has an ABI entry; for a
   * fallback (a proxy's), the function of another known contract it was called with, if any.
   */
  readonly signature: string | undefined;
  /** The arguments (a constructor's from the end of its init code); undefined when they do not decode. */
  readonly inputs: readonly DecodedArgument[] | undefined;
  /** A successful call's return values, by its ABI's outputs. */
  readonly outputs: readonly DecodedArgument[] | undefined;
  /** A frame that reverted: its revert data decoded. */
  readonly revert: RevertReason | undefined;
}

/** An event's fields; an indexed field of a dynamic type is only its hash (the topic). */
export interface DecodedEvent {
  readonly item: AbiItem;
  readonly signature: string;
  readonly args: readonly (DecodedArgument & { readonly indexed: boolean })[];
}

/** The frame decoded, when its code is one of the project's contracts; undefined otherwise. */
export function decodeFrame(registry: ContractRegistry, frame: CallFrame): DecodedFrame | undefined {
  const named = nameFrame(registry, frame);
  const contract = named.contract;
  if (!contract || frame.type === 'SELFDESTRUCT') return undefined;
  const creation = frame.type === 'CREATE' || frame.type === 'CREATE2';
  const item = named.item ?? forwardedFunction(registry, named);
  const argumentBytes = creation ? frame.input.subarray(contract.creation?.code.length ?? frame.input.length) : frame.input.subarray(4);
  const inputs = item ? decodeArguments(item.inputs ?? [], argumentBytes) : undefined;
  const reverted = frame.error === 'execution reverted';
  const outputs = !creation && frame.error === undefined && item?.outputs ? decodeArguments(item.outputs, frame.output) : undefined;
  return {
    named,
    contract,
    signature: item && !creation ? signatureOf(item) : item ? `constructor${signatureOf({ ...item, name: '' })}` : undefined,
    inputs,
    outputs,
    revert: reverted ? decodeRevert(registry, frame.output) : undefined,
  };
}

const bySelector = new WeakMap<readonly CompiledContract[], Map<string, AbiItem>>();

/**
 * A fallback frame's input read as the function of another known contract with its selector:
 * a proxy forwards calls meant for its implementation, and forge -vvvv decodes them so
 * (`BeaconProxy::fallback(2)`, `← [Return] 3`). The first contract declaring it wins.
 */
export function forwardedFunction(registry: ContractRegistry, named: NamedFrame): AbiItem | undefined {
  if (named.functionName !== FALLBACK_FUNCTION || named.frame.input.length < 4) return undefined;
  const contracts = registry.contracts();
  let map = bySelector.get(contracts);
  if (!map) {
    map = new Map();
    for (const contract of contracts) {
      for (const entry of contract.abi) {
        if (entry.type !== 'function') continue;
        let selector: string;
        try {
          selector = selectorOf(entry);
        } catch {
          continue; // a type the ABI does not have: never shown
        }
        if (!map.has(selector)) map.set(selector, entry);
      }
    }
    bySelector.set(contracts, map);
  }
  return map.get(Buffer.from(named.frame.input.subarray(0, 4)).toString('hex'));
}

/** The log decoded with the emitting contract's event (or any contract's with its topic); undefined when none decodes it. */
export function decodeEvent(registry: ContractRegistry, log: CallLog, emitter: CompiledContract | undefined): DecodedEvent | undefined {
  const topic = log.topics[0] ? Buffer.from(log.topics[0]).toString('hex') : undefined;
  if (topic === undefined) return undefined;
  const own = emitter ? registry.eventOf(emitter, topic) : undefined;
  const candidates = own ? [own] : registry.events(topic).map((declared) => declared.item);
  for (const item of candidates) {
    const args = eventArguments(item, log);
    if (args) return { item, signature: signatureOf(item), args };
  }
  return undefined;
}

function eventArguments(item: AbiItem, log: CallLog): DecodedEvent['args'] | undefined {
  if (item.anonymous) return undefined; // its first topic is no signature: nothing says it is this event
  const inputs = item.inputs ?? [];
  const indexed = inputs.filter((p) => p.indexed);
  const topics = log.topics.slice(1);
  if (topics.length !== indexed.length) return undefined;
  const data = decodeArguments(
    inputs.filter((p) => !p.indexed),
    log.data,
  );
  if (!data) return undefined;
  let t = 0;
  let d = 0;
  try {
    return inputs.map((param) => {
      if (!param.indexed) return { ...data[d++]!, indexed: false };
      const topic = topics[t++]!;
      return { name: param.name ?? '', type: topicType(param), value: topicValue(param, topic), indexed: true };
    });
  } catch {
    return undefined;
  }
}

/** An indexed field of a dynamic type (string, bytes, arrays, structs) is stored as the hash of its encoding. */
function isHashed(param: AbiParam): boolean {
  const type = parseType(param);
  return type.kind === 'bytes' || type.kind === 'string' || type.kind === 'array' || type.kind === 'tuple';
}

function topicType(param: AbiParam): string {
  return isHashed(param) ? 'bytes32' : param.type;
}

function topicValue(param: AbiParam, topic: Uint8Array): DecodedArgument['value'] {
  return isHashed(param) ? { kind: 'bytes', value: topic } : decodeValues([parseType(param)], topic)[0]!;
}
