// Parity's vmTrace (trace_replay*, trace_call, trace_callMany, trace_rawTransaction) on
// hand-written code whose every record can be worked out, and checked against the struct
// logger step for step. Anvil's vmTrace is compared in test/e2e/anvil-traces.test.ts.
import { expect } from 'chai';
import { ADDRESSES, type Rpc, expectRpcError, newNode, send, signed } from '../helpers/chain.js';

type Ex = { mem: { data: string; off: number } | null; push: string[]; store: { key: string; val: string } | null; used: number };
type Op = { cost: number; ex: Ex | null; pc: number; sub: VmTrace | null; op: string; idx: string };
type VmTrace = { code: string; ops: Op[] };
type Replay = { output: string; vmTrace: VmTrace | null; trace: unknown[]; stateDiff: unknown };
type StructLog = { pc: number; op: string; gas: number; gasCost: number; depth: number };

const CALLEE = '0x00000000000000000000000000000000000c0de1';
const CALLER = '0x00000000000000000000000000000000000c0de2';
const WORD_2A = `0x${'2a'.padStart(64, '0')}`;
// PUSH1 0x2a, PUSH1 0, MSTORE, PUSH1 0x20, PUSH1 0, RETURN: returns the word 0x2a.
const CALLEE_CODE = '0x602a60005260206000f3';
const CALLER_CODE = [
  '0x6007600155', // PUSH1 7, PUSH1 1, SSTORE
  '6020600060006000600073', // PUSH1 0x20 (out size), PUSH1 0 (out offset), PUSH1 0, PUSH1 0, PUSH1 0 (value), PUSH20
  CALLEE.slice(2),
  '5af1', // GAS, CALL
  '50', // POP
  '600051', // PUSH1 0, MLOAD
  '6005', // PUSH1 5
  '81', // DUP2
  '90', // SWAP1
  '600060006020600060025afa', // PUSH1 0, PUSH1 0, PUSH1 0x20, PUSH1 0, PUSH1 2 (sha256), GAS, STATICCALL
  '00', // STOP
].join('');

async function node(): Promise<Rpc> {
  const { rpc } = newNode();
  await rpc('hardhat_setCode', [CALLEE, CALLEE_CODE]);
  await rpc('hardhat_setCode', [CALLER, CALLER_CODE]);
  return rpc;
}

/** Every op of the trace, depth first, as the struct logger lists steps. */
function flatten(trace: VmTrace, depth = 1): Array<Op & { depth: number }> {
  return trace.ops.flatMap((op) => [{ ...op, depth }, ...(op.sub ? flatten(op.sub, depth + 1) : [])]);
}

