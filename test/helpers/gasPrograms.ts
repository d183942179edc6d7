/**
 * Generated contracts whose gas needs trip estimators, as raw EVM bytecode: a tree of contracts
 * (each calls only later ones) whose straight-line code writes cold and warm slots (values from
 * the calldata, so a later transaction can reset or clear them: refunds), reads slots, calls
 * a child with all its gas (the callee gets 63/64 of it) and checks `gasleft() > K` after
 * some work, and write a slot keyed by block.number (as vote checkpoints are). A child's failure either bubbles up (a revert, as Solidity does) or is ignored.
 */
import fc from 'fast-check';
import type { Rpc } from './chain.js';

export type Op =
  | { readonly kind: 'store'; readonly slot: number; readonly value: { readonly word: number } | { readonly constant: number } }
  | { readonly kind: 'load'; readonly slot: number }
  /** A write to the slot numbered block.number, as vote checkpoints are keyed by block. */
  | { readonly kind: 'blockKeyed'; readonly word: number }
  | { readonly kind: 'call'; readonly child: number; readonly bubble: boolean }
  | { readonly kind: 'gasCheck'; readonly minimum: number };

export interface GasProgram {
  /** Contract i's code; contract 0 is the one called. */
  readonly contracts: readonly (readonly Op[])[];
  /** The transactions sent in turn, each the 3 calldata words the contracts read. */
  readonly calls: readonly (readonly bigint[])[];
}

/** Whether every child's failure bubbles up: then success only grows with the gas limit (see the test). */
export function bubblesOnly(program: GasProgram): boolean {
  return program.contracts.every((ops) => ops.every((op) => op.kind !== 'call' || op.bubble));
}

const WORDS = 3;

function opArbitrary(index: number, count: number, bubbling: fc.Arbitrary<boolean>): fc.Arbitrary<Op> {
  const slot = fc.integer({ min: 0, max: 4 });
  const store = fc.record({
    kind: fc.constant('store' as const),
    slot,
    value: fc.oneof(fc.record({ word: fc.integer({ min: 0, max: WORDS - 1 }) }), fc.record({ constant: fc.integer({ min: 0, max: 3 }) })),
  });
  const load = fc.record({ kind: fc.constant('load' as const), slot });
  const blockKeyed = fc.record({ kind: fc.constant('blockKeyed' as const), word: fc.integer({ min: 0, max: WORDS - 1 }) });
  const gasCheck = fc.record({ kind: fc.constant('gasCheck' as const), minimum: fc.integer({ min: 0, max: 60_000 }) });
  const options: fc.Arbitrary<Op>[] = [store, store, load, blockKeyed, gasCheck];
  if (index + 1 < count) {
    options.push(fc.record({ kind: fc.constant('call' as const), child: fc.integer({ min: index + 1, max: count - 1 }), bubble: bubbling }));
  }
  return fc.oneof(...options);
}

/** Programs of 1 to 4 contracts and 1 to 4 transactions; `bubbling` decides how calls treat a child's failure. */
export function gasProgram(bubbling: fc.Arbitrary<boolean> = fc.boolean()): fc.Arbitrary<GasProgram> {
  return fc.integer({ min: 1, max: 4 }).chain((count) =>
    fc.record({
      contracts: fc.tuple(...Array.from({ length: count }, (_, i) => fc.array(opArbitrary(i, count, bubbling), { minLength: 1, maxLength: 7 }))),
      calls: fc.array(fc.array(fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 2n ** 64n })), { minLength: WORDS, maxLength: WORDS }), {
        minLength: 1,
        maxLength: 4,
      }),
    }),
  );
}

const PUSH0 = 0x5f;
const PUSH1 = 0x60;
const PUSH2 = 0x61;
const PUSH3 = 0x62;
const PUSH20 = 0x73;
const NUMBER = 0x43;
const [GT, CALLDATALOAD, CALLDATASIZE, CALLDATACOPY, CODECOPY, POP, SLOAD, SSTORE, JUMPI, GAS, JUMPDEST, CALL, RETURN, REVERT, DUP1, STOP] = [
  0x11, 0x35, 0x36, 0x37, 0x39, 0x50, 0x54, 0x55, 0x57, 0x5a, 0x5b, 0xf1, 0xf3, 0xfd, 0x80, 0x00,
];

