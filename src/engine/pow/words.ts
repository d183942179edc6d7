// Ethash reads and writes all hashes as little-endian 32-bit words.

export function bytesToWords(bytes: Uint8Array): Uint32Array {
  if (bytes.length % 4 !== 0) throw new RangeError('byte length must be a multiple of 4');
  const words = new Uint32Array(bytes.length / 4);
  for (let i = 0; i < words.length; i++) {
    const j = 4 * i;
    words[i] = bytes[j]! | (bytes[j + 1]! << 8) | (bytes[j + 2]! << 16) | (bytes[j + 3]! << 24);
  }
  return words;
}

export function wordsToBytes(words: Uint32Array): Uint8Array {
  const bytes = new Uint8Array(words.length * 4);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const j = 4 * i;
    bytes[j] = w;
    bytes[j + 1] = w >>> 8;
    bytes[j + 2] = w >>> 16;
    bytes[j + 3] = w >>> 24;
  }
  return bytes;
}

/** FNV-1 style mixing step used throughout Ethash (unsigned 32-bit result). */
export function fnv(a: number, b: number): number {
  return (Math.imul(a, 0x01000193) ^ b) >>> 0;
}
