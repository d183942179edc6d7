/**
 * A call tree's frames, events and results in words, as `forge test -vvvv` prints them:
 * `Token::transfer(0x7099…79C8, 5)`, `emit Transfer(from: …, to: …, value: 5)`,
 * `← [Return] true`, `← [Revert] InsufficientBalance(0, 5)`. A frame whose code the
 * project does not have is left to the caller's plain form (undefined).
 */
import { bytesToHex, toChecksumAddress } from '@ethereumjs/util';
import type { CallFrame, CallLog } from '../engine/index.js';
import { type AbiItem, type AbiParam, decodeValues, parseType } from './abi.js';
import { forgeValue } from './abiFormat.js';
import { forwardedFunction } from './decodedFrame.js';
import { type NamedFrame, type RevertReason, decodeArguments, decodeRevert, nameFrame } from './failure.js';
import type { ContractRegistry } from './registry.js';

/** Solidity's panic codes in forge's words. */
const PANICS: Readonly<Record<number, string>> = {
  0x01: 'assertion failed',
  0x11: 'arithmetic underflow or overflow',
  0x12: 'division or modulo by zero',
  0x21: 'enum overflow',
  0x22: 'invalid encoded storage byte array accessed',
  0x31: 'out-of-bounds array access; popping on an empty array',
  0x32: 'array out-of-bounds access',
  0x41: 'out of memory',
  0x51: 'uninitialized function',
};

/** Writes an address as forge does: labelled with its contract's name when the trace ran it. */
type Labeler = (address: string) => string | undefined;

export class TraceNamer {
  /** The contracts the trace ran, by their address (lowercase): forge labels these addresses in values. */
  private readonly labels = new Map<string, string>();
  private readonly label: Labeler = (address) => this.labels.get(address.toLowerCase());

  constructor(private readonly registry: ContractRegistry) {}

  /** Learns the addresses of `root`'s known contracts (called, or created), to label them in values. */
  learn(root: CallFrame): void {
    const visit = (frame: CallFrame): void => {
      // `to` is the address whose code ran (a DELEGATECALL's implementation, a creation's new contract); a SELFDESTRUCT's is its beneficiary.
      const address = frame.type === 'SELFDESTRUCT' ? undefined : frame.to;
      const contract = address ? this.name(frame)?.contract : undefined;
      if (address && contract && !this.labels.has(address.toString())) this.labels.set(address.toString(), contract.name);
      frame.calls.forEach(visit);
    };
    visit(root);
  }

  /** The frame's contract and function, when the project has its code. */
  name(frame: CallFrame): NamedFrame | undefined {
    const named = nameFrame(this.registry, frame);
    return named.contract ? named : undefined;
  }

  /** `Token::transfer(0x…, 5)` (with `{value: n}` and `[delegatecall]` as forge writes them); undefined for unknown code. */
  describe(named: NamedFrame): string {
    const { frame, contract, functionName } = named;
    if (frame.type === 'CREATE' || frame.type === 'CREATE2') {
      const at = frame.createAddress ? `@${toChecksumAddress(frame.createAddress.toString())}` : '';
      return `→ new ${contract!.name}${at}`;
    }
    // A proxy's fallback called with another contract's function: forge writes `Proxy::fallback(2)`.
    const forwarded = forwardedFunction(this.registry, named);
    if (forwarded) {
      const args = decodeArguments(forwarded.inputs ?? [], frame.input.subarray(4))?.map((a) => forgeValue(a.value, this.label)) ?? ['<undecodable>'];
      return `${contract!.name}::fallback${frame.value ? `{value: ${frame.value}}` : ''}(${args.join(', ')})${callKind(frame)}`;
    }
    const item = named.item;
    const value = frame.value ? `{value: ${frame.value}}` : '';
    const args = item ? (decodeArguments(item.inputs ?? [], frame.input.subarray(4))?.map((a) => forgeValue(a.value, this.label)) ?? ['<undecodable>']) : [];
    const body = item
      ? `(${args.join(', ')})`
      : functionName.startsWith('<')
        ? `${functionName}(${frame.input.length > 0 ? bytesToHex(frame.input) : ''})`
        : '()';
    return `${contract!.name}::${item ? functionName : ''}${value}${body}${callKind(frame)}`;
  }