/** A contract's runtime code; `children[i]` is contract i's address (20 bytes hex, no 0x). */
export function runtimeCode(ops: readonly Op[], children: readonly string[]): number[] {
  const code: number[] = [];
  // Jump over a revert when the condition on the stack holds: `require(condition)`.
  const requireTop = () => {
    const dest = code.length + 7;
    code.push(PUSH2, dest >> 8, dest & 0xff, JUMPI, PUSH0, PUSH0, REVERT, JUMPDEST);
  };
  for (const op of ops) {
    switch (op.kind) {
      case 'store':
        if ('word' in op.value) code.push(PUSH1, op.value.word * 32, CALLDATALOAD);
        else if (op.value.constant === 0) code.push(PUSH0);
        else code.push(PUSH1, op.value.constant);
        code.push(PUSH1, op.slot, SSTORE);
        break;
      case 'load':
        code.push(PUSH1, op.slot, SLOAD, POP);
        break;
      case 'blockKeyed':
        code.push(PUSH1, op.word * 32, CALLDATALOAD, NUMBER, SSTORE);
        break;
      case 'call': {
        // The calldata passed on; all gas offered (the callee gets 63/64 of what is left).
        code.push(CALLDATASIZE, PUSH0, PUSH0, CALLDATACOPY);
        code.push(PUSH0, PUSH0, CALLDATASIZE, PUSH0, PUSH0, PUSH20, ...hexBytes(children[op.child]!), GAS, CALL);
        if (op.bubble) requireTop();
        else code.push(POP);
        break;
      }
      case 'gasCheck':
        code.push(PUSH3, (op.minimum >> 16) & 0xff, (op.minimum >> 8) & 0xff, op.minimum & 0xff, GAS, GT);
        requireTop();
        break;
    }
  }
  code.push(STOP);
  return code;
}

/** Creation code that returns `runtime`. */
export function initCode(runtime: readonly number[]): string {
  const length = runtime.length;
  const prefix = [PUSH2, length >> 8, length & 0xff, DUP1, PUSH1, 10, PUSH0, CODECOPY, PUSH0, RETURN];
  return `0x${Buffer.from([...prefix, ...runtime]).toString('hex')}`;
}

function hexBytes(address: string): number[] {
  return [...Buffer.from(address.replace(/^0x/, ''), 'hex')];
}

export function calldataOf(words: readonly bigint[]): string {
  return `0x${words.map((word) => word.toString(16).padStart(64, '0')).join('')}`;
}

/** The receipt of a send, also when the node answers a failed send with an error carrying its hash (Hardhat's form). */
export async function sendForReceipt(rpc: Rpc, tx: Record<string, string>): Promise<{ status: string; gasUsed: string; contractAddress?: string }> {
  let hash: string;
  try {
    hash = await rpc<string>('eth_sendTransaction', [tx]);
  } catch (error) {
    const carried = (error as { data?: { txHash?: unknown } }).data?.txHash;
    if (typeof carried !== 'string') throw error;
    hash = carried;
  }
  // Automine answers after mining; Anvil, right after an evm_revert, can answer first: wait, up
  // to 10 s (2 s was too short once under the whole suite's load on 2 cores).
  for (let attempt = 0; attempt < 500; attempt++) {
    const receipt = await rpc<{ status: string; gasUsed: string; contractAddress?: string } | null>('eth_getTransactionReceipt', [hash]);
    if (receipt) return receipt;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`transaction ${hash} (gas ${tx.gas}) was not mined`);
}

/** Deploys the program's contracts (the last first, so each parent can name its children); the address of contract 0. */
export async function deployProgram(rpc: Rpc, program: GasProgram, from: string): Promise<string> {
  const addresses: string[] = new Array(program.contracts.length);
  for (let i = program.contracts.length - 1; i >= 0; i--) {
    const receipt = await sendForReceipt(rpc, { from, data: initCode(runtimeCode(program.contracts[i]!, addresses)), gas: '0x100000' });
    if (receipt.status !== '0x1' || !receipt.contractAddress) throw new Error(`deploying contract ${i} failed`);
    addresses[i] = receipt.contractAddress;
  }
  return addresses[0]!;
}

export const hex = (value: bigint): string => `0x${value.toString(16)}`;