describe('vmTrace (Parity, as Erigon writes it)', () => {
  it("records each opcode's cost, gas left, pushes, memory written, storage written and sub-call", async () => {
    const rpc = await node();
    const { transactionHash } = await send(rpc, 0, { to: CALLER, nonce: 0, gasLimit: 200_000 });
    const replay = await rpc<Replay>('trace_replayTransaction', [transactionHash, ['vmTrace']]);
    const { vmTrace } = replay;
    expect(vmTrace!.code).to.equal(CALLER_CODE);
    const ops = vmTrace!.ops;
    expect(ops.map((op) => op.op)).to.deep.equal([
      ...['PUSH1', 'PUSH1', 'SSTORE'],
      ...['PUSH1', 'PUSH1', 'PUSH1', 'PUSH1', 'PUSH1', 'PUSH20', 'GAS', 'CALL'],
      ...['POP', 'PUSH1', 'MLOAD', 'PUSH1', 'DUP2', 'SWAP1'],
      ...['PUSH1', 'PUSH1', 'PUSH1', 'PUSH1', 'PUSH1', 'GAS', 'STATICCALL', 'STOP'],
    ]);
    expect(ops.map((op) => op.idx)).to.deep.equal(ops.map((_, i) => String(i)));
    const [push7, , sstore] = ops;
    expect(push7).to.deep.equal({ cost: 3, ex: { mem: null, push: ['0x7'], store: null, used: push7!.ex!.used }, pc: 0, sub: null, op: 'PUSH1', idx: '0' });
    // A cold slot set from zero: 2,100 + 20,000.
    expect(sstore).to.deep.include({ cost: 22_100, pc: 4 });
    expect(sstore!.ex).to.deep.equal({ mem: null, push: [], store: { key: '0x1', val: '0x7' }, used: ops[1]!.ex!.used - 22_100 });
    // Gas left after each op is the one before less its cost (a call's: less what the callee used).
    for (let i = 1; i < ops.length; i++) {
      if (ops[i - 1]!.sub === null && ops[i]!.sub === null) expect(ops[i]!.ex!.used, `op ${i}`).to.equal(ops[i - 1]!.ex!.used - ops[i]!.cost);
    }

    const call = ops[10]!;
    expect(call.ex!.push).to.deep.equal(['0x1']); // the call succeeded
    expect(call.ex!.mem).to.deep.equal({ data: WORD_2A, off: 0 }); // its output, written at out offset 0
    const sub = call.sub!;
    expect(sub.code).to.equal(CALLEE_CODE);
    expect(sub.ops.map((op) => [op.op, op.idx])).to.deep.equal([
      ['PUSH1', '10-0'],
      ['PUSH1', '10-1'],
      ['MSTORE', '10-2'],
      ['PUSH1', '10-3'],
      ['PUSH1', '10-4'],
      ['RETURN', '10-5'],
    ]);
    expect(sub.ops[2]!.ex).to.deep.equal({ mem: { data: WORD_2A, off: 0 }, push: [], store: null, used: sub.ops[1]!.ex!.used - sub.ops[2]!.cost });
    // The callee started with what the CALL passed on, all but a 64th of what was left (EIP-150).
    const passed = sub.ops[0]!.ex!.used + sub.ops[0]!.cost;
    const gasBeforeCall = ops[9]!.ex!.used;
    const callOwnCost = 2_600 + 3; // a cold account, and one word of memory for the output area
    expect(passed).to.equal(gasBeforeCall - callOwnCost - Math.floor((gasBeforeCall - callOwnCost) / 64));
    // The CALL's cost includes what it passed on (as go-ethereum counts it); gas left is after the callee returned.
    expect(call.cost).to.equal(callOwnCost + passed);
    const calleeUsed = passed - sub.ops.at(-1)!.ex!.used;
    expect(call.ex!.used).to.equal(gasBeforeCall - callOwnCost - calleeUsed);

    expect(ops[13]!.ex).to.deep.include({ push: ['0x2a'], mem: { data: WORD_2A, off: 0 } }); // MLOAD
    expect(ops[15]!.ex!.push).to.deep.equal(['0x2a', '0x5', '0x2a']); // DUP2: the n+1 words
    expect(ops[16]!.ex!.push).to.deep.equal(['0x2a', '0x5']); // SWAP1: the 2 words swapped
    // A precompile runs no code: an empty sub-trace; its output area was 0 bytes, so no memory.
    expect(ops[23]!.sub).to.deep.equal({ code: '0x', ops: [] });
    expect(ops[23]!.ex).to.deep.include({ push: ['0x1'], mem: null });
    expect(ops[24]).to.deep.include({ op: 'STOP', cost: 0, sub: null });

    // Step for step what the struct logger records: pc, op, cost, depth, and gas left after.
    const { structLogs } = await rpc<{ structLogs: StructLog[] }>('debug_traceTransaction', [transactionHash]);
    const flat = flatten(vmTrace!);
    expect(flat.map(({ pc, op, cost, depth }) => ({ pc, op, cost, depth }))).to.deep.equal(
      structLogs.map(({ pc, op, gasCost, depth }) => ({ pc, op, cost: gasCost, depth })),
    );
    flat.forEach((op, i) => {
      if (!op.sub) expect(op.ex!.used, `${op.op} ${op.idx}`).to.equal(structLogs[i]!.gas - structLogs[i]!.gasCost);
    });
  });

  it('is served by every replay method, with trace and stateDiff or alone; the state does not move', async () => {
    const rpc = await node();
    const receipt = await send(rpc, 0, { to: CALLER, nonce: 0, gasLimit: 200_000 });
    const replayed = await rpc<Replay>('trace_replayTransaction', [receipt.transactionHash, ['trace', 'stateDiff', 'vmTrace']]);
    expect(replayed.trace).to.have.length(3);
    expect(replayed.stateDiff).to.not.equal(null);
    const [inBlock] = await rpc<Replay[]>('trace_replayBlockTransactions', [receipt.blockNumber, ['vmTrace']]);
    expect(inBlock!.vmTrace).to.deep.equal(replayed.vmTrace);
    expect(inBlock!.trace).to.deep.equal([]);
    // Run again as calls: the slot is already 7 now, so SSTORE costs less; the rest is the same.
    const request = { from: ADDRESSES[0], to: CALLER, gas: '0x30d40' };
    const called = await rpc<Replay>('trace_call', [request, ['vmTrace'], 'latest']);
    expect(called.vmTrace!.ops.map((op) => op.op)).to.deep.equal(replayed.vmTrace!.ops.map((op) => op.op));
    expect(called.vmTrace!.ops[2]!.cost).to.equal(2_200); // cold, unchanged value: 2,100 + 100
    const [first, second] = await rpc<Replay[]>('trace_callMany', [
      [
        [request, ['vmTrace']],
        [request, ['trace']],
      ],
      'latest',
    ]);
    expect(first!.vmTrace).to.deep.equal(called.vmTrace);
    expect(second!.vmTrace).to.equal(null);
    const raw = await rpc<Replay>('trace_rawTransaction', [await signed(0, { to: CALLER, nonce: 1, gasLimit: 200_000 }), ['vmTrace']]);
    expect(raw.vmTrace!.ops.map((op) => op.op)).to.deep.equal(replayed.vmTrace!.ops.map((op) => op.op));
    expect(await rpc('eth_blockNumber')).to.equal(receipt.blockNumber);
    await expectRpcError(rpc('trace_call', [request, ['vmTrace', 'calls']]), -32602, /unknown trace type "calls"; expected "trace", "stateDiff" or "vmTrace"/);
  });

  it("a creation's trace has its init code; an opcode that cannot pay for itself has no ex", async () => {
    const rpc = await node();
    // Init code: PUSH1 7, PUSH1 1, SSTORE, STOP.
    const init = '0x600760015500';
    const created = await rpc<Replay>('trace_call', [{ from: ADDRESSES[0], data: init }, ['vmTrace']]);
    expect(created.vmTrace!.code).to.equal(init);
    expect(created.vmTrace!.ops.map((op) => op.op)).to.deep.equal(['PUSH1', 'PUSH1', 'SSTORE', 'STOP']);
    // 21,000 + 6 (PUSH1, PUSH1) + 3,000 more: SSTORE (22,100) cannot be paid.
    const starved = await rpc<Replay>('trace_call', [{ from: ADDRESSES[0], to: CALLER, gas: `0x${(21_000 + 6 + 3_000).toString(16)}` }, ['vmTrace', 'trace']]);
    const ops = starved.vmTrace!.ops;
    expect(ops.map((op) => op.op)).to.deep.equal(['PUSH1', 'PUSH1', 'SSTORE']);
    expect(ops[2]).to.deep.equal({ cost: 22_100, ex: null, pc: 4, sub: null, op: 'SSTORE', idx: '2' });
    // A plain transfer runs no code.
    const transfer = await rpc<Replay>('trace_call', [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x1' }, ['vmTrace']]);
    expect(transfer.vmTrace).to.deep.equal({ code: '0x', ops: [] });
  });

  it('counts against the trace budget: a vmTrace too large to hold is refused, and nothing moves', async () => {
    const rpc = await node();
    // 17 PUSH0s, then JUMPDEST, SWAP16, PUSH1 17, JUMP forever: each SWAP16 records the 17 words it moved.
    const loop = '0x000000000000000000000000000000000000100f';
    await rpc('hardhat_setCode', [loop, `0x${'5f'.repeat(17)}5b9f601156`]);
    const request = { from: ADDRESSES[0], to: loop, gas: `0x${(3_000_000).toString(16)}` };
    await expectRpcError(rpc('trace_call', [request, ['vmTrace']]), -32000, /^trace too large: traces over 128 MiB/);
    // The budget is per answer: a smaller run of the same loop is traced, and the chain did not move.
    const small = await rpc<Replay>('trace_call', [{ ...request, gas: '0x186a0' }, ['vmTrace']]);
    expect(small.vmTrace!.ops.at(-1)!.ex).to.equal(null); // it ran out of gas
    expect(await rpc('eth_blockNumber')).to.equal('0x0');
  });
});
