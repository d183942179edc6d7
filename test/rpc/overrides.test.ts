/**
 * State overrides (eth_call/eth_estimateGas/eth_createAccessList third parameter) and block
 * overrides (eth_call/eth_estimateGas fourth parameter), as go-ethereum applies them: each field,
 * each error, under the chain_ and eth_ names, in process and over HTTP, and never leaking.
 */
import { expect } from 'chai';
import { bytesToHex, createAddressFromString, generateAddress, hexToBytes } from '@ethereumjs/util';
import { ADDRESSES, type Rpc, newNode, send } from '../helpers/chain.js';
import { postJson, rpcError, httpServerPerSuite } from '../helpers/rpc.js';

const C = '0x00000000000000000000000000000000000000c1';
const D = '0x00000000000000000000000000000000000000d1';
const SHA256 = '0x0000000000000000000000000000000000000002';
/** Push the opcode's value, store it at memory 0 and return the word. */
const returning = (opcode: string) => `0x${opcode}60005260206000f3`;
const ZERO_SLOT = `0x${'0'.repeat(64)}`;
const ONE_SLOT = `0x${'0'.repeat(63)}1`;
const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
/** SLOAD(CALLDATALOAD(0)), returned. */
const SLOAD_ARG = returning('60003554');
/** BALANCE(CALLDATALOAD(0)), returned. */
const BALANCE_ARG = returning('60003531');
/** CREATE with empty init code: returns the new address, which depends on the caller's nonce. */
const CREATE_EMPTY = returning('600060006000f0');

