/**
 * The Keccak-f[1600] permutation every Keccak sponge of the engine runs on: a WebAssembly module
 * (keccakWasm.ts, ~15x faster than JavaScript) where WebAssembly is available, noble's JavaScript
 * permutation otherwise. One preallocated state, so hashing allocates nothing. keccak256.ts
 * (block and trie hashing) and Ethash's Keccak-512 (../pow/keccak.ts) are sponges over it.
 */
import { keccakP } from '@noble/hashes/sha3.js';
import { keccakWasmModule } from './keccakWasm.js';

/** Typed-array views use host byte order; raw word buffers are only shared (wasm, files) on little-endian hosts. */
export const littleEndianHost: boolean = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

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

/** The shared Keccak-f[1600] state and permutation, for the sponges (keccak256.ts, and Ethash's Keccak-512 in ../pow/keccak.ts). */
export const keccakF1600 = { state, permute };

/** Which Keccak-f implementation this thread uses (reported by benchmarks and diagnostics). */
export const keccakImplementation: 'wasm' | 'js' = kind;
