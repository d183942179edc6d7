import { expect } from 'chai';
import { createBlock } from '@ethereumjs/block';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { type EVM, type ExecResult, createEVM } from '@ethereumjs/evm';
import { Account, Address, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import { installRevertTraceGuard } from '../../src/engine/patches/revertTraceGuard.js';
import { installStepLoop, stepLoopRuns } from '../../src/engine/patches/stepLoop.js';
import { LAZY_RUN_STATE, installLazyRunState } from '../../src/engine/patches/lazyRunState.js';
import { randomSource } from '../helpers/random.js';

const CALLEE = new Address(setLengthLeft(Uint8Array.of(0xc0, 0xde), 20));
const CALLER = new Address(setLengthLeft(Uint8Array.of(0xca), 20));
const SELF = new Address(setLengthLeft(Uint8Array.of(0x5e, 0x1f), 20));

// Opcodes the programs draw from: arithmetic and bits, hashing, environment and block
// reads, memory, storage (persistent and transient), jumps, logs, calls to the callee, a
// precompile and an empty account, every way to halt, and a few undefined bytes.
const OPCODES = [
  ...range(0x01, 0x0b),
  ...range(0x10, 0x1d),
  0x20,
  ...range(0x30, 0x3f),
  ...range(0x40, 0x4a),
  ...range(0x50, 0x5f),
  ...range(0x80, 0x8f),
  ...range(0x90, 0x9f),
  ...range(0xa0, 0xa4),
  0xf1,
  0xf4,
  0xfa,
  0xf3,
  0xfd,
  0xfe,
  0x00,
  0x0c,
  0x21,
  0xef,
];
const [JUMP, JUMPI, JUMPDEST] = [0x56, 0x57, 0x5b];
// Extra weight on the opcodes loops and memory are made of.
const COMMON_OPCODES = [0x5b, 0x5b, 0x56, 0x57, 0x52, 0x51, 0x54, 0x55, 0x01, 0x03, 0x80, 0x90];

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/**
 * A random program: opcodes, each after a few pushes (so most find their operands) of
 * small numbers (offsets, lengths), the callee's address, or now and then a full word; it
 * starts with 16 of them for DUP and SWAP. Most jumps go to one of the program's
 * JUMPDESTs, so programs branch and loop (until their gas runs out).
 */
function program(random: (below: number) => number, opcodes: number): Uint8Array {
  const bytes: number[] = [];
  const jumpTargets: number[] = [];
  const jumpDests: number[] = [];
  const push = (): void => {
    const kind = random(8);
    if (kind < 5) bytes.push(0x60, random(kind === 0 ? 256 : 64));
    else if (kind === 5) bytes.push(0x7f, ...Array.from({ length: 32 }, () => random(256)));
    else bytes.push(0x61, 0xc0, 0xde);
  };
  for (let i = 0; i < 16; i++) push();
  for (let op = 0; op < opcodes; op++) {
    for (let i = random(4); i > 0; i--) push();
    const opcode = random(2) === 0 ? COMMON_OPCODES[random(COMMON_OPCODES.length)]! : OPCODES[random(OPCODES.length)]!;
    if ((opcode === JUMP || opcode === JUMPI) && random(4) !== 0) {
      jumpTargets.push(bytes.length + 1);
      bytes.push(0x61, 0, 0);
    }
    if (opcode === JUMPDEST) jumpDests.push(bytes.length);
    bytes.push(opcode);
  }
  for (const at of jumpTargets) {
    const target = jumpDests.length > 0 ? jumpDests[random(jumpDests.length)]! : random(bytes.length);
    bytes[at] = target >> 8;
    bytes[at + 1] = target & 0xff;
  }
  return Uint8Array.from(bytes);
}

interface Outcome {
  readonly error: string | undefined;
  readonly gasUsed: string;
  readonly refund: string;
  readonly returnValue: string;
  readonly logs: string;
  readonly stack: string;
  readonly memory: string;
  readonly storage: string;
}

async function run(evm: EVM, code: Uint8Array, callee: Uint8Array, data: Uint8Array): Promise<Outcome> {
  await evm.stateManager.putAccount(CALLER, new Account(0n, 10n ** 18n));
  await evm.stateManager.putAccount(CALLEE, new Account(0n, 1n));
  await evm.stateManager.putCode(CALLEE, callee);
  await evm.stateManager.putAccount(SELF, new Account(1n, 10n ** 9n));
  const header = { number: 100n, timestamp: 1_700_000_000n, gasLimit: 30_000_000n, baseFeePerGas: 7n, coinbase: CALLEE };
  const block = createBlock({ header }, { common: evm.common });
  const result: ExecResult = await evm.runCode({ code, data, gasLimit: 300_000n, caller: CALLER, to: SELF, value: 0n, block });
  const state = result.runState;
  return {
    error: result.exceptionError?.error,
    gasUsed: result.executionGasUsed.toString(),
    refund: String(result.gasRefund),
    returnValue: bytesToHex(result.returnValue),
    logs: JSON.stringify((result.logs ?? []).map(([address, topics, logData]) => [bytesToHex(address), topics.map(bytesToHex), bytesToHex(logData)])),
    stack: state ? state.stack.getStack().join(',') : '',
    memory: state ? bytesToHex(state.memory._store.subarray(0, Number(state.memoryWordCount) * 32)) : '',
    storage:
      bytesToHex(await evm.stateManager.getStorage(CALLEE, new Uint8Array(32))) + bytesToHex(await evm.stateManager.getStorage(SELF, new Uint8Array(32))),
  };
}

describe('synchronous EVM steps (stepLoop.ts) and frames with their run state made when read (lazyRunState.ts)', () => {
  // The reference run traces (a step listener): revertTraceGuard.ts keeps REVERTs of huge ranges from crashing it.
  // It runs each frame with the library's runInterpreter, which builds the run state at once.
  before(async () => {
    await installStepLoop();
    await installLazyRunState();
    await installRevertTraceGuard();
  });

  for (const hardfork of [Hardfork.Osaka, Hardfork.London]) {
    it(`gives the library loop's outcome for 400 random programs (${hardfork}): gas, halt, return data, logs, stack, memory, storage`, async () => {
      const random = randomSource(hardfork === Hardfork.Osaka ? 11 : 12);
      let steppedAlone = 0;
      for (let i = 0; i < 400; i++) {
        const code = program(random, 10 + random(60));
        const callee = program(random, 5 + random(30));
        const data = Uint8Array.from({ length: random(70) }, () => random(256));
        const common = new Common({ chain: Mainnet, hardfork });
        const ours = await createEVM({ common });
        const library = await createEVM({ common: common.copy() });
        // A step listener makes the library run its own loop (what tracers get).
        library.events!.on('step', () => {});
        const before = stepLoopRuns();
        const mine = await run(ours, code, callee, data);
        steppedAlone += stepLoopRuns() > before ? 1 : 0;
        LAZY_RUN_STATE.enabled = false;
        let theirs: Outcome;
        try {
          theirs = await run(library, code, callee, data);
        } finally {
          LAZY_RUN_STATE.enabled = true;
        }
        expect(mine, `program ${bytesToHex(code)}, callee ${bytesToHex(callee)}, data ${bytesToHex(data)}`).to.deep.equal(theirs);
      }
      expect(steppedAlone).to.equal(400);
    });
  }
});
