// trace_get, trace_replayTransaction, trace_replayBlockTransactions, trace_call and
// trace_rawTransaction (trace_transaction, trace_block and trace_filter are compared with
// Anvil in test/e2e/anvil-traces.test.ts).
import { expect } from 'chai';
import { Interface } from 'ethers';
import { ADDRESSES, artifact, deploy, expectRpcError, newNode, send, signed } from '../helpers/chain.js';

const token = new Interface(artifact('Token').abi);
const TO = '0x000000000000000000000000000000000000beef';
type Trace = { action: Record<string, string>; result: Record<string, string> | null; traceAddress: number[]; type: string };
type Replay = { output: string; stateDiff: Record<string, Record<string, unknown>> | null; trace: Trace[]; vmTrace: null; transactionHash?: string };

describe('trace_get, trace_replay*, trace_call, trace_rawTransaction', () => {
  it('trace_get picks one trace of trace_transaction, counted from the first call under the top one (as Erigon)', async () => {
    const { rpc } = newNode();
    const address = await deploy(rpc, 'Token', ['Token', 'TKN', 1000n]);
    const { transactionHash } = await send(rpc, 0, { to: address, nonce: 1, data: token.encodeFunctionData('transfer', [TO, 7n]) });
    const all = await rpc<Trace[]>('trace_transaction', [transactionHash]);
    expect(all).to.have.length(1);
    expect(await rpc('trace_get', [transactionHash, ['0x0']])).to.equal(null); // no call under the top one
    expect(await rpc('trace_get', [transactionHash, ['0x0', '0x1']])).to.equal(null);
    expect(await rpc('trace_transaction', [`0x${'ab'.repeat(32)}`])).to.equal(null);
  });

  it("trace_replayTransaction and trace_replayBlockTransactions: the output, the traces and Parity's stateDiff", async () => {
    const { rpc } = newNode();
    const address = (await deploy(rpc, 'Token', ['Token', 'TKN', 1000n])).toLowerCase();
    const receipt = await send(rpc, 0, { to: address, nonce: 1, data: token.encodeFunctionData('transfer', [TO, 7n]) });
    const replay = await rpc<Replay>('trace_replayTransaction', [receipt.transactionHash, ['trace', 'stateDiff']]);
    expect(BigInt(replay.output)).to.equal(1n); // transfer() returned true
    expect(replay.vmTrace).to.equal(null);
    const located = await rpc<Trace[]>('trace_transaction', [receipt.transactionHash]);
    expect(replay.trace).to.deep.equal(
      located.map(({ action, result, traceAddress, type, ...rest }) => ({
        action,
        result,
        traceAddress,
        type,
        subtraces: (rest as { subtraces: number }).subtraces,
      })),
    );
    const sender = replay.stateDiff![ADDRESSES[0]!]!;
    const block = receipt.blockNumber as string;
    const parent = `0x${(BigInt(block) - 1n).toString(16)}`;
    expect(sender.balance).to.deep.equal({
      '*': { from: await rpc('eth_getBalance', [ADDRESSES[0], parent]), to: await rpc('eth_getBalance', [ADDRESSES[0], block]) },
    });
    expect(sender.nonce).to.deep.equal({ '*': { from: '0x1', to: '0x2' } });
    expect(sender.code).to.equal('=');
    const storage = replay.stateDiff![address]!.storage as Record<string, { '*': { from: string; to: string } }>;
    expect(
      Object.values(storage)
        .map((change) => [BigInt(change['*'].from), BigInt(change['*'].to)])
        .sort((a, b) => Number(a[0]! - b[0]!)),
    ).to.deep.equal([
      [0n, 7n],
      [1000n, 993n],
    ]);
    const blockReplay = await rpc<Replay[]>('trace_replayBlockTransactions', [block, ['trace']]);
    expect(blockReplay).to.deep.equal([{ ...replay, stateDiff: null, transactionHash: receipt.transactionHash }]);
    await expectRpcError(rpc('trace_replayTransaction', [receipt.transactionHash, ['vmTrace', 'x']]), -32602, /unknown trace type "x"/);
  });

  it('a created account is "+" in the stateDiff', async () => {
    const { rpc } = newNode();
    const receipt = await send(rpc, 0, { data: artifact('Token').bytecode + token.encodeDeploy(['Token', 'TKN', 5n]).slice(2), nonce: 0, gasLimit: 3_000_000 });
    const { stateDiff } = await rpc<Replay>('trace_replayTransaction', [receipt.transactionHash, ['stateDiff']]);
    const created = stateDiff![(receipt.contractAddress as string).toLowerCase()]!;
    expect(created.code).to.deep.equal({ '+': await rpc('eth_getCode', [receipt.contractAddress, 'latest']) });
    expect(created.nonce).to.deep.equal({ '+': '0x1' });
  });

  it('trace_callMany runs its calls one after another, each seeing the ones before; nothing is kept', async () => {
    const { rpc } = newNode();
    const address = await deploy(rpc, 'Token', ['Token', 'TKN', 1000n]);
    const transfer = { from: ADDRESSES[0], to: address, data: token.encodeFunctionData('transfer', [TO, 600n]) };
    const results = await rpc<Replay[]>('trace_callMany', [
      [
        [transfer, ['trace']],
        [transfer, ['trace', 'stateDiff']],
      ],
      'latest',
    ]);
    expect(results).to.have.length(2);
    expect(BigInt(results[0]!.output)).to.equal(1n);
    // The second transfer of 600 finds 400 left: it reverts.
    expect(results[1]!.trace[0]!.result).to.not.equal(undefined);
    expect((results[1]!.trace[0] as unknown as { error: string }).error).to.equal('Reverted');
    expect(results[0]!.stateDiff).to.equal(null);
    expect(BigInt(await rpc<string>('eth_call', [{ to: address, data: token.encodeFunctionData('balanceOf', [TO]) }]))).to.equal(0n);
    await expectRpcError(rpc('trace_callMany', [[[transfer]]]), -32602, /expected \[call object, trace types\]/);
  });

  it('trace_call and trace_rawTransaction trace without mining or changing state', async () => {
    const { rpc } = newNode();
    const address = await deploy(rpc, 'Token', ['Token', 'TKN', 1000n]);
    const data = token.encodeFunctionData('transfer', [TO, 3n]);
    const called = await rpc<Replay>('trace_call', [{ from: ADDRESSES[0], to: address, data }, ['trace', 'stateDiff'], 'latest']);
    expect(called.trace[0]).to.deep.include({ type: 'call', traceAddress: [] });
    expect(called.trace[0]!.action).to.include({ from: ADDRESSES[0], to: address.toLowerCase(), callType: 'call', input: data });
    const raw = await signed(0, { to: address, nonce: 1, data });
    const rawTraced = await rpc<Replay>('trace_rawTransaction', [raw, ['trace']]);
    expect(rawTraced.trace[0]!.action).to.include({ from: ADDRESSES[0], input: data });
    expect(BigInt(rawTraced.output)).to.equal(1n);
    expect(await rpc('eth_blockNumber')).to.equal('0x1');
    expect(BigInt(await rpc<string>('eth_call', [{ to: address, data: token.encodeFunctionData('balanceOf', [TO]) }]))).to.equal(0n);
  });

  it('trace_filter: fromBlock/toBlock, fromAddress and toAddress (a creation matches its address), then after and count', async () => {
    const { rpc } = newNode();
    const address = (await deploy(rpc, 'Token', ['Token', 'TKN', 1000n])).toLowerCase(); // block 1, account 0
    await send(rpc, 1, { to: TO, nonce: 0, value: 5n }); // block 2, account 1
    await send(rpc, 0, { to: address, nonce: 1, data: token.encodeFunctionData('transfer', [TO, 7n]) }); // block 3
    await send(rpc, 1, { to: address, nonce: 1, data: token.encodeFunctionData('transfer', [TO, 1n]) }); // block 4: reverts, account 1 has none
    const filter = (fields: object) => rpc<Array<Trace & { blockNumber: number }>>('trace_filter', [fields]);
    const all = await filter({});
    expect(all.map((trace) => trace.blockNumber)).to.deep.equal([1, 2, 3, 4]);
    expect((await filter({ fromBlock: '0x2', toBlock: '0x3' })).map((trace) => trace.blockNumber)).to.deep.equal([2, 3]);
    expect((await filter({ fromAddress: [ADDRESSES[1]] })).map((trace) => trace.blockNumber)).to.deep.equal([2, 4]);
    expect((await filter({ toAddress: [address] })).map((trace) => trace.blockNumber)).to.deep.equal([1, 3, 4]);
    expect((await filter({ fromAddress: [ADDRESSES[0]], toAddress: [address, TO] })).map((trace) => trace.blockNumber)).to.deep.equal([1, 3]);
    expect((await filter({ after: 1, count: 2 })).map((trace) => trace.blockNumber)).to.deep.equal([2, 3]);
    expect(await filter({ after: 9 })).to.deep.equal([]);
    await expectRpcError(filter({ fromBlock: '0x3', toBlock: '0x2' }), -32602, /toBlock \(2\) before fromBlock \(3\)/);
    await expectRpcError(filter({ fromAddress: ['0x12'] }), -32602, /fromAddress/);
    await expectRpcError(filter({ toBlock: 'pending' }), -32602, /pending block cannot be traced/);
    await expectRpcError(filter({ mode: 'union' }), -32602, /unknown field "mode"/);
  });
});
