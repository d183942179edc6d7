/**
 * eth_simulateV1 on a fresh chain (the recorded go-ethereum corpus is test/rpcCompat's job):
 * derived headers and links, state and block overrides per block, per-call results and
 * errors with go-ethereum's codes, limits, traceTransfers, full transactions, and no leaks.
 */
import { expect } from 'chai';
import { ADDRESSES, type Rpc, newNode } from '../helpers/chain.js';
import { errorStringPayload, postJson, revertingInitCode, rpcError, httpServerPerSuite } from '../helpers/rpc.js';

const A = '0xc000000000000000000000000000000000000000';
const B = '0xc100000000000000000000000000000000000000';
const C = '0xc200000000000000000000000000000000000000';
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
const returning = (opcode: string) => `0x${opcode}60005260206000f3`;

type Block = Record<string, unknown> & { calls: Array<Record<string, unknown>> };

describe('eth_simulateV1', function () {
  this.timeout(30_000);
  let rpc: Rpc;
  beforeEach(() => {
    ({ rpc } = newNode());
  });
  const simulate = (options: unknown, block: unknown = 'latest') => rpc<Block[]>('eth_simulateV1', [options, block]);

  it('blocks follow the head: numbers, +12 s timestamps, parent links; calls run on overridden state', async () => {
    const head = await rpc<Record<string, string>>('eth_getBlockByNumber', ['latest', false]);
    const blocks = await simulate({
      blockStateCalls: [
        { stateOverrides: { [A]: { balance: '0x3e8' } }, calls: [{ from: A, to: B, value: '0x64' }] },
        { calls: [{ from: B, to: C, value: '0x1' }] },
      ],
    });
    expect(blocks.map((b) => b.number)).to.deep.equal(['0x1', '0x2']);
    expect(blocks[0]!.parentHash).to.equal(head.hash);
    expect(blocks[1]!.parentHash).to.equal(blocks[0]!.hash);
    expect(BigInt(blocks[0]!.timestamp as string)).to.equal(BigInt(head.timestamp!) + 12n);
    expect(BigInt(blocks[1]!.timestamp as string)).to.equal(BigInt(head.timestamp!) + 24n);
    // Without validation the base fee is 0 unless overridden.
    expect(blocks[0]!.baseFeePerGas).to.equal('0x0');
    expect(blocks[0]!.calls).to.deep.equal([{ returnData: '0x', logs: [], gasUsed: '0x5208', maxUsedGas: '0x5208', status: '0x1' }]);
    expect(blocks[1]!.calls[0]!.status).to.equal('0x1');
    expect(blocks[0]!.transactions).to.have.length(1);
    // Nothing leaked.
    expect(await rpc('eth_blockNumber')).to.equal('0x0');
    expect(await rpc('eth_getBalance', [B, 'latest'])).to.equal('0x0');
  });

  it('a block number gap is filled with empty blocks; block overrides reach the EVM', async () => {
    const blocks = await simulate({
      blockStateCalls: [
        {
          blockOverrides: { number: '0x5', time: '0x77777777', feeRecipient: C, prevRandao: word(9n), baseFeePerGas: '0x7', gasLimit: '0x1312d00' },
          stateOverrides: { [B]: { code: returning('43') } },
          calls: [{ from: A, to: B }],
        },
      ],
    });
    expect(blocks.map((b) => b.number)).to.deep.equal(['0x1', '0x2', '0x3', '0x4', '0x5']);
    const last = blocks[4]!;
    expect(last).to.include({ miner: C, mixHash: word(9n), baseFeePerGas: '0x7', gasLimit: '0x1312d00', timestamp: '0x77777777' });
    expect(last.calls[0]!.returnData).to.equal(word(5n));
  });

  it('failed calls are results: a revert with code 3 and its data, other failures -32015', async () => {
    const payload = errorStringPayload('nope');
    const blocks = await simulate({
      blockStateCalls: [
        {
          stateOverrides: { [B]: { code: revertingInitCode(payload) }, [C]: { code: '0xfe' } },
          calls: [
            { from: A, to: B },
            { from: A, to: C, gas: '0x7530' },
          ],
        },
      ],
    });
    const [revert, invalid] = blocks[0]!.calls;
    expect(revert).to.deep.include({ status: '0x0', returnData: '0x', error: { message: 'execution reverted: nope', code: 3, data: payload } });
    expect(invalid!.status).to.equal('0x0');
    expect((invalid!.error as { code: number }).code).to.equal(-32015);
  });

  it('traceTransfers: an ERC-7528 Transfer log for every ether movement', async () => {
    const blocks = await simulate({
      blockStateCalls: [{ stateOverrides: { [A]: { balance: '0x3e8' } }, calls: [{ from: A, to: B, value: '0x64' }] }],
      traceTransfers: true,
    });
    const logs = blocks[0]!.calls[0]!.logs as Array<Record<string, unknown>>;
    expect(logs).to.have.length(1);
    expect(logs[0]).to.deep.include({
      address: '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
      topics: [TRANSFER_TOPIC, `0x${A.slice(2).padStart(64, '0')}`, `0x${B.slice(2).padStart(64, '0')}`],
      data: word(100n),
      blockHash: blocks[0]!.hash,
      logIndex: '0x0',
      removed: false,
    });
  });

  it('returnFullTransactions: unsigned transactions with their senders', async () => {
    const blocks = await simulate({ blockStateCalls: [{ calls: [{ from: A, to: B }] }], returnFullTransactions: true });
    const [tx] = blocks[0]!.transactions as Array<Record<string, unknown>>;
    expect(tx).to.include({ from: A, to: B, type: '0x2', v: '0x0', r: '0x0', s: '0x0', blockHash: blocks[0]!.hash, blockNumber: '0x1' });
  });

  it('validation: nonces, funds and the base fee are checked, with go-ethereum codes', async () => {
    const nonce = await rpcError(() =>
      simulate({ blockStateCalls: [{ stateOverrides: { [A]: { nonce: '0x2' } }, calls: [{ from: A, to: B, nonce: '0x1' }] }], validation: true }),
    );
    expect(nonce.code).to.equal(-38010);
    const funds = await rpcError(() =>
      simulate({ blockStateCalls: [{ calls: [{ from: A, to: B, value: '0x1', maxFeePerGas: '0x3b9aca00' }] }], validation: true }),
    );
    expect(funds.code).to.equal(-38014);
    const fee = await rpcError(() => simulate({ blockStateCalls: [{ calls: [{ from: ADDRESSES[0], to: B }] }], validation: true }));
    expect(fee.code).to.equal(-38012);
    // With validation the base fee follows EIP-1559 from the parent.
    const head = await rpc<Record<string, string>>('eth_getBlockByNumber', ['latest', false]);
    const blocks = await simulate({ blockStateCalls: [{}], validation: true });
    expect(BigInt(blocks[0]!.baseFeePerGas as string) <= BigInt(head.baseFeePerGas!)).to.equal(true);
  });

  const requestErrors: Array<[string, unknown, number, RegExp]> = [
    ['empty input', { blockStateCalls: [] }, -32602, /^empty input$/],
    ['too many blocks', { blockStateCalls: Array.from({ length: 257 }, () => ({})) }, -38026, /^too many blocks$/],
    ['a number past 256 blocks', { blockStateCalls: [{ blockOverrides: { number: '0x101' } }] }, -38026, /^too many blocks$/],
    [
      'numbers out of order',
      { blockStateCalls: [{ blockOverrides: { number: '0x5' } }, { blockOverrides: { number: '0x5' } }] },
      -38020,
      /^block numbers must be in order: 5 <= 5$/,
    ],
    ['timestamps out of order', { blockStateCalls: [{ blockOverrides: { time: '0x1' } }] }, -38021, /^block timestamps must be in order: 1 <= \d+$/],
    [
      'a call over the block gas left',
      { blockStateCalls: [{ blockOverrides: { gasLimit: '0x5208' }, calls: [{ from: A, to: B, gas: '0x5209' }] }] },
      -38015,
      /^block gas limit reached: remaining: 21000, required: 21001$/,
    ],
    ['too many calls in a block', { blockStateCalls: [{ calls: Array.from({ length: 5001 }, () => ({})) }] }, -38026, /^too many calls in block: 5001 > 5000$/],
    ['intrinsic gas', { blockStateCalls: [{ calls: [{ from: A, to: B, gas: '0x0' }] }] }, -38013, /intrinsic gas too low/],
    [
      'a moved non-precompile',
      { blockStateCalls: [{ stateOverrides: { [A]: { movePrecompileToAddress: B } } }] },
      -32000,
      /^account 0xC000000000000000000000000000000000000000 is not a precompile$/,
    ],
    ['an unknown option', { blockStateCalls: [{}], validate: true }, -32602, /unknown field "validate"/],
    ['an unknown block field', { blockStateCalls: [{ call: [] }] }, -32602, /unknown field "call" in block state call/],
  ];
  for (const [what, options, code, message] of requestErrors) {
    it(`${what}: ${code}`, async () => {
      const error = await rpcError(() => simulate(options));
      expect(error.code, error.message).to.equal(code);
      expect(error.message).to.match(message);
    });
  }

  it('an unknown block: -32000 header not found', async () => {
    const error = await rpcError(() => simulate({ blockStateCalls: [{}] }, '0x99'));
    expect(error).to.deep.include({ code: -32000, message: 'header not found' });
  });

  it('BLOCKHASH sees earlier simulated blocks; chain_simulateV1 answers the same', async () => {
    const options = { blockStateCalls: [{}, { stateOverrides: { [B]: { code: returning('6001430340') } }, calls: [{ from: A, to: B }] }] };
    const blocks = await simulate(options);
    expect(blocks[1]!.calls[0]!.returnData).to.equal(blocks[0]!.hash);
    expect(await rpc('chain_simulateV1', [options, 'latest'])).to.deep.equal(blocks);
  });

  describe('over HTTP', () => {
    const url = httpServerPerSuite({ hardfork: 'prague' });

    it('answers a simulation and a request error over a real socket', async () => {
      const ok = JSON.parse(
        (await postJson(url(), { jsonrpc: '2.0', id: 7, method: 'eth_simulateV1', params: [{ blockStateCalls: [{ calls: [{ from: A, to: B }] }] }] })).body,
      );
      expect(ok.result[0].calls[0].status).to.equal('0x1');
      const bad = JSON.parse((await postJson(url(), { jsonrpc: '2.0', id: 8, method: 'eth_simulateV1', params: [{ blockStateCalls: [] }] })).body);
      expect(bad).to.deep.equal({ jsonrpc: '2.0', id: 8, error: { code: -32602, message: 'empty input' } });
    });
  });
});
