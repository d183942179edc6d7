/**
 * Parity's vmTrace in Erigon's JSON (tracers/vmTrace.ts collects it): numbers for cost, pc,
 * used and off; pushed words, store keys and values as hex quantities; memory as data.
 * `op` and `idx` are Erigon's additions to OpenEthereum's format.
 */
import type { VmFrame, VmOp } from '../engine/index.js';
import { encodeData, encodeQuantity } from './encode.js';
import type { JsonObject } from './json.js';

export function formatVmTrace(frame: VmFrame): JsonObject {
  return { code: encodeData(frame.code), ops: frame.ops.map(formatOp) };
}

function formatOp(op: VmOp): JsonObject {
  const { ex } = op;
  return {
    cost: Number(op.cost),
    ex: ex && {
      mem: ex.mem && { data: encodeData(ex.mem.data), off: ex.mem.off },
      push: ex.push.map((word) => encodeQuantity(word)),
      store: ex.store && { key: encodeQuantity(ex.store.key), val: encodeQuantity(ex.store.val) },
      used: Number(ex.used),
    },
    pc: op.pc,
    sub: op.sub && formatVmTrace(op.sub),
    op: op.op,
    idx: op.idx,
  };
}
