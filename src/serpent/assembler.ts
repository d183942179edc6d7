// Assembly with symbolic labels -> bytecode. Label pushes share one width,
// the smallest that can address the whole unit. Embedded code units (blobs)
// are appended after a STOP so execution can never fall into them.

import { OP } from './opcodes.js';

export type Asm =
  | { readonly t: 'op'; readonly code: number }
  | { readonly t: 'push'; readonly value: bigint }
  | { readonly t: 'label'; readonly id: number }
  | { readonly t: 'pushLabel'; readonly id: number }
  | { readonly t: 'pushBlob'; readonly blob: number };

function byteLength(v: bigint): number {
  let n = 1;
  while (v >= 1n << BigInt(8 * n)) n++;
  return n;
}

export function assemble(items: readonly Asm[], blobs: readonly Uint8Array[]): Uint8Array {
  for (let width = 1; width <= 4; width++) {
    const limit = 1 << (8 * width);
    const labels = new Map<number, number>();
    let pc = 0;
    for (const it of items) {
      if (it.t === 'label') labels.set(it.id, pc);
      else pc += it.t === 'op' ? 1 : it.t === 'push' ? 1 + byteLength(it.value) : 1 + width;
    }
    const blobOffsets: number[] = [];
    let end = pc + (blobs.length > 0 ? 1 : 0);
    for (const b of blobs) {
      blobOffsets.push(end);
      end += b.length;
    }
    if (end >= limit && width < 4) continue;
    const out = new Uint8Array(end);
    let i = 0;
    const pushFixed = (v: number): void => {
      out[i++] = OP.PUSH1 + width - 1;
      for (let k = width - 1; k >= 0; k--) out[i++] = (v >>> (8 * k)) & 0xff;
    };
    for (const it of items) {
      switch (it.t) {
        case 'op':
          out[i++] = it.code;
          break;
        case 'push': {
          const n = byteLength(it.value);
          out[i++] = OP.PUSH1 + n - 1;
          for (let k = n - 1; k >= 0; k--) out[i++] = Number((it.value >> BigInt(8 * k)) & 0xffn);
          break;
        }
        case 'pushLabel':
          pushFixed(labels.get(it.id)!);
          break;
        case 'pushBlob':
          pushFixed(blobOffsets[it.blob]!);
          break;
        case 'label':
          break;
      }
    }
    if (blobs.length > 0) out[i++] = OP.STOP;
    blobs.forEach((b, k) => out.set(b, blobOffsets[k]!));
    return out;
  }
  throw new Error('unreachable: code larger than 4 GiB');
}
