/**
 * Named traces (docs/tracing.md#named-traces): with the project's contracts (docs/contracts.md)
 * the call tracer's frames, the flat call tracer's and `trace_*`'s entries get extra members
 * naming what ran: `contract`, `function`, `signature`, `decodedInput`, `decodedOutput` or
 * `decodedError`, and (callTracer withLog) each log's `event`, `signature` and `decodedArgs`,
 * with the events a failed frame emitted before the chain discarded them in `revertedLogs`.
 * The members go-ethereum and Parity define are never changed: a frame whose code the project
 * does not have, and every frame when there are no artifacts, is answered exactly as before.
 */
import { jsonValue } from '../contracts/abiFormat.js';
import { type DecodedFrame, decodeEvent, decodeFrame } from '../contracts/decodedFrame.js';
import type { DecodedArgument } from '../contracts/failure.js';
import type { ContractRegistry } from '../contracts/registry.js';
import type { CallFrame, CallLog } from '../engine/index.js';
import { reasonJson } from './contractFailures.js';
import { encodeData, encodeQuantity } from './encode.js';
import type { JsonObject } from './json.js';

export class TraceNames {
  constructor(private readonly registry: ContractRegistry) {}

  /** The named registry, when it has artifacts to name with (no cost otherwise). */
  static of(registry: ContractRegistry | undefined): TraceNames | undefined {
    return registry?.active ? new TraceNames(registry) : undefined;
  }

  /** A call tracer frame (formatFrame's `out`) and its calls: names added where the code is known. */
  callFrame(out: JsonObject, frame: CallFrame, withLog: boolean): void {
    const decoded = decodeFrame(this.registry, frame);
    if (decoded) Object.assign(out, frameMembers(decoded));
    const contract = decoded?.contract;
    if (withLog && Array.isArray(out.logs)) (out.logs as JsonObject[]).forEach((log, i) => this.addEvent(log, frame.logs[i]!, contract));
    if (withLog && decoded && frame.revertedLogs && frame.revertedLogs.length > 0) {
      out.revertedLogs = frame.revertedLogs.map((log) => {
        const json: JsonObject = {
          address: log.address.toString(),
          topics: log.topics.map(encodeData),
          data: encodeData(log.data),
          position: encodeQuantity(log.position),
        };
        this.addEvent(json, log, contract);
        return json;
      });
    }
    const calls = Array.isArray(out.calls) ? (out.calls as JsonObject[]) : [];
    calls.forEach((call, i) => this.callFrame(call, frame.calls[i]!, withLog));
  }

  /** One entry of a flat trace (flatCallTracer, trace_*): names added where the code is known. */
  flatEntry(out: JsonObject, frame: CallFrame): void {
    if (frame.type === 'SELFDESTRUCT') return;
    const decoded = decodeFrame(this.registry, frame);
    if (decoded) Object.assign(out, frameMembers(decoded));
  }

  private addEvent(out: JsonObject, log: CallLog, emitter: DecodedFrame['contract'] | undefined): void {
    const event = decodeEvent(this.registry, log, emitter);
    if (!event) return;
    out.event = event.item.name ?? '';
    out.signature = event.signature;
    out.decodedArgs = event.args.map((arg) => ({ ...argumentJson(arg), indexed: arg.indexed }));
  }
}

function frameMembers(decoded: DecodedFrame): JsonObject {
  const out: JsonObject = { contract: decoded.contract.name, function: decoded.named.functionName };
  if (decoded.signature !== undefined) out.signature = decoded.signature;
  if (decoded.inputs) out.decodedInput = decoded.inputs.map(argumentJson);
  if (decoded.outputs) out.decodedOutput = decoded.outputs.map(argumentJson);
  if (decoded.revert) out.decodedError = reasonJson(decoded.revert, 'revert');
  return out;
}

function argumentJson(arg: DecodedArgument): JsonObject {
  return { name: arg.name, type: arg.type, value: jsonValue(arg.value) };
}
