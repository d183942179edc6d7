/**
 * ABI work for the page, with viem's encoders and decoders (bundled, tree-shaken: only these
 * functions ship): form text to arguments, calldata and logs to names and values.
 */
import { type Abi, type Hex, decodeEventLog, decodeFunctionData, decodeFunctionResult, encodeFunctionData } from 'viem';
import type { AbiEntry, AbiParam } from './state.js';

/** A form field's text as the argument viem encodes for `param`: numbers as bigint, arrays and tuples as JSON. */
export function argumentOf(param: AbiParam, text: string): unknown {
  const value = text.trim();
  if (param.type.endsWith(']') || param.type === 'tuple') return JSON.parse(value);
  if (/^u?int\d*$/.test(param.type)) return BigInt(value);
  if (param.type === 'bool') {
    if (value !== 'true' && value !== 'false') throw new Error(`${param.name || param.type}: expected true or false`);
    return value === 'true';
  }
  return value;
}

/** A decoded value as text: bigints in decimal, structures as JSON. */
export function show(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return value;
  return JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? item.toString() : item));
}

export function encodeCall(entry: AbiEntry, args: readonly unknown[]): Hex {
  return encodeFunctionData({ abi: [entry] as unknown as Abi, functionName: entry.name!, args: args as unknown[] });
}

/** A call's return data as named text values. */
export function decodeResult(entry: AbiEntry, data: Hex): Array<{ name: string; type: string; value: string }> {
  const result = decodeFunctionResult({ abi: [entry] as unknown as Abi, functionName: entry.name!, data });
  const outputs = entry.outputs ?? [];
  const values = outputs.length === 1 ? [result] : (result as readonly unknown[]);
  return outputs.map((output, i) => ({ name: output.name, type: output.type, value: show(values[i]) }));
}

export interface DecodedCall {
  readonly name: string;
  readonly args: Array<{ name: string; type: string; value: string }>;
}

/** Transaction input decoded with `abi`; undefined when no function of it matches. */
export function decodeInput(abi: readonly AbiEntry[], data: Hex): DecodedCall | undefined {
  if (data.length < 10) return undefined;
  try {
    const decoded = decodeFunctionData({ abi: abi as unknown as Abi, data });
    const entry = abi.find((e) => e.type === 'function' && e.name === decoded.functionName && (e.inputs?.length ?? 0) === (decoded.args?.length ?? 0));
    return {
      name: decoded.functionName,
      args: (decoded.args ?? []).map((value, i) => ({ name: entry?.inputs?.[i]?.name ?? `${i}`, type: entry?.inputs?.[i]?.type ?? '', value: show(value) })),
    };
  } catch {
    return undefined;
  }
}

/** A log decoded with `abi`; undefined when no event of it matches. */
export function decodeLog(abi: readonly AbiEntry[], topics: readonly Hex[], data: Hex): DecodedCall | undefined {
  if (topics.length === 0) return undefined;
  try {
    const decoded = decodeEventLog({ abi: abi as unknown as Abi, topics: topics as [Hex, ...Hex[]], data });
    const args = decoded.args as unknown;
    const entries: Array<[string, unknown]> = Array.isArray(args) ? args.map((v, i) => [`${i}`, v]) : Object.entries((args ?? {}) as object);
    return { name: decoded.eventName ?? '', args: entries.map(([name, value]) => ({ name, type: '', value: show(value) })) };
  } catch {
    return undefined;
  }
}

/** `transfer(address to, uint256 amount)`. */
export function signature(entry: AbiEntry): string {
  return `${entry.name ?? entry.type}(${(entry.inputs ?? []).map((input) => `${input.type}${input.name ? ` ${input.name}` : ''}`).join(', ')})`;
}

export const isRead = (entry: AbiEntry): boolean => entry.type === 'function' && (entry.stateMutability === 'view' || entry.stateMutability === 'pure');
export const isWrite = (entry: AbiEntry): boolean => entry.type === 'function' && !isRead(entry);
