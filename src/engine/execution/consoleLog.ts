/**
 * Solidity's console.log (hardhat/console.sol, forge-std's console): a contract makes a
 * static call to a fixed address with no code, whose calldata is an ABI call to one of
 * console.sol's log functions. Hardhat, Ganache and Anvil print those messages; so does
 * chain-sim. The call itself runs as on any chain (an empty account: same gas); the EVM's
 * message hook decodes its calldata and prints the line there and then, so a transaction's
 * lines come before its answer.
 */
import type { EVM, Message } from '@ethereumjs/evm';
import { type Address, createAddressFromString, equalsBytes, toChecksumAddress } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { format } from 'node:util';
import { type ConsoleType, decodeConsoleArguments } from './consoleAbi.js';

/** "console.log" in ASCII, right-aligned in 20 bytes. */
export const CONSOLE_ADDRESS: Address = createAddressFromString('0x000000000000000000636f6e736f6c652e6c6f67');

/** console.sol's payloads by selector, built on first use. */
let signatures: Map<string, readonly ConsoleType[]> | undefined;

function buildSignatures(): Map<string, readonly ConsoleType[]> {
  const table = new Map<string, readonly ConsoleType[]>();
  const selector = (types: readonly string[]) => Buffer.from(keccak_256(new TextEncoder().encode(`log(${types.join(',')})`)).subarray(0, 4)).toString('hex');
  const add = (types: readonly ConsoleType[]) => {
    table.set(selector(types), types);
    // The first console.sol hashed `uint` and `int` where the ABI says uint256 and int256: both selectors are in use.
    const legacy = types.map((type) => (type === 'uint256' ? 'uint' : type === 'int256' ? 'int' : type));
    if (legacy.some((type, i) => type !== types[i])) table.set(selector(legacy), types);
  };
  // Every console.sol function sends log(...) with its argument types (logInt, logBytes32 and the like too).
  add([]);
  for (const type of ['int256', 'bytes', ...Array.from({ length: 32 }, (_, i) => `bytes${i + 1}` as const)] as const) add([type]);
  add(['string', 'int256']); // forge-std's console
  const basic: readonly ConsoleType[] = ['uint256', 'string', 'bool', 'address'];
  let combinations: ConsoleType[][] = [[]];
  for (let arity = 1; arity <= 4; arity++) {
    combinations = combinations.flatMap((prefix) => basic.map((type) => [...prefix, type]));
    for (const types of combinations) add(types);
  }
  return table;
}

/**
 * How addresses print: EIP-55 checksummed (as Anvil and forge print them) or lowercase (as
 * Hardhat 2 and 3 print them).
 */
export type ConsoleAddressCase = 'checksum' | 'lowercase';

/**
 * The line console.log printed, formatted as Hardhat formats it (Node's util.format over the
 * decoded values, so `%s` and `%d` in a first string argument work); undefined for calldata
 * that is no console.sol call.
 */
export function formatConsoleCall(calldata: Uint8Array, addresses: ConsoleAddressCase = 'checksum'): string | undefined {
  if (calldata.length < 4) return undefined;
  signatures ??= buildSignatures();
  const types = signatures.get(Buffer.from(calldata.subarray(0, 4)).toString('hex'));
  if (!types) return undefined;
  // A selector match with malformed arguments is not something console.sol sends.
  const values = decodeConsoleArguments(types, calldata.subarray(4));
  return values && format(...values.map((value, i) => show(types[i]!, value, addresses)));
}

function show(type: ConsoleType, value: unknown, addresses: ConsoleAddressCase): string {
  if (type === 'address') return addresses === 'checksum' ? toChecksumAddress(value as string) : (value as string).toLowerCase();
  return String(value); // bigints in decimal, booleans as words, bytes as 0x hex
}

/** Who printed a console.log line: the calling frame's address and the code it ran. */
export interface ConsoleSource {
  readonly address: Address | undefined;
  /** The code that called console.log: the contract's (a library's, in a DELEGATECALL), or a constructor's init code. */
  readonly code: Uint8Array | undefined;
  /** A constructor printed it: `code` is init code. */
  readonly creation: boolean;
}

/** Prints the lines of the chain's VMs as their calls to the console address run. */
export class ConsolePrinter {
  /** EVMs whose lines are dropped now, with how many mutedDuring calls hold each. */
  private readonly muted = new Map<EVM, number>();

  constructor(
    /** Whether anyone listens (nothing is decoded otherwise). */
    private readonly wanted: () => boolean,
    private readonly print: (line: string, source: ConsoleSource) => void,
    private readonly fail: (error: unknown) => void,
    private readonly addresses: ConsoleAddressCase = 'checksum',
  ) {}

  /** Prints what this EVM's messages to the console address say. */
  watch(evm: EVM): void {
    const target = CONSOLE_ADDRESS.bytes;
    // Each depth's latest message: the caller of a console call is the one a level up. The EVM loads a
    // call's code into its message before running it, so the caller's code is there when it prints.
    const byDepth: Message[] = [];
    // Whether each depth's message creates (the EVM sets a creation's `to` once it runs).
    const creates: boolean[] = [];
    // A one-argument listener is called synchronously: no promise per message frame.
    evm.events!.on('beforeMessage', (message) => {
      if (this.muted.has(evm) || !this.wanted()) return;
      byDepth[message.depth] = message;
      creates[message.depth] = message.to === undefined;
      if (message.to === undefined || !equalsBytes(message.to.bytes, target)) return;
      try {
        const line = formatConsoleCall(message.data, this.addresses);
        const caller = message.depth > 0 ? byDepth[message.depth - 1] : undefined;
        const code = caller?.code;
        const source = { address: caller?.to, code: code instanceof Uint8Array ? code : undefined, creation: creates[message.depth - 1] === true };
        if (line !== undefined) this.print(line, source);
      } catch (error) {
        // A listener's failure is reported, never thrown into the transaction that printed.
        this.fail(error);
      }
    });
  }

  /**
   * Runs `body` with the lines of `evm` dropped. Per EVM: work outside the chain's queue (an
   * estimate at an old block) may run while a task's transaction prints its lines.
   */
  async mutedDuring<T>(evm: EVM, body: () => Promise<T>): Promise<T> {
    this.muted.set(evm, (this.muted.get(evm) ?? 0) + 1);
    try {
      return await body();
    } finally {
      const left = this.muted.get(evm)! - 1;
      if (left === 0) this.muted.delete(evm);
      else this.muted.set(evm, left);
    }
  }
}
