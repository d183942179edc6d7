// Tracing on a chain that moved back and forth: evm_snapshot / evm_revert and a block mined
// again at a reverted height. Traces follow the chain as it is now; tracing itself moves nothing.
import { expect } from 'chai';
import { Interface } from 'ethers';
import { ADDRESSES, artifact, deploy, expectRpcError, newNode, send } from '../helpers/chain.js';

const token = new Interface(artifact('Token').abi);
const TO = '0x000000000000000000000000000000000000beef';
type Trace = { action: { input: string }; transactionHash: string };
type Replay = { stateDiff: Record<string, { storage: Record<string, { '*': { from: string; to: string } }> }>; transactionHash: string };

describe('tracing across snapshots and reverts', () => {
  it('traces what the chain holds now: a reverted transaction is gone, the block mined in its place is traced', async () => {
    const { rpc } = newNode();
    const address = (await deploy(rpc, 'Token', ['Token', 'TKN', 1000n])).toLowerCase();
    const kept = await send(rpc, 0, { to: address, nonce: 1, data: token.encodeFunctionData('transfer', [TO, 7n]) });
    const keptTraces = await rpc<Trace[]>('trace_transaction', [kept.transactionHash]);
    const keptStructs = await rpc('debug_traceTransaction', [kept.transactionHash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]);
    const snapshot = await rpc<string>('evm_snapshot');

    const dropped = await send(rpc, 0, { to: address, nonce: 2, data: token.encodeFunctionData('transfer', [TO, 100n]) });
    expect(await rpc<Trace[]>('trace_transaction', [dropped.transactionHash])).to.have.length(1);
    expect(await rpc('evm_revert', [snapshot])).to.equal(true);

    // The reverted transaction and its block are unknown to every tracing method.
    expect(await rpc('trace_transaction', [dropped.transactionHash])).to.equal(null);
    await expectRpcError(rpc('debug_traceTransaction', [dropped.transactionHash]), -32000, /transaction not found/);
    await expectRpcError(rpc('trace_replayTransaction', [dropped.transactionHash, ['trace']]), -32000, /transaction not found/);
    await expectRpcError(rpc('debug_traceBlockByNumber', [dropped.blockNumber]), -32000, /block #3 not found/);
    expect(await rpc('trace_block', [dropped.blockNumber])).to.equal(null);

    // Another transaction mined at the same height: its block is what block 3 traces to now.
    const replacing = await send(rpc, 0, { to: address, nonce: 2, data: token.encodeFunctionData('transfer', [TO, 30n]) });
    expect(replacing.blockNumber).to.equal(dropped.blockNumber);
    const [traced] = await rpc<Array<{ txHash: string }>>('debug_traceBlockByNumber', [replacing.blockNumber, { tracer: 'callTracer' }]);
    expect(traced!.txHash).to.equal(replacing.transactionHash);
    const [replay] = await rpc<Replay[]>('trace_replayBlockTransactions', [replacing.blockNumber, ['stateDiff']]);
    expect(replay!.transactionHash).to.equal(replacing.transactionHash);
    const moved = Object.values(replay!.stateDiff[address]!.storage).map((change) => [BigInt(change['*'].from), BigInt(change['*'].to)]);
    expect(moved.sort((a, b) => Number(a[0]! - b[0]!))).to.deep.equal([
      [7n, 37n], // the payee's balance: 7 from block 2, 30 more
      [993n, 963n],
    ]);

    // The transaction before the snapshot traces as it did; tracing moved no state.
    expect(await rpc('trace_transaction', [kept.transactionHash])).to.deep.equal(keptTraces);
    expect(await rpc('debug_traceTransaction', [kept.transactionHash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }])).to.deep.equal(
      keptStructs,
    );
    expect(BigInt(await rpc<string>('eth_call', [{ to: address, data: token.encodeFunctionData('balanceOf', [TO]) }]))).to.equal(37n);
    expect(await rpc('eth_getTransactionCount', [ADDRESSES[0], 'latest'])).to.equal('0x3');
  });
});
