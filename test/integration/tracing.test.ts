// debug_traceTransaction / debug_traceCall, checked step for step against a recording from
// Anvil (an independent EVM) of the same transaction: test/fixtures/traces/anvil-calltree.json.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { Interface, Wallet } from 'ethers';
import { ADDRESSES, CHAIN_ID, type Rpc, artifact, deploy, expectRpcError, newNode, send, sentHash, signed } from '../helpers/chain.js';

interface Recording {
  gasUsed: string;
  result: { failed: boolean; gas: number; returnValue: string };
  steps: Array<[number, string, number, number, number, number, number, string | null, Record<string, string> | null]>;
  callTracer: CallFrameJson;
  deployCallTracer: CallFrameJson;
}

interface CallFrameJson {
  type: string;
  from: string;
  to?: string;
  gas: string;
  gasUsed: string;
  input: string;
  output?: string;
  error?: string;
  revertReason?: string;
  value?: string;
  logs?: Array<{ address: string; topics: string[]; data: string; index: string; position: string }>;
  calls?: CallFrameJson[];
}

interface StructLogJson {
  pc: number;
  op: string;
  gas: number;
  gasCost: number;
  depth: number;
  stack?: string[];
  memory?: string[];
  storage?: Record<string, string>;
  refund?: number;
  error?: string;
}

interface StructResult {
  gas: number;
  failed: boolean;
  returnValue: string;
  structLogs: StructLogJson[];
}

const RECORDING = JSON.parse(readFileSync(new URL('../../../test/fixtures/traces/anvil-calltree.json', import.meta.url), 'utf8')) as Recording;
const tree = new Interface(artifact('CallTree').abi);
const token = new Interface(artifact('Token').abi);
/** Account 3 of the default mnemonic, which made the recording. */
const ACCOUNT_3 = new Wallet('0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6');
const TO = '0x000000000000000000000000000000000000beef';

async function sendAs(rpc: Rpc, tx: { to?: string; data: string; nonce: number; gasLimit: bigint }): Promise<string> {
  const raw = await ACCOUNT_3.signTransaction({ chainId: CHAIN_ID, type: 2, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 10n ** 9n, value: 0, ...tx });
  return rpc<string>('eth_sendRawTransaction', [raw]);
}

/** The recorded scenario: CallTree deployed by account 3, then run(). */
async function callTreeRun() {
  const node = newNode();
  const deployHash = await sendAs(node.rpc, { data: artifact('CallTree').bytecode, nonce: 0, gasLimit: 3_000_000n });
  const { contractAddress } = await node.rpc<{ contractAddress: string }>('eth_getTransactionReceipt', [deployHash]);
  const runHash = await sendAs(node.rpc, { to: contractAddress, data: tree.encodeFunctionData('run'), nonce: 1, gasLimit: 2_000_000n });
  return { ...node, deployHash, runHash, contractAddress };
}

/** Storage words are 0x-prefixed, in Anvil's recording as in go-ethereum since 1.17.2 (and chain-sim). */
const storageOf = (storage: Record<string, string> | null): Record<string, string> | undefined => storage ?? undefined;

