/**
 * One slow request must not stop the others (issue 35): while a long trace, a trace_filter, a
 * large eth_simulateV1 or a call at an old block runs, another client's simple read answers
 * and its send is mined. No timed assertions: each test asserts the order in which answers
 * arrive, with the slow request started first and the other client's requests made from a
 * timer (a new turn of the event loop, as a request read from a socket is). Before the
 * change the slow work ran to its end in microtasks, so the timer fired only after it.
 */
import { expect } from 'chai';
import { LATEST } from '../../src/engine/chain.js';
import type { MinedBlock } from '../../src/engine/blocks/blocks.js';
import { blockReplays } from '../../src/engine/execution/blockBuilder.js';
import { ADDRESSES, type Rpc, expectRpcError, nodesPerTest, send, signed } from '../helpers/chain.js';
import { createAddressFromString } from '@ethereumjs/util';

/**
 * Runtime of a contract that counts calldata's first word down to zero (7 steps, 26 gas a
 * turn): PUSH1 0 CALLDATALOAD; JUMPDEST PUSH1 1 SWAP1 SUB DUP1 PUSH1 3 JUMPI; STOP.
 */
const LOOP_RUNTIME = '6000355b600190038060035700';
/** Init code returning LOOP_RUNTIME: PUSH13 runtime, PUSH1 0, MSTORE, PUSH1 13, PUSH1 19, RETURN. */
const LOOP_INIT = `0x6c${LOOP_RUNTIME}60005260${'0d'}6013f3`;