describe('state and block overrides', function () {
  this.timeout(30_000);
  let rpc: Rpc;
  beforeEach(() => {
    ({ rpc } = newNode());
  });

  const call = (overrides: unknown, data = '0x', block?: unknown, to = C) =>
    rpc<string>('eth_call', block === undefined ? [{ to, data }, 'latest', overrides] : [{ to, data }, 'latest', overrides, block]);

  describe('state override fields', () => {
    it('code: the call runs the given code at an address that has none', async () => {
      expect(await call({ [C]: { code: returning('43') } })).to.equal(word(1n - 1n));
      expect(await rpc('eth_getCode', [C, 'latest'])).to.equal('0x');
    });

    it('balance: BALANCE sees the overridden balance', async () => {
      const balance = 123_456_789n;
      expect(await call({ [C]: { code: BALANCE_ARG }, [D]: { balance: `0x${balance.toString(16)}` } }, word(BigInt(D)))).to.equal(word(balance));
    });

    it('nonce: CREATE derives the new address from the overridden nonce', async () => {
      const answer = await call({ [C]: { code: CREATE_EMPTY, nonce: '0x2a' } });
      const expected = bytesToHex(generateAddress(hexToBytes(C), hexToBytes('0x2a')));
      expect(BigInt(answer)).to.equal(BigInt(expected));
    });

    it('state replaces the whole storage; stateDiff patches slots and keeps the others', async () => {
      const address = ADDRESSES[0]!;
      // A contract with slots 0 and 1 set, through a real transaction.
      const receipt = await send(rpc, 0, { data: '0x602a6000556007600155600c6016600039600c6000f3' + SLOAD_ARG.slice(2), gasLimit: 200_000 });
      const contract = receipt.contractAddress as string;
      expect(address).to.be.a('string');
      const read = (overrides: unknown, slot: string) => call(overrides, slot, undefined, contract);
      expect(await read({}, ZERO_SLOT)).to.equal(word(42n));
      expect(await read({ [contract]: { state: { [ONE_SLOT]: word(9n) } } }, ZERO_SLOT)).to.equal(word(0n));
      expect(await read({ [contract]: { state: { [ONE_SLOT]: word(9n) } } }, ONE_SLOT)).to.equal(word(9n));
      expect(await read({ [contract]: { stateDiff: { [ONE_SLOT]: word(9n) } } }, ZERO_SLOT)).to.equal(word(42n));
      expect(await read({ [contract]: { stateDiff: { [ONE_SLOT]: word(9n) } } }, ONE_SLOT)).to.equal(word(9n));
      // Nothing leaked into the chain.
      expect(await rpc('eth_getStorageAt', [contract, '0x1', 'latest'])).to.equal(word(7n));
    });

    it('movePrecompileToAddress: the precompile answers at its new address; code overrides the old one', async () => {
      const input = '0x616263';
      const digest = await call({}, input, undefined, SHA256);
      expect(await call({ [SHA256]: { movePrecompileToAddress: D } }, input, undefined, D)).to.equal(digest);
      // Its old address is an empty account now.
      expect(await call({ [SHA256]: { movePrecompileToAddress: D } }, input, undefined, SHA256)).to.equal('0x');
      // Code at a precompile's address runs instead of the precompile.
      expect(await call({ [SHA256]: { code: returning('43') } }, input, undefined, SHA256)).to.equal(word(0n));
    });
  });

  describe("go-ethereum's errors", () => {
    it("state together with stateDiff: -32000 account ... has both 'state' and 'stateDiff'", async () => {
      const error = await rpcError(() => call({ [C]: { state: {}, stateDiff: {} } }));
      expect(error.code).to.equal(-32000);
      expect(error.message).to.equal("account 0x00000000000000000000000000000000000000C1 has both 'state' and 'stateDiff'");
    });

    it('moving a non-precompile: -32000 account ... is not a precompile', async () => {
      const error = await rpcError(() => call({ [C]: { movePrecompileToAddress: D } }));
      expect(error.code).to.equal(-32000);
      expect(error.message).to.equal('account 0x00000000000000000000000000000000000000C1 is not a precompile');
    });

    it('moving a precompile onto an overridden address: -32000 account ... is already overridden', async () => {
      const error = await rpcError(() => call({ [SHA256]: { movePrecompileToAddress: C }, [C]: { balance: '0x1' } }));
      expect(error.code).to.equal(-32000);
      expect(error.message).to.equal('account 0x00000000000000000000000000000000000000C1 is already overridden');
    });

    const bad: Array<[string, unknown, RegExp]> = [
      ['a number balance', { [C]: { balance: 5 } }, /\.balance: expected a quantity/],
      ['a balance over 256 bits', { [C]: { balance: `0x1${'0'.repeat(64)}` } }, /\.balance: hex number > 256 bits/],
      ['a nonce over 64 bits', { [C]: { nonce: `0x1${'0'.repeat(16)}` } }, /\.nonce: hex number > 64 bits/],
      ['odd-length code', { [C]: { code: '0x123' } }, /\.code: hex string of odd length/],
      ['a short storage key', { [C]: { state: { '0x01': word(1n) } } }, /state key "0x01": hex string has length 2, want 64/],
      ['a short storage value', { [C]: { stateDiff: { [ZERO_SLOT]: '0x01' } } }, /stateDiff\.0x0+: hex string has length 2, want 64/],
      ['a bad address key', { '0x1234': {} }, /key "0x1234": hex string has length 4, want 40/],
      ['an unknown field', { [C]: { storage: {} } }, /unknown field "storage" in account override/],
      ['an array', [], /expected an object, got array/],
    ];
    for (const [what, overrides, message] of bad) {
      it(`${what}: -32602 naming argument 2`, async () => {
        const error = await rpcError(() => call(overrides));
        expect(error.code).to.equal(-32602);
        expect(error.message).to.match(/^invalid argument 2 \(stateOverrides\)/);
        expect(error.message).to.match(message);
      });
    }
  });

  describe('block overrides (fourth parameter)', () => {
    const fields: Array<[string, string, unknown, bigint]> = [
      ['number', '43', '0x1234', 0x1234n],
      ['time', '42', '0x99999', 0x99999n],
      ['gasLimit', '45', '0x1c9c380', 0x1c9c380n],
      ['feeRecipient', '41', D, BigInt(D)],
      ['prevRandao', '44', word(77n), 77n],
      ['blobBaseFee', '4a', '0x3b9aca00', 0x3b9aca00n],
    ];
    for (const [field, opcode, value, expected] of fields) {
      it(`${field}: the EVM sees it`, async () => {
        expect(await call({ [C]: { code: returning(opcode) } }, '0x', { [field]: value })).to.equal(word(expected));
      });
    }

    it('baseFeePerGas: BASEFEE sees it in a call that pays fees', async () => {
      const answer = await rpc<string>('eth_call', [
        { from: D, to: C, gasPrice: '0x77359400' },
        'latest',
        { [C]: { code: returning('48') }, [D]: { balance: '0xffffffffffffffffffff' } },
        { baseFeePerGas: '0x3b9aca00' },
      ]);
      expect(answer).to.equal(word(0x3b9aca00n));
    });

    it('a number override moves the call onto that block number only', async () => {
      await rpc('chain_mine');
      expect(await call({ [C]: { code: returning('43') } }, '0x', {})).to.equal(word(1n));
      expect(await rpc('eth_blockNumber')).to.equal('0x1');
    });

    for (const [field, value] of [
      ['withdrawals', []],
      ['beaconRoot', word(1n)],
    ] as const) {
      it(`${field}: refused as go-ethereum refuses it outside eth_simulateV1`, async () => {
        const error = await rpcError(() => call({}, '0x', { [field]: value }));
        expect(error.code).to.equal(-32000);
        expect(error.message).to.equal(`block override "${field}" is not supported for this RPC method`);
      });
    }

    it('an unknown field: -32602 naming argument 3', async () => {
      const error = await rpcError(() => call({}, '0x', { timestamp: '0x1' }));
      expect(error.code).to.equal(-32602);
      expect(error.message).to.match(/^invalid argument 3 \(blockOverrides\): unknown field "timestamp"/);
    });
  });

  describe('eth_estimateGas and eth_createAccessList', () => {
    it('eth_estimateGas runs against overridden code and balances', async () => {
      // Without the override the target has no code and the transfer costs 21000.
      expect(await rpc('eth_estimateGas', [{ to: C }])).to.equal('0x5208');
      const gas = BigInt(await rpc<string>('eth_estimateGas', [{ to: C, data: ZERO_SLOT }, 'latest', { [C]: { code: SLOAD_ARG } }]));
      expect(gas > 21_000n + 2_100n).to.equal(true);
      // A sender with no money pays for nothing with its balance overridden.
      const value = '0xde0b6b3a7640000';
      expect((await rpcError(() => rpc('eth_estimateGas', [{ from: D, to: C, value }]))).message).to.match(/insufficient funds/);
      expect(await rpc('eth_estimateGas', [{ from: D, to: C, value }, 'latest', { [D]: { balance: '0xffffffffffffffffff' } }])).to.equal('0x5208');
    });

    it('eth_createAccessList lists the slot the overridden code reads', async () => {
      const result = await rpc<{ accessList: Array<{ address: string; storageKeys: string[] }> }>('eth_createAccessList', [
        { to: C, data: ONE_SLOT },
        'latest',
        { [C]: { code: SLOAD_ARG } },
      ]);
      expect(result.accessList).to.deep.equal([{ address: C, storageKeys: [ONE_SLOT] }]);
      const error = await rpcError(() => rpc('eth_createAccessList', [{ to: C }, 'latest', {}, {}]));
      expect(error.message).to.equal('too many arguments, want at most 3');
    });
  });

  it('a block gas limit override below the gas the block used still runs the call (GASLIMIT reads it)', async () => {
    await send(rpc, 0, { to: D, value: 1n, nonce: 0, gasLimit: 21000 });
    expect(await call({ [C]: { code: returning('45') } }, '0x', { gasLimit: '0x0' })).to.equal(word(0n));
  });

  it('debug_traceCall takes stateOverrides and blockOverrides in its config, as go-ethereum', async () => {
    const traced = (config: object) => rpc<{ returnValue: string; failed: boolean }>('debug_traceCall', [{ to: C }, 'latest', config]);
    expect((await traced({})).returnValue).to.equal('0x');
    const withCode = await traced({ stateOverrides: { [C]: { code: returning('43') } }, blockOverrides: { number: '0x99' } });
    expect([withCode.failed, withCode.returnValue]).to.deep.equal([false, word(0x99n)]);
    const called = await rpc<{ output: string }>('debug_traceCall', [
      { to: C },
      'latest',
      { tracer: 'callTracer', stateOverrides: { [C]: { code: returning('43') } } },
    ]);
    expect(called.output).to.equal(word(0n)); // NUMBER at latest (block 0), no block override
    expect(await rpc('eth_getCode', [C, 'latest'])).to.equal('0x');
    const refused = await rpcError(() => rpc('debug_traceCall', [{ to: C }, 'latest', { stateOverrides: { [C]: { state: {}, stateDiff: {} } } }]));
    expect(refused.code).to.equal(-32000); // go-ethereum: state and stateDiff together
    expect((await rpcError(() => rpc('debug_traceTransaction', [`0x${'11'.repeat(32)}`, { stateOverrides: {} }]))).message).to.match(
      /unknown field "stateOverrides"/,
    );
  });

  it('under chain_ and eth_ names alike', async () => {
    for (const method of ['chain_call', 'eth_call']) {
      expect(await rpc(method, [{ to: C }, 'latest', { [C]: { code: returning('43') } }, { number: '0x7' }])).to.equal(word(7n));
    }
    for (const method of ['chain_estimateGas', 'eth_estimateGas']) {
      expect(await rpc(method, [{ to: C }, 'latest', { [C]: { code: returning('43') } }])).to.not.equal('0x5208');
    }
  });

  it('nothing leaks: the chain, the pool, snapshots and later calls are as before', async () => {
    const snapshot = await rpc<string>('evm_snapshot');
    const before = await rpc<Record<string, unknown>>('eth_getBlockByNumber', ['latest', false]);
    await rpc('chain_setAutomine', [false]);
    await rpc('eth_sendTransaction', [{ from: ADDRESSES[0], to: C, value: '0x1' }]);
    const pool = await rpc('txpool_content');
    const overrides = {
      [C]: { code: returning('43'), balance: '0x99', nonce: '0x5', state: { [ZERO_SLOT]: word(1n) } },
      [SHA256]: { movePrecompileToAddress: D },
    };
    await call(overrides, '0x', { number: '0x99', time: '0x99' });
    await rpc('eth_estimateGas', [{ to: C }, 'pending', overrides, { number: '0x99' }]);
    await rpc('eth_createAccessList', [{ to: C }, 'pending', overrides]);
    expect(await rpc('eth_getBlockByNumber', ['latest', false])).to.deep.equal(before);
    expect(await rpc('txpool_content')).to.deep.equal(pool);
    expect(await rpc('eth_getCode', [C, 'pending'])).to.equal('0x');
    expect(await rpc('eth_getBalance', [C, 'latest'])).to.equal('0x0');
    expect(await rpc('eth_getStorageAt', [C, '0x0', 'pending'])).to.equal(word(0n));
    // The precompile is back where it was, for the next call.
    expect(await call({}, '0x616263', undefined, SHA256)).to.equal('0xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await call({}, '0x616263', undefined, D)).to.equal('0x');
    expect(await rpc('evm_revert', [snapshot])).to.equal(true);
    expect(await rpc('eth_getBlockByNumber', ['latest', false])).to.deep.equal(before);
  });

  it('an override refused half-way (after earlier accounts were written) leaves nothing behind', async () => {
    // Applied in address order: C's code is written before D's conflict is found.
    const error = await rpcError(() => call({ [C]: { code: returning('43'), balance: '0x5' }, [D]: { state: {}, stateDiff: {} } }));
    expect(error.message).to.match(/has both 'state' and 'stateDiff'/);
    expect(await rpc('eth_getCode', [C, 'latest'])).to.equal('0x');
    expect(await rpc('eth_getBalance', [C, 'latest'])).to.equal('0x0');
    expect(await call({}, '0x', undefined, C)).to.equal('0x');
  });

  describe('over HTTP', () => {
    const url = httpServerPerSuite({ hardfork: 'prague' });

    it('eth_call with state and block overrides, and an override error, over a real socket', async () => {
      const ok = await postJson(url(), {
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_call',
        params: [{ to: C }, 'latest', { [C]: { code: returning('43') } }, { number: '0x42' }],
      });
      expect(JSON.parse(ok.body)).to.deep.equal({ jsonrpc: '2.0', id: 1, result: word(0x42n) });
      const bad = await postJson(url(), { jsonrpc: '2.0', id: 2, method: 'eth_call', params: [{ to: C }, 'latest', { [C]: { state: {}, stateDiff: {} } }] });
      expect(JSON.parse(bad.body).error).to.deep.equal({
        code: -32000,
        message: "account 0x00000000000000000000000000000000000000C1 has both 'state' and 'stateDiff'",
      });
      expect(createAddressFromString(C).toString()).to.equal(C);
    });
  });
});