describe('debug_traceTransaction and debug_traceCall', () => {
  it("struct logs match an independent EVM's step for step: pc, op, gas, cost, depth, refund, stack, storage", async () => {
    const { rpc, runHash } = await callTreeRun();
    expect((await rpc<{ gasUsed: string }>('eth_getTransactionReceipt', [runHash])).gasUsed).to.equal(RECORDING.gasUsed);
    const trace = await rpc<StructResult>('debug_traceTransaction', [runHash]);
    expect({ failed: trace.failed, gas: trace.gas, returnValue: trace.returnValue }).to.deep.equal(RECORDING.result);
    const steps = trace.structLogs.map((log) => [
      log.pc,
      log.op,
      log.gas,
      log.gasCost,
      log.depth,
      log.refund ?? 0,
      log.stack!.length,
      log.stack!.at(-1) ?? null,
      log.storage ?? undefined,
    ]);
    expect(steps).to.have.length(RECORDING.steps.length);
    const expected = RECORDING.steps.map((step) => [...step.slice(0, 8), storageOf(step[8])]);
    for (let i = 0; i < steps.length; i++) expect(steps[i], `step ${i} (${RECORDING.steps[i]![1]})`).to.deep.equal(expected[i]);
  });

  it('callTracer with logs matches it too: CREATE, CREATE2, CALL, STATICCALL, DELEGATECALL, a precompile, a caught revert', async () => {
    const { rpc, runHash, deployHash } = await callTreeRun();
    const frame = await rpc<CallFrameJson>('debug_traceTransaction', [runHash, { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
    expect(frame).to.deep.equal(RECORDING.callTracer);
    // fail() is pure, so Solidity calls it with STATICCALL, like read() and the sha256 precompile.
    expect(frame.calls!.map((call) => call.type)).to.deep.equal(['CREATE', 'CREATE2', 'CALL', 'STATICCALL', 'DELEGATECALL', 'STATICCALL', 'STATICCALL']);
    expect(frame.calls![5]).to.include({ error: 'execution reverted', revertReason: 'callee failed' });
    expect(await rpc('debug_traceTransaction', [deployHash, { tracer: 'callTracer' }])).to.deep.equal(RECORDING.deployCallTracer);

    // onlyTopCall: go-ethereum records no callee, so the top frame's log comes after none of them.
    const top = await rpc<CallFrameJson>('debug_traceTransaction', [runHash, { tracer: 'callTracer', tracerConfig: { onlyTopCall: true, withLog: true } }]);
    expect(top.calls).to.equal(undefined);
    expect(top.logs).to.deep.equal(RECORDING.callTracer.logs!.map((log) => ({ ...log, position: '0x0' })));
  });

  it('memory as go-ethereum writes it, and the options that leave stack or storage out', async () => {
    const { rpc, runHash } = await callTreeRun();
    const withMemory = await rpc<StructResult>('debug_traceTransaction', [runHash, { enableMemory: true, disableStack: true, disableStorage: true }]);
    const mstore = withMemory.structLogs.find((log) => log.op === 'MSTORE' && log.memory !== undefined)!;
    // go-ethereum since 1.17.2 (execution-apis' spec): 0x-prefixed 32-byte words.
    expect(mstore.memory!.every((word) => /^0x[0-9a-f]{64}$/.test(word))).to.equal(true);
    expect(withMemory.structLogs.every((log) => log.stack === undefined && log.storage === undefined)).to.equal(true);
    expect(withMemory.structLogs[0]!.memory).to.equal(undefined); // empty memory is left out
  });

  it('traces the second transaction of a block after replaying the first; the state does not move', async () => {
    const { rpc } = newNode();
    const address = await deploy(rpc, 'Token', ['Token', 'TKN', 1000n]);
    await rpc('evm_setAutomine', [false]);
    const data = token.encodeFunctionData('transfer', [TO, 7n]);
    await rpc('eth_sendRawTransaction', [await signed(0, { to: address, nonce: 1, data })]);
    const second = await rpc<string>('eth_sendRawTransaction', [await signed(0, { to: address, nonce: 2, data })]);
    await rpc('evm_mine');
    const receipt = await rpc<{ gasUsed: string; transactionIndex: string; logs: Array<{ logIndex: string }> }>('eth_getTransactionReceipt', [second]);
    expect(receipt.transactionIndex).to.equal('0x1');
    const head = await rpc<{ stateRoot: string }>('eth_getBlockByNumber', ['latest', false]);

    // Without the first transfer replayed, the recipient's balance would go 0 → 7 again (20,000 gas, not 2,900).
    const trace = await rpc<StructResult>('debug_traceTransaction', [second]);
    expect(trace.gas).to.equal(Number(receipt.gasUsed));
    expect(trace.structLogs.filter((log) => log.op === 'SSTORE').map((log) => log.gasCost)).to.deep.equal([2900, 2900]);
    const frame = await rpc<CallFrameJson>('debug_traceTransaction', [second, { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
    expect(frame.logs!.map((log) => log.index)).to.deep.equal([receipt.logs[0]!.logIndex]);
    expect(frame.gasUsed).to.equal(receipt.gasUsed);
    expect((await rpc<{ stateRoot: string }>('eth_getBlockByNumber', ['latest', false])).stateRoot).to.equal(head.stateRoot);
  });

  it('replays a block from the state it ran on: setters since the parent block, impersonated senders', async () => {
    const { rpc } = newNode();
    const whale = '0x00000000000000000000000000000000000000aa';
    await rpc('hardhat_setBalance', [whale, '0xde0b6b3a7640000']); // no block: the parent's state root has no such balance
    await rpc('hardhat_impersonateAccount', [whale]);
    const hash = await rpc<string>('eth_sendTransaction', [{ from: whale, to: TO, value: '0x1' }]);
    const frame = await rpc<CallFrameJson>('debug_traceTransaction', [hash, { tracer: 'callTracer' }]);
    expect(frame).to.include({ from: whale, to: TO, value: '0x1', gasUsed: '0x5208', type: 'CALL' });
  });

  it('debug_traceCall traces a call at a block, reverts included, without changing state', async () => {
    const { rpc } = newNode();
    const address = await deploy(rpc, 'Token', ['Token', 'TKN', 1000n]);
    const balanceOf = await rpc<CallFrameJson>('debug_traceCall', [
      { from: ADDRESSES[0], to: address, data: token.encodeFunctionData('balanceOf', [ADDRESSES[0]]) },
      'latest',
      { tracer: 'callTracer' },
    ]);
    expect(balanceOf).to.include({ type: 'CALL', from: ADDRESSES[0], to: address.toLowerCase() });
    expect(BigInt(balanceOf.output!)).to.equal(1000n);

    const overdraft = { from: ADDRESSES[0], to: address, data: token.encodeFunctionData('transfer', [TO, 10n ** 30n]) };
    const reverted = await rpc<StructResult>('debug_traceCall', [overdraft, 'latest']);
    expect(reverted.failed).to.equal(true);
    expect(reverted.structLogs.at(-1)!.op).to.equal('REVERT');
    expect(token.parseError(reverted.returnValue)?.args[0]).to.equal('Token: insufficient balance');
    const frame = await rpc<CallFrameJson>('debug_traceCall', [overdraft, 'latest', { tracer: 'callTracer' }]);
    expect(frame).to.include({ error: 'execution reverted', revertReason: 'Token: insufficient balance' });
    expect(await rpc('eth_blockNumber')).to.equal('0x1');
  });

  it('marks the opcode where a frame ran out of gas, as go-ethereum does', async () => {
    const { rpc, contractAddress } = await callTreeRun();
    const trace = await rpc<StructResult>('debug_traceCall', [
      { from: ACCOUNT_3.address, to: contractAddress, data: tree.encodeFunctionData('run'), gas: '0x7530' },
      'latest',
    ]);
    expect(trace.failed).to.equal(true);
    expect(trace.returnValue).to.equal('0x');
    const failing = trace.structLogs.filter((log) => log.error !== undefined);
    expect(failing).to.have.length(1);
    expect(failing[0]!.error).to.equal('out of gas');
    expect(failing[0]).to.equal(trace.structLogs.at(-1));
  });

  it('traces a REVERT of a range no gas could pay for as the out-of-gas step it is (revertTraceGuard.ts)', async () => {
    const { rpc } = newNode();
    const reverter = '0x000000000000000000000000000000000000dead';
    // PUSH32 2^255 (length), PUSH1 0 (offset), REVERT
    await rpc('hardhat_setCode', [reverter, `0x7f80${'00'.repeat(31)}6000fd`]);
    const hash = await sentHash(rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], to: reverter, gas: '0x30000' }]));
    const traced = await rpc<StructResult>('debug_traceTransaction', [hash]);
    const called = await rpc<StructResult>('debug_traceCall', [{ from: ADDRESSES[0], to: reverter, gas: '0x30000' }, 'latest']);
    for (const trace of [traced, called]) {
      expect(trace.failed).to.equal(true);
      expect(trace.gas).to.equal(0x30000);
      expect(trace.structLogs.map((log) => log.op)).to.deep.equal(['PUSH32', 'PUSH1', 'REVERT']);
      expect(trace.structLogs.at(-1)!.error).to.equal('out of gas');
    }
    const frame = await rpc<CallFrameJson>('debug_traceTransaction', [hash, { tracer: 'callTracer' }]);
    expect(frame.error).to.equal('out of gas');
  });

  it('stops recording once the records pass `limit` bytes (go-ethereum since 1.14.13), and refuses a trace too large to hold', async () => {
    const { rpc, provider } = newNode();
    const address = await deploy(rpc, 'Token', ['Token', 'TKN', 1000n]);
    const balanceOf = { to: address, data: token.encodeFunctionData('balanceOf', [ADDRESSES[0]]) };
    const whole = await rpc<StructResult>('debug_traceCall', [balanceOf, 'latest']);
    const firstThree = whole.structLogs.slice(0, 3).reduce((sum, log) => sum + JSON.stringify(log).length, 0);
    // At exactly the limit go-ethereum still takes the next record; one byte less and it stops.
    const atLimit = await rpc<StructResult>('debug_traceCall', [balanceOf, 'latest', { limit: firstThree }]);
    expect(atLimit.structLogs).to.deep.equal(whole.structLogs.slice(0, 4));
    const belowLimit = await rpc<StructResult>('debug_traceCall', [balanceOf, 'latest', { limit: firstThree - 1 }]);
    expect(belowLimit.structLogs.map((log) => log.pc)).to.deep.equal([0, 2, 4]);
    expect(belowLimit.failed).to.equal(false);

    // MLOAD at 1 MiB, then an endless loop: with memory, every record holds a megabyte.
    const loop = '0x000000000000000000000000000000000000100f';
    await rpc('hardhat_setCode', [loop, '0x620fffe051505b600656']);
    await expectRpcError(rpc('debug_traceCall', [{ to: loop }, 'latest', { enableMemory: true }]), -32000, /^trace too large: struct logs over 128 MiB/);
    // The stopped run was on a copy: the live state has no checkpoint left open, and answers as before.
    const { chain } = await provider.ready();
    const checkpoints = await chain.inspect((core) => (core.vm.stateManager as unknown as { _checkpointCount: number })._checkpointCount);
    expect(checkpoints).to.equal(0);
    expect(await rpc('eth_call', [balanceOf])).to.equal(`0x${(1000).toString(16).padStart(64, '0')}`);
    await expectRpcError(rpc('debug_traceCall', [balanceOf, 'latest', { limit: -1 }]), -32602, /limit: expected a non-negative integer/);
  });

  it('keeps under a `limit` exactly the first records of the whole trace, untouched by the calls and failures that follow', async () => {
    const { rpc, runHash } = await callTreeRun();
    const whole = await rpc<StructResult>('debug_traceTransaction', [runHash]);
    // Each limit stops recording just before a CALL, CREATE or failing step whose record would be changed once its frame ends.
    for (const index of whole.structLogs.flatMap((log, i) => (['CREATE', 'CREATE2', 'CALL', 'STATICCALL', 'DELEGATECALL'].includes(log.op) ? [i - 1] : []))) {
      const limit = whole.structLogs.slice(0, index).reduce((sum, log) => sum + JSON.stringify(log).length, 0);
      const limited = await rpc<StructResult>('debug_traceTransaction', [runHash, { limit }]);
      expect(limited.structLogs, `limit ${limit}`).to.deep.equal(whole.structLogs.slice(0, index + 1));
    }
  });

  it('answers unknown transactions and unsupported options with clear errors', async () => {
    const { rpc } = newNode();
    const unknown = `0x${'ab'.repeat(32)}`;
    await expectRpcError(rpc('debug_traceTransaction', [unknown]), -32000, /^transaction not found$/);
    const { transactionHash } = await send(rpc, 0, { to: TO, nonce: 0, gasLimit: 21000 });
    await expectRpcError(
      rpc('debug_traceTransaction', [transactionHash, { tracer: 'opcodeTracer' }]),
      -32602,
      /argument 1 \(config\)\.tracer: "opcodeTracer" is not supported: chain-sim runs no JavaScript tracers/,
    );
    await expectRpcError(
      rpc('debug_traceTransaction', [transactionHash, { tracer: '{ step: function() {}, result: function() { return 1 } }' }]),
      -32602,
      /runs no JavaScript tracers; built-in tracers are callTracer, flatCallTracer, prestateTracer/,
    );
    await expectRpcError(
      rpc('debug_traceTransaction', [transactionHash, { tracer: 'callTracer', tracerConfig: { diffMode: true } }]),
      -32602,
      /unknown field "diffMode" for callTracer/,
    );
    await expectRpcError(rpc('debug_traceTransaction', [transactionHash, { stateOverrides: {} }]), -32602, /unknown field "stateOverrides"/);
    await expectRpcError(
      rpc('debug_traceTransaction', [transactionHash, { tracer: 'callTracer', tracerConfig: { onlyTopCall: 1 } }]),
      -32602,
      /tracerConfig\.onlyTopCall: expected a boolean/,
    );
    // A plain transfer runs no code: no steps.
    expect((await rpc<StructResult>('debug_traceTransaction', [transactionHash])).structLogs).to.deep.equal([]);
  });
});