  /** How the frame ended: `[Return] true`, `[Stop]`, `[Revert] InsufficientBalance(0, 5)`, `[OutOfGas]`. */
  end(frame: CallFrame, named: NamedFrame | undefined): string {
    if (frame.error !== undefined) {
      if (frame.error !== 'execution reverted') return `[${frame.error}]`;
      return `[Revert] ${reasonText(decodeRevert(this.registry, frame.output), frame.output, this.label)}`;
    }
    if (frame.type === 'CREATE' || frame.type === 'CREATE2') return `[Return] ${frame.output.length} bytes of code`;
    if (frame.output.length === 0) return '[Stop]';
    const outputs = (named?.item ?? (named && forwardedFunction(this.registry, named)))?.outputs;
    const values = outputs ? decodeArguments(outputs, frame.output) : undefined;
    return `[Return] ${values ? values.map((v) => forgeValue(v.value, this.label)).join(', ') : bytesToHex(frame.output)}`;
  }

  /** `emit Transfer(from: 0x…, to: 0x…, value: 5)`, decoded with the emitting contract's ABI (or any contract's). */
  event(log: CallLog, named: NamedFrame | undefined): string {
    const topic = log.topics[0] ? Buffer.from(log.topics[0]).toString('hex') : undefined;
    const item = topic === undefined ? undefined : ((named?.contract && this.registry.eventOf(named.contract, topic)) ?? this.registry.events(topic)[0]?.item);
    const fields = item ? eventFields(item, log, this.label) : undefined;
    if (!item || !fields) return `emit topics: [${log.topics.map((t) => bytesToHex(t)).join(', ')}], data: ${bytesToHex(log.data)}`;
    return `emit ${item.name}(${fields.join(', ')})`;
  }
}

function callKind(frame: CallFrame): string {
  return frame.type === 'DELEGATECALL' ? ' [delegatecall]' : frame.type === 'STATICCALL' ? ' [staticcall]' : frame.type === 'CALLCODE' ? ' [callcode]' : '';
}

function reasonText(reason: RevertReason, output: Uint8Array, label: Labeler): string {
  switch (reason.kind) {
    case 'customError':
      return `${reason.name}(${reason.args.map((a) => forgeValue(a.value, label)).join(', ')})`;
    case 'errorString':
      return `revert: ${reason.text}`;
    case 'panic': {
      const words = reason.code <= 0xffn ? PANICS[Number(reason.code)] : undefined;
      return `panic: ${words ?? 'unknown panic'} (0x${reason.code.toString(16)})`;
    }
    case 'empty':
      return 'EvmError: Revert';
    default:
      return `custom error ${bytesToHex(output)}`;
  }
}

/** `name: value` for each field: indexed ones from the topics (a dynamic type's only as its hash), the rest from the data. */
function eventFields(item: AbiItem, log: CallLog, label: Labeler): string[] | undefined {
  const inputs = item.inputs ?? [];
  const indexed = inputs.filter((p) => p.indexed);
  const plain = inputs.filter((p) => !p.indexed);
  const topics = log.topics.slice(item.anonymous ? 0 : 1);
  if (topics.length !== indexed.length) return undefined;
  const data = decodeArguments(plain, log.data);
  if (!data) return undefined;
  let t = 0;
  let d = 0;
  try {
    return inputs.map((param) => `${param.name || '_'}: ${param.indexed ? topicValue(param, topics[t++]!, label) : forgeValue(data[d++]!.value, label)}`);
  } catch {
    return undefined;
  }
}

function topicValue(param: AbiParam, topic: Uint8Array, label: Labeler): string {
  const type = parseType(param);
  const dynamic = type.kind === 'bytes' || type.kind === 'string' || type.kind === 'array' || type.kind === 'tuple';
  return dynamic ? bytesToHex(topic) : forgeValue(decodeValues([type], topic)[0]!, label);
}
