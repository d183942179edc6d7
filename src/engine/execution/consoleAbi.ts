/**
 * The ABI decoding console.sol's payloads need: one head word per argument, strings and
 * bytes through an offset to their length and data. Only the types console.sol sends.
 */

export type ConsoleType = 'uint256' | 'int256' | 'string' | 'bool' | 'address' | 'bytes' | `bytes${number}`;

const WORD = 32;
const utf8 = new TextDecoder();
const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;

/** The arguments `data` encodes, as bigint, boolean or string; undefined when it does not decode as `types`. */
export function decodeConsoleArguments(types: readonly ConsoleType[], data: Uint8Array): unknown[] | undefined {
  if (data.length < types.length * WORD) return undefined;
  const word = (at: number) => data.subarray(at, at + WORD);
  const values: unknown[] = [];
  for (const [i, type] of types.entries()) {
    const head = word(i * WORD);
    if (type === 'string' || type === 'bytes') {
      const bytes = dynamicBytes(data, head);
      if (!bytes) return undefined;
      values.push(type === 'string' ? utf8.decode(bytes) : hex(bytes));
    } else if (type === 'bool') {
      const value = unsigned(head);
      if (value > 1n) return undefined;
      values.push(value === 1n);
    } else if (type === 'address') {
      values.push(hex(head.subarray(12)));
    } else if (type === 'uint256') {
      values.push(unsigned(head));
    } else if (type === 'int256') {
      values.push(BigInt.asIntN(256, unsigned(head)));
    } else {
      values.push(hex(head.subarray(0, Number(type.slice('bytes'.length)))));
    }
  }
  return values;
}

function unsigned(word: Uint8Array): bigint {
  return BigInt(hex(word));
}

/** The bytes a head word points to (an offset to a length word, then the data), if they lie inside `data`. */
function dynamicBytes(data: Uint8Array, head: Uint8Array): Uint8Array | undefined {
  const offset = unsigned(head);
  if (offset + BigInt(WORD) > BigInt(data.length)) return undefined;
  const start = Number(offset) + WORD;
  const length = unsigned(data.subarray(Number(offset), start));
  if (BigInt(start) + length > BigInt(data.length)) return undefined;
  return data.subarray(start, start + Number(length));
}
