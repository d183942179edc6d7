// Keccak-512 over 64-byte items held as 16 little-endian u32 words, the shape
// of every hash inside the Ethash cache and dataset. Runs on one preallocated
// sponge state, so the hot loops allocate nothing.
import { keccakP } from '@noble/hashes/sha3.js';
import { keccakWasmModule } from './keccakWasm.js';
import { littleEndianHost } from './words.js';

interface Permutation {
  readonly kind: 'wasm' | 'js';
  /** The 25 lanes as 50 u32 words, low word first. */
  readonly state: Uint32Array;
  readonly permute: () => void;
}

// Just enough of the WebAssembly JS API; the project's `lib` setting has no typings for it.
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}

function wasmPermutation(): Permutation | undefined {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  // The module reads lanes as little-endian i64, so u32 views only line up on little-endian hosts.
  if (wasm === undefined || !littleEndianHost) return undefined;
  try {
    const { exports } = new wasm.Instance(new wasm.Module(keccakWasmModule()));
    const memory = exports.memory as { buffer?: unknown } | undefined;
    const f1600 = exports.f1600;
    if (!(memory?.buffer instanceof ArrayBuffer) || typeof f1600 !== 'function') return undefined;
    return { kind: 'wasm', state: new Uint32Array(memory.buffer, 0, 50), permute: f1600 as () => void };
  } catch {
    return undefined;
  }
}

function jsPermutation(): Permutation {
  const state = new Uint32Array(50);
  return { kind: 'js', state, permute: () => keccakP(state) };
}

/** WebAssembly when available; noble's JS permutation (same result, ~15x slower) otherwise, e.g. under `node --jitless`. */
const { kind, state, permute } = wasmPermutation() ?? jsPermutation();

/** The shared Keccak-f[1600] state and permutation, for other sponges (see ../keccak256.ts). */
export const keccakF1600 = { state, permute };

/** Which Keccak-f implementation this thread uses (reported by benchmarks and diagnostics). */
export const keccakImplementation: 'wasm' | 'js' = kind;

const HASH_WORDS = 16;
const RATE_512_WORDS = 18; // (1600 - 2 * 512) / 32

/** Replaces the 16 words at `buf[off..off + 16)` with their Keccak-512 hash. */
export function keccak512InPlace(buf: Uint32Array, off: number): void {
  for (let i = 0; i < HASH_WORDS; i++) state[i] = buf[off + i]!;
  // Keccak (pre-SHA-3) padding: 0x01 right after the message, 0x80 in the last byte of the rate.
  state[HASH_WORDS] = 0x01;
  state[RATE_512_WORDS - 1] = 0x80000000;
  state.fill(0, RATE_512_WORDS);
  permute();
  for (let i = 0; i < HASH_WORDS; i++) buf[off + i] = state[i]!;
}
