/**
 * Decoded ABI values written out three ways: as Hardhat writes a custom error's arguments
 * (`InsufficientBalance(100, 1000)`, strings, addresses and bytes in double quotes, arrays and
 * tuples in brackets), as forge -vvvv writes a call's arguments (addresses and bytes bare,
 * tuples in parentheses), and as JSON (numbers as decimal strings: they outgrow JSON numbers).
 */
import type { AbiValue } from './abi.js';
import type { Json } from '../rpc/json.js';

const hex = (bytes: Uint8Array): string => `0x${Buffer.from(bytes).toString('hex')}`;

/** Hardhat's form of one value (checked against Hardhat 2.29's messages). */
export function hardhatValue(value: AbiValue): string {
  switch (value.kind) {
    case 'uint':
    case 'int':
      return value.value.toString();
    case 'bool':
      return String(value.value);
    case 'address':
    case 'string':
      return `"${value.value}"`;
    case 'bytes':
    case 'function':
      return `"${hex(value.value)}"`;
    case 'array':
    case 'tuple':
      return `[${value.items.map(hardhatValue).join(', ')}]`;
  }
}

/**
 * forge's form of one value in a trace; `label` names an address forge knows as a contract
 * (`Vault: [0x9fE4…a6e0]`, as forge 1.7.1 writes it).
 */
export function forgeValue(value: AbiValue, label?: (address: string) => string | undefined): string {
  const inner = (item: AbiValue) => forgeValue(item, label);
  switch (value.kind) {
    case 'uint':
    case 'int':
      return value.value.toString();
    case 'bool':
      return String(value.value);
    case 'address': {
      const name = label?.(value.value);
      return name === undefined ? value.value : `${name}: [${value.value}]`;
    }
    case 'string':
      return JSON.stringify(value.value);
    case 'bytes':
    case 'function':
      return hex(value.value);
    case 'array':
      return `[${value.items.map(inner).join(', ')}]`;
    case 'tuple':
      return `(${value.items.map(inner).join(', ')})`;
  }
}

/** The JSON form: decimal strings for numbers, hex for bytes, lists for arrays and tuples. */
export function jsonValue(value: AbiValue): Json {
  switch (value.kind) {
    case 'uint':
    case 'int':
      return value.value.toString();
    case 'bool':
    case 'address':
    case 'string':
      return value.value;
    case 'bytes':
    case 'function':
      return hex(value.value);
    case 'array':
    case 'tuple':
      return value.items.map(jsonValue);
  }
}
