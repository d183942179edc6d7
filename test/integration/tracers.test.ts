// go-ethereum's built-in tracers beyond the struct logger and callTracer: prestateTracer
// (plain and diffMode), 4byteTracer, flatCallTracer, noopTracer, muxTracer. Expected values
// come from the node's own state getters at the block before and at the traced block.
import { expect } from 'chai';
import { Interface, Wallet } from 'ethers';
import { ADDRESSES, CHAIN_ID, type Rpc, artifact, deploy, expectRpcError, newNode, send } from '../helpers/chain.js';

const token = new Interface(artifact('Token').abi);
const tree = new Interface(artifact('CallTree').abi);
const ACCOUNT_3 = new Wallet('0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6');
const TO = '0x000000000000000000000000000000000000beef';

type Account = { balance?: string; code?: string; codeHash?: string; nonce?: number; storage?: Record<string, string> };
type Frame = {
  type: string;
  to?: string;
  input: string;
  calls?: Frame[];
  error?: string;
  gasUsed: string;
  from: string;
  gas: string;
  value?: string;
  output?: string;
};

async function at(rpc: Rpc, method: string, params: unknown[], block: string) {
  return rpc<string>(method, [...params, block]);
}

async function transferScenario() {
  const node = newNode();
  const address = (await deploy(node.rpc, 'Token', ['Token', 'TKN', 1000n])).toLowerCase();
  const receipt = await send(node.rpc, 0, { to: address, nonce: 1, data: token.encodeFunctionData('transfer', [TO, 7n]) });
  const block = receipt.blockNumber as string;
  const parent = `0x${(BigInt(block) - 1n).toString(16)}`;
  return { ...node, address, hash: receipt.transactionHash as string, block, parent };
}

async function callTreeRun() {
  const node = newNode();
  const sign = (tx: object) =>
    ACCOUNT_3.signTransaction({ chainId: CHAIN_ID, type: 2, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 10n ** 9n, value: 0, ...tx });
  const deployHash = await node.rpc<string>('eth_sendRawTransaction', [await sign({ data: artifact('CallTree').bytecode, nonce: 0, gasLimit: 3_000_000n })]);
  const { contractAddress } = await node.rpc<{ contractAddress: string }>('eth_getTransactionReceipt', [deployHash]);
  const runHash = await node.rpc<string>('eth_sendRawTransaction', [
    await sign({ to: contractAddress, data: tree.encodeFunctionData('run'), nonce: 1, gasLimit: 2_000_000n }),
  ]);
  return { ...node, deployHash, runHash, contractAddress };
}

const isPrecompile = (address: string | undefined) => address !== undefined && BigInt(address) > 0n && BigInt(address) <= 0x11n;

