/**
 * The logs of one eth_simulateV1 call as go-ethereum's simulation tracer collects them
 * (internal/ethapi/logtracer.go): per call frame, real logs and, with traceTransfers, an
 * ERC-7528 pseudo-log (a Transfer event from 0xEeee...EeEe) for every call that moves ether;
 * a frame that fails drops its logs, and indexes keep counting across the block.
 */
import type { EVM, EVMResult, InterpreterStep, Message } from '@ethereumjs/evm';
import { Address, bigIntToBytes, hexToBytes, setLengthLeft } from '@ethereumjs/util';

export interface SimLog {
  readonly address: Address;
  readonly topics: readonly Uint8Array[];
  readonly data: Uint8Array;
  /** Block-wide index, as go-ethereum's tracer numbers it. */
  readonly index: number;
}

export const TRANSFER_ADDRESS = new Address(hexToBytes('0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'));
const TRANSFER_TOPIC = hexToBytes('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef');

const word = (value: bigint) => setLengthLeft(bigIntToBytes(value), 32);

/**
 * Collects a transaction's logs with ether transfers among them, on the EVM's message and step
 * events (attached only with traceTransfers: a step listener slows the interpreter down).
 */
export class TransferLogCollector {
  private frames: SimLog[][] = [];
  /** Per open frame: the transfer log of a create, whose address is known only when it ends. */
  private creates: Array<{ log: SimLog; frame: SimLog[] } | undefined> = [];
  /** The logs of the transaction that ran last; counting goes on across the block. */
  private count = 0;

  attach(evm: EVM): () => void {
    const events = evm.events!;
    const before = (message: Message) => this.enter(message);
    const after = (result: EVMResult) => this.exit(result);
    // With a second parameter the EVM waits for `done`: a self-destruct's transfer needs the balance.
    const step = (event: InterpreterStep, done?: () => void) => {
      if (event.opcode.name !== 'SELFDESTRUCT') {
        this.step(event);
        done?.();
        return;
      }
      this.selfDestruct(evm, event).then(
        () => done?.(),
        () => done?.(),
      );
    };
    events.on('beforeMessage', before);
    events.on('afterMessage', after);
    events.on('step', step);
    return () => {
      events.off('beforeMessage', before);
      events.off('afterMessage', after);
      events.off('step', step);
    };
  }

  /** Start a transaction: its top-level transfer comes from its first message. */
  reset(): void {
    this.frames = [];
    this.creates = [];
  }

  /** The transaction's logs (empty when it failed). */
  logs(): SimLog[] {
    return this.frames[0] ?? [];
  }

  private push(address: Address, topics: Uint8Array[], data: Uint8Array): void {
    this.frames[this.frames.length - 1]!.push({ address, topics, data, index: this.count++ });
  }

  private enter(message: Message): void {
    this.frames.push([]);
    this.creates.push(undefined);
    // DELEGATECALL and CALLCODE (code run at the caller's own address) move nothing between accounts.
    const callcode = message.to !== undefined && !message.delegatecall && !message.to.equals(message.codeAddress);
    if (message.delegatecall || callcode || message.value === 0n) return;
    const from = word(BigInt(message.caller.toString()));
    this.push(TRANSFER_ADDRESS, [TRANSFER_TOPIC, from, message.to ? word(BigInt(message.to.toString())) : new Uint8Array(32)], word(message.value));
    if (message.to === undefined) {
      const frame = this.frames[this.frames.length - 1]!;
      this.creates[this.creates.length - 1] = { log: frame[frame.length - 1]!, frame };
    }
  }

  private exit(result: EVMResult): void {
    const created = this.creates.pop();
    if (created && result.createdAddress) {
      const at = created.frame.indexOf(created.log);
      const topics = [...created.log.topics];
      topics[2] = word(BigInt(result.createdAddress.toString()));
      created.frame[at] = { ...created.log, topics };
    }
    const frame = this.frames.pop()!;
    const failed = result.execResult.exceptionError !== undefined;
    if (this.frames.length === 0) {
      // The top-level frame: kept for logs() unless it failed.
      this.frames.push(failed ? [] : frame);
      return;
    }
    if (!failed) this.frames[this.frames.length - 1]!.push(...frame);
  }

  /** SELFDESTRUCT moves the whole balance to the beneficiary: go-ethereum traces it as a transfer. */
  private async selfDestruct(evm: EVM, event: InterpreterStep): Promise<void> {
    const beneficiary = event.stack[event.stack.length - 1];
    if (beneficiary === undefined) return;
    const balance = (await evm.stateManager.getAccount(event.address))?.balance ?? 0n;
    if (balance === 0n) return;
    this.push(TRANSFER_ADDRESS, [TRANSFER_TOPIC, word(BigInt(event.address.toString())), word(beneficiary & ((1n << 160n) - 1n))], word(balance));
  }

  private step(event: InterpreterStep): void {
    const name = event.opcode.name;
    if (!name.startsWith('LOG')) return;
    const topicCount = Number(name.slice(3));
    const stack = event.stack;
    const top = stack.length - 1;
    if (stack.length < 2 + topicCount) return; // the opcode fails: nothing logged
    const offset = Number(stack[top]!);
    const size = Number(stack[top - 1]!);
    const topics = Array.from({ length: topicCount }, (_, i) => word(stack[top - 2 - i]!));
    const memory = event.memory;
    const data = new Uint8Array(size);
    if (offset < memory.length) data.set(memory.subarray(offset, Math.min(memory.length, offset + size)));
    this.push(event.address, topics, data);
  }
}