const word = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`;
const later = <T>(fn: () => Promise<T>): Promise<T> => new Promise<T>((resolve, reject) => setTimeout(() => fn().then(resolve, reject), 1));

async function deployLoop(rpc: Rpc, nonce: number): Promise<string> {
  const receipt = await send(rpc, 0, { data: LOOP_INIT, nonce, gasLimit: 200_000 });
  expect(receipt.status).to.equal('0x1');
  return receipt.contractAddress as string;
}

/**
 * Start `slow`, then from a timer another client's eth_blockNumber and a send from key 1 (nonce
 * `nonce`) followed by its receipt; the order in which the three finished.
 */
async function raceAgainst(rpc: Rpc, slow: Promise<unknown>, nonce: number): Promise<string[]> {
  const order: string[] = [];
  const slowDone = slow.then(
    () => order.push('slow'),
    (error: unknown) => {
      order.push('slow');
      throw error;
    },
  );
  const read = later(() => rpc<string>('eth_blockNumber')).then(() => order.push('read'));
  const sent = later(async () => {
    const hash = await rpc<string>('eth_sendRawTransaction', [await signed(1, { to: ADDRESSES[2], nonce, value: 1 })]);
    const receipt = await rpc<{ status: string } | null>('eth_getTransactionReceipt', [hash]);
    expect(receipt?.status).to.equal('0x1');
    order.push('mined');
  });
  await Promise.all([slowDone, read, sent]);
  return order;
}

describe('concurrency: one slow request does not stop the others', function () {
  this.timeout(120_000);
  const node = nodesPerTest();

  it('debug_traceTransaction of a long loop (struct logger): a read and a send from another client are answered before it, and its answer is unchanged', async () => {
    const { rpc } = node();
    const loop = await deployLoop(rpc, 0);
    const receipt = await send(rpc, 0, { to: loop, data: word(30_000), nonce: 1, gasLimit: 1_000_000 });
    const hash = receipt.transactionHash as string;
    let traced: unknown;
    const order = await raceAgainst(
      rpc,
      rpc('debug_traceTransaction', [hash]).then((trace) => (traced = trace)),
      0,
    );
    expect(order).to.deep.equal(['read', 'mined', 'slow']);
    // The same trace as when nothing else runs.
    expect(await rpc('debug_traceTransaction', [hash])).to.deep.equal(traced);
  });

  it('trace_filter over blocks with transactions lets a read and a send through before it answers', async () => {
    const { rpc } = node();
    const loop = await deployLoop(rpc, 0);
    for (let i = 1; i <= 30; i++) await send(rpc, 0, { to: loop, data: word(2_000), nonce: i, gasLimit: 200_000 });
    const head = await rpc<string>('eth_blockNumber');
    const order = await raceAgainst(rpc, rpc('trace_filter', [{ fromBlock: '0x1', toBlock: head }]), 0);
    expect(order).to.deep.equal(['read', 'mined', 'slow']);
  });

  it('a chain_mine of 100,000 blocks: a read and a send from another client go between two of its turns, and every block links to its parent', async () => {
    const { rpc, provider } = node();
    const { chain } = await provider.ready();
    const order = await raceAgainst(rpc, rpc('hardhat_mine', ['0x186a0']), 0);
    expect(order).to.deep.equal(['read', 'mined', 'slow']);
    // The run's 100,000 blocks and the send's, all hashed by the time the mine answered.
    const head = chain.blocks.headNumber;
    expect(head).to.equal(100_001n);
    expect(chain.blocks.lastUnreserved).to.equal(head);
    const segments = await chain.inspect(async (core) => core.blocks.segments());
    const withSend = segments.filter((segment) => !('run' in segment) && segment.senders.length > 0);
    expect(withSend).to.have.length(1);
    const at = (withSend[0] as MinedBlock).number;
    expect(at > 1n && at < head, `the send's block ${at} is among the run's`).to.equal(true);
    // The links as ethereumjs computes them, at every place where one stretch of the chain follows another.
    let number = 0n;
    for (const segment of segments) {
      const first = 'run' in segment ? segment.run.first : segment.number;
      expect(first).to.equal(number);
      for (const n of new Set([first, first + 1n]).add(first + BigInt('run' in segment ? segment.count : 1) - 1n)) {
        if (n === 0n || n > head) continue;
        const block = chain.blocks.byNumber(n)!.block;
        expect(block.hash(), `hash of block ${n}`).to.deep.equal(chain.blocks.byNumber(n)!.hash);
        expect(block.header.parentHash, `parent of block ${n}`).to.deep.equal(chain.blocks.byNumber(n - 1n)!.hash);
      }
      number = first + BigInt('run' in segment ? segment.count : 1);
    }
    expect(number).to.equal(head + 1n);
  });

  it('trace_filter replays no empty block: 9,998 reserved blocks and one transaction cost one replay', async () => {
    const { rpc } = node();
    await rpc('hardhat_mine', ['0x270e']); // 9,998 blocks: the range below is 9,999, within trace_filter's 10,000
    const receipt = await send(rpc, 0, { to: ADDRESSES[1], nonce: 0, value: 5 });
    const before = blockReplays();
    const traces = await rpc<Array<{ transactionHash: string }>>('trace_filter', [{ fromBlock: '0x1', toBlock: receipt.blockNumber }]);
    expect(blockReplays() - before).to.equal(1);
    expect(traces.map((t) => t.transactionHash)).to.deep.equal([receipt.transactionHash]);
    expect(traces).to.deep.equal(await rpc('trace_block', [receipt.blockNumber]));
    // An empty block still answers as before: no traces.
    expect(await rpc('trace_block', ['0x10'])).to.deep.equal([]);
    expect(await rpc('debug_traceBlockByNumber', ['0x10'])).to.deep.equal([]);
  });

  it('eth_call of a long loop at an older block runs outside the queue: a send is mined before it answers', async () => {
    const { rpc } = node();
    const loop = await deployLoop(rpc, 0);
    const past = await rpc<string>('eth_blockNumber');
    await rpc('evm_mine');
    const order = await raceAgainst(rpc, rpc('eth_call', [{ to: loop, data: word(150_000), gas: '0x4c4b40' }, past]), 0);
    expect(order).to.deep.equal(['read', 'mined', 'slow']);
  });

  it('a large eth_simulateV1 lets a read and a send through before it answers', async () => {
    const { rpc } = node();
    const loop = await deployLoop(rpc, 0);
    const calls = Array.from({ length: 40 }, () => ({ from: ADDRESSES[0], to: loop, input: word(3_000) }));
    const order = await raceAgainst(rpc, rpc('eth_simulateV1', [{ blockStateCalls: [{ calls }] }, 'latest']), 0);
    expect(order).to.deep.equal(['read', 'mined', 'slow']);
  });

  it('a revert while a trace of a reverted block runs: the trace is refused as gone, its nodes are freed after it, nothing crashes', async () => {
    const { provider, rpc } = node();
    const { chain } = await provider.ready();
    const loop = await deployLoop(rpc, 0);
    const nodesAtSnapshot = chain.storedStateNodes;
    const snapshot = await rpc<string>('evm_snapshot');
    const receipt = await send(rpc, 0, { to: loop, data: word(30_000), nonce: 1, gasLimit: 1_000_000 });
    const trace = rpc('debug_traceTransaction', [receipt.transactionHash, { tracer: 'callTracer' }]);
    let deferredDuringTrace = -1;
    const reverted = later(async () => {
      expect(await rpc('evm_revert', [snapshot])).to.equal(true);
      deferredDuringTrace = await chain.inspect((core) => core.trieNodes.deferredSize);
    });
    await expectRpcError(trace, -32000, new RegExp(`block #${Number(receipt.blockNumber)} no longer exists`));
    await reverted;
    // The revert's nodes waited for the trace (a lease), then went.
    expect(deferredDuringTrace).to.be.greaterThan(0);
    expect(await chain.inspect((core) => core.trieNodes.deferredSize)).to.equal(0);
    expect(chain.storedStateNodes).to.equal(nodesAtSnapshot);
    // The chain goes on: the loop contract is there, and the sender's nonce is back to 1.
    expect(await rpc('eth_getCode', [loop, 'latest'])).to.equal(`0x${LOOP_RUNTIME}`);
    expect(await chain.getTransactionCount(createAddressFromString(ADDRESSES[0]!), LATEST)).to.equal(1n);
  });
});