describe('prestateTracer', () => {
  it('lists every account and slot the transaction touched, as they were before it', async () => {
    const { rpc, address, hash, parent } = await transferScenario();
    const pre = await rpc<Record<string, Account>>('debug_traceTransaction', [hash, { tracer: 'prestateTracer' }]);
    const sender = ADDRESSES[0]!;
    expect(pre).to.have.keys(...new Set([sender, address, ...Object.keys(pre)]));
    expect(pre[sender]).to.deep.equal({ balance: await at(rpc, 'eth_getBalance', [sender], parent), nonce: 1 });
    const contract = pre[address]!;
    expect(contract.code).to.equal(await at(rpc, 'eth_getCode', [address], parent));
    expect(contract.nonce).to.equal(1);
    expect(contract.balance).to.equal('0x0');
    expect(contract.codeHash).to.match(/^0x[0-9a-f]{64}$/);
    expect(Object.keys(contract.storage!)).to.have.length.greaterThan(1);
    for (const [slot, value] of Object.entries(contract.storage!)) {
      expect(value, slot).to.equal(await at(rpc, 'eth_getStorageAt', [address, slot], parent));
    }
    // The recipient has no code and no balance: touched (BALANCE-free, it is only a storage key) so absent.
    expect(pre[TO]).to.equal(undefined);

    const lean = await rpc<Record<string, Account>>('debug_traceTransaction', [
      hash,
      { tracer: 'prestateTracer', tracerConfig: { disableCode: true, disableStorage: true } },
    ]);
    expect(lean[address]).to.deep.equal({ balance: '0x0', codeHash: contract.codeHash, nonce: 1 });
  });

  it("diffMode: what changed, before and after; the post state is the block's", async () => {
    const { rpc, address, hash, block, parent } = await transferScenario();
    const { pre, post } = await rpc<{ pre: Record<string, Account>; post: Record<string, Account> }>('debug_traceTransaction', [
      hash,
      { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
    ]);
    const sender = ADDRESSES[0]!;
    expect(post[sender]).to.deep.equal({ balance: await at(rpc, 'eth_getBalance', [sender], block), nonce: 2 });
    expect(pre[sender]).to.deep.equal({ balance: await at(rpc, 'eth_getBalance', [sender], parent), nonce: 1 });
    // Only the two balances changed in the token's storage; the code is unchanged, so not in post.
    expect(Object.keys(post[address]!.storage!)).to.have.length(2);
    expect(post[address]).to.not.have.property('code');
    for (const [slot, value] of Object.entries(post[address]!.storage!)) {
      expect(value).to.equal(await at(rpc, 'eth_getStorageAt', [address, slot], block));
      const before = await at(rpc, 'eth_getStorageAt', [address, slot], parent);
      if (BigInt(before) === 0n) expect(pre[address]!.storage ?? {}).to.not.have.property(slot);
      else expect(pre[address]!.storage![slot]).to.equal(before);
    }
  });

  it('diffMode on a creation: the new contract is only in post, with its code and nonce', async () => {
    const { rpc } = newNode();
    const receipt = await send(rpc, 0, { data: artifact('Token').bytecode + token.encodeDeploy(['Token', 'TKN', 5n]).slice(2), nonce: 0, gasLimit: 3_000_000 });
    const created = (receipt.contractAddress as string).toLowerCase();
    const { pre, post } = await rpc<{ pre: Record<string, Account>; post: Record<string, Account> }>('debug_traceTransaction', [
      receipt.transactionHash,
      { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
    ]);
    expect(pre).to.not.have.property(created);
    expect(post[created]!.code).to.equal(await rpc('eth_getCode', [created, 'latest']));
    expect(post[created]!.nonce).to.equal(1);
    await expectRpcError(
      rpc('debug_traceTransaction', [receipt.transactionHash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true, includeEmpty: true } }]),
      -32602,
      /cannot use diffMode with includeEmpty/,
    );
  });

  it('works on debug_traceCall without changing state', async () => {
    const { rpc, address } = await transferScenario();
    const call = { from: ADDRESSES[0], to: address, data: token.encodeFunctionData('transfer', [TO, 1n]) };
    const { post } = await rpc<{ post: Record<string, Account> }>('debug_traceCall', [
      call,
      'latest',
      { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
    ]);
    const slots = post[address]!.storage!;
    expect(
      Object.values(slots)
        .map((v) => BigInt(v))
        .sort(),
    ).to.deep.equal([8n, 992n]);
    for (const slot of Object.keys(slots)) expect(BigInt(await rpc<string>('eth_getStorageAt', [address, slot, 'latest']))).to.be.oneOf([7n, 993n]);
  });
});

describe('4byteTracer, flatCallTracer, noopTracer, muxTracer', () => {
  it("4byteTracer counts each call's selector and argument size, precompiles and creations left out", async () => {
    const { rpc, runHash } = await callTreeRun();
    const root = await rpc<Frame>('debug_traceTransaction', [runHash, { tracer: 'callTracer' }]);
    const expected: Record<string, number> = {};
    const walk = (frame: Frame) => {
      const bytes = (frame.input.length - 2) / 2;
      if (!frame.type.startsWith('CREATE') && !isPrecompile(frame.to) && bytes >= 4) {
        const key = `${frame.input.slice(0, 10)}-${bytes - 4}`;
        expected[key] = (expected[key] ?? 0) + 1;
      }
      frame.calls?.forEach(walk);
    };
    walk(root);
    const counts = await rpc<Record<string, number>>('debug_traceTransaction', [runHash, { tracer: '4byteTracer' }]);
    expect(counts).to.deep.equal(expected);
    expect(counts[`${tree.getFunction('run')!.selector}-0`]).to.equal(1);
  });

  it("flatCallTracer lists the call tree depth first in Parity's form, without precompiles", async () => {
    const { rpc, runHash } = await callTreeRun();
    const root = await rpc<Frame>('debug_traceTransaction', [runHash, { tracer: 'callTracer' }]);
    const receipt = await rpc<{ blockHash: string; blockNumber: string; transactionIndex: string }>('eth_getTransactionReceipt', [runHash]);
    const expected: Array<{ frame: Frame; traceAddress: number[]; subtraces: number }> = [];
    const walk = (frame: Frame, traceAddress: number[]) => {
      const calls = (frame.calls ?? []).filter((call) => !isPrecompile(call.to));
      expected.push({ frame, traceAddress, subtraces: calls.length });
      calls.forEach((call, i) => walk(call, [...traceAddress, i]));
    };
    walk(root, []);
    type Flat = {
      action: Record<string, string>;
      result?: Record<string, string>;
      error?: string;
      traceAddress: number[];
      subtraces: number;
      type: string;
      blockHash: string;
      blockNumber: number;
      transactionHash: string;
      transactionPosition: number;
    };
    const flat = await rpc<Flat[]>('debug_traceTransaction', [runHash, { tracer: 'flatCallTracer' }]);
    expect(flat).to.have.length(expected.length);
    flat.forEach((entry, i) => {
      const { frame, traceAddress, subtraces } = expected[i]!;
      expect({ traceAddress: entry.traceAddress, subtraces: entry.subtraces }).to.deep.equal({ traceAddress, subtraces });
      expect(entry).to.include({
        blockHash: receipt.blockHash,
        blockNumber: Number(receipt.blockNumber),
        transactionHash: runHash,
        transactionPosition: Number(receipt.transactionIndex),
      });
      expect(entry.action.from).to.equal(frame.from);
      expect(entry.action.gas).to.equal(frame.gas);
      expect(entry.action.value).to.equal(frame.value ?? '0x0');
      if (frame.type.startsWith('CREATE')) {
        expect(entry.type).to.equal('create');
        expect(entry.action).to.include({ creationMethod: frame.type.toLowerCase(), init: frame.input });
        expect(entry.result).to.deep.equal({ address: frame.to, code: frame.output ?? '0x', gasUsed: frame.gasUsed });
      } else {
        expect(entry.type).to.equal('call');
        expect(entry.action).to.include({ callType: frame.type.toLowerCase(), to: frame.to, input: frame.input });
        expect(entry.result).to.deep.equal({ gasUsed: frame.gasUsed, output: frame.output ?? '0x' });
      }
      expect(entry.error).to.equal(frame.error);
    });
    const reverted = flat.find((entry) => entry.error !== undefined)!;
    expect(reverted.error).to.equal('execution reverted');
    const parity = await rpc<Flat[]>('debug_traceTransaction', [
      runHash,
      { tracer: 'flatCallTracer', tracerConfig: { convertParityErrors: true, includePrecompiles: true } },
    ]);
    expect(parity.find((entry) => entry.error !== undefined)!.error).to.equal('Reverted');
    expect(parity.length).to.be.greaterThan(flat.length); // the sha256 call is listed
  });

  it('noopTracer answers {}; muxTracer answers each of its tracers as they answer alone', async () => {
    const { rpc, runHash, deployHash } = await callTreeRun();
    expect(await rpc('debug_traceTransaction', [runHash, { tracer: 'noopTracer' }])).to.deep.equal({});
    const config = { callTracer: { withLog: true }, '4byteTracer': {}, prestateTracer: { diffMode: true }, flatCallTracer: {} };
    for (const hash of [runHash, deployHash]) {
      const mux = await rpc<Record<string, unknown>>('debug_traceTransaction', [hash, { tracer: 'muxTracer', tracerConfig: config }]);
      for (const [name, tracerConfig] of Object.entries(config)) {
        expect(mux[name], name).to.deep.equal(await rpc('debug_traceTransaction', [hash, { tracer: name, tracerConfig }]));
      }
    }
    await expectRpcError(
      rpc('debug_traceTransaction', [runHash, { tracer: 'muxTracer', tracerConfig: { jsTracer: {} } }]),
      -32602,
      /"jsTracer" is not supported/,
    );
    await expectRpcError(
      rpc('debug_traceTransaction', [runHash, { tracer: '4byteTracer', tracerConfig: { x: true } }]),
      -32602,
      /unknown field "x" for 4byteTracer/,
    );
  });

  it('a SELFDESTRUCT is a frame of its own: callTracer, flatCallTracer ("suicide"), trace_transaction, Otterscan', async () => {
    const { rpc } = newNode();
    const doomed = '0x000000000000000000000000000000000000d00d';
    await rpc('hardhat_setCode', [doomed, `0x73${TO.slice(2)}ff`]); // PUSH20 TO, SELFDESTRUCT
    const { transactionHash } = await send(rpc, 0, { to: doomed, nonce: 0, value: 9n });
    const root = await rpc<Frame>('debug_traceTransaction', [transactionHash, { tracer: 'callTracer' }]);
    expect(root.calls).to.deep.equal([{ from: doomed, gas: '0x0', gasUsed: '0x0', to: TO, input: '0x', value: '0x9', type: 'SELFDESTRUCT' }]);
    const flat = await rpc<Array<Record<string, unknown>>>('debug_traceTransaction', [transactionHash, { tracer: 'flatCallTracer' }]);
    expect(flat[1]).to.deep.include({ action: { address: doomed, balance: '0x9', refundAddress: TO }, type: 'suicide', traceAddress: [0], subtraces: 0 });
    expect(flat[1]).to.not.have.property('result');
    const parity = await rpc<Array<Record<string, unknown>>>('trace_transaction', [transactionHash]);
    expect(parity[1]).to.include({ type: 'suicide', result: null });
    expect(await rpc('ots_getInternalOperations', [transactionHash])).to.deep.equal([{ type: 1, from: doomed, to: TO, value: '0x9' }]);
  });

  it('traces every transaction of a block with any tracer', async () => {
    const { rpc, runHash } = await callTreeRun();
    const { blockNumber } = await rpc<{ blockNumber: string }>('eth_getTransactionReceipt', [runHash]);
    const block = await rpc<Array<{ txHash: string; result: unknown }>>('debug_traceBlockByNumber', [
      blockNumber,
      { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
    ]);
    expect(block).to.deep.equal([
      { txHash: runHash, result: await rpc('debug_traceTransaction', [runHash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]) },
    ]);
  });
});
