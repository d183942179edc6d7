/**
 * fast-check arbitraries for hostile JSON-RPC input: random JSON, wrong arities, huge and
 * negative numbers, non-hex and odd-length hex strings, unicode, nested arrays, plausible
 * values (so calls get past the first parameter), and whole JSON-RPC envelopes and batches.
 */
import fc from 'fast-check';
import type { RpcMethod } from '../../src/rpc/method.js';
import type { MethodTable } from '../../src/rpc/table.js';
import { FIRST_ACCOUNT, SECOND_ACCOUNT } from '../helpers/rpc.js';

const ZERO_HASH = `0x${'00'.repeat(32)}`;

/** Values a well-behaved client would send, by parameter name; used to reach deeper into handlers. */
export const GOOD_VALUES: Readonly<Record<string, unknown>> = {
  address: SECOND_ACCOUNT,
  block: 'latest',
  newestBlock: 'latest',
  blockHash: ZERO_HASH,
  transactionHash: ZERO_HASH,
  position: '0x0',
  value: '0x0',
  fullTransactions: false,
  index: '0x0',
  transaction: { from: FIRST_ACCOUNT, to: SECOND_ACCOUNT, value: '0x1' },
  message: '0x1234',
  data: '0x1234',
  signedTransaction: '0x02',
  typedData: { types: { EIP712Domain: [] }, primaryType: 'EIP712Domain', domain: {}, message: {} },
  blockCount: '0x2',
  rewardPercentiles: [10, 50],
  snapshotId: '0x1',
  blocks: '0x1',
  interval: '0x1',
  timestamp: '0x0',
  enabled: true,
  milliseconds: 0,
  seconds: '0x1',
  balance: '0x1',
  code: '0x60006000f3',
  nonce: '0x1',
  baseFee: '0x1',
  gasLimit: '0x1c9c380',
  source: 'def f(): return(1)',
  filter: { fromBlock: '0x0', toBlock: 'latest' },
  filterId: '0x1',
  state: { alloc: {} },
  stateOverrides: { [SECOND_ACCOUNT]: { balance: '0x1', code: '0x60006000f3', stateDiff: { [ZERO_HASH]: ZERO_HASH } } },
  blockOverrides: { number: '0x10', time: '0x100' },
};

const overrideAddresses = fc.constantFrom(
  SECOND_ACCOUNT,
  FIRST_ACCOUNT,
  '0x0000000000000000000000000000000000000001',
  '0x0000000000000000000000000000000000000002',
  '0x00000000000000000000000000000000000000c1',
);
const words = fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }).map((v) => `0x${v.toString(16).padStart(64, '0')}`);
const quantities = (bits: bigint) => fc.bigInt({ min: 0n, max: (1n << bits) - 1n }).map((v) => `0x${v.toString(16)}`);

/** One account's override: mostly well-formed fields, sometimes a hostile value in one of them. */
const accountOverride = (value: fc.Arbitrary<unknown>) =>
  fc.record(
    {
      balance: fc.oneof(quantities(256n), value),
      nonce: fc.oneof(quantities(64n), value),
      code: fc.oneof(fc.constantFrom('0x', '0x60006000f3', '0x4360005260206000f3', '0x60016000556001600055', '0xfe', '0x600060006000f0'), value),
      state: fc.dictionary(words, words, { maxKeys: 3 }),
      stateDiff: fc.dictionary(words, words, { maxKeys: 3 }),
      movePrecompileToAddress: fc.oneof(overrideAddresses, value),
    },
    { requiredKeys: [] },
  );

/** A state override map (eth_call's third parameter) over a few addresses, precompiles among them. */
export function stateOverrides(value: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.dictionary(overrideAddresses, accountOverride(value), { maxKeys: 3 });
}

/** Block overrides (eth_call's fourth parameter): well-formed or hostile field values. */
export function blockOverrides(value: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.record(
    {
      number: fc.oneof(quantities(64n), value),
      time: fc.oneof(quantities(64n), value),
      gasLimit: fc.oneof(quantities(25n), value),
      feeRecipient: overrideAddresses,
      prevRandao: words,
      baseFeePerGas: fc.oneof(quantities(40n), value),
      blobBaseFee: fc.oneof(quantities(40n), value),
    },
    { requiredKeys: [] },
  );
}

const hexDigits = (maxLength: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), maxLength });

const hexStrings = fc.oneof(
  hexDigits(80).map((d) => `0x${d}`), // odd and even lengths, mixed case
  hexDigits(8).map((d) => `0X${d}`),
  hexDigits(8).map((d) => `0x0${d}`), // leading zeros
  hexDigits(8).map((d) => `-0x${d}`),
  fc.bigInt({ min: 0n, max: (1n << 300n) - 1n }).map((v) => `0x${v.toString(16)}`), // up to 300 bits
  fc.constantFrom(`0x${'f'.repeat(64)}`, `0x1${'0'.repeat(64)}`, `0x${'ab'.repeat(20)}`, `0x${'cd'.repeat(32)}`, '0x', '0x0', '0x00', '0xg'),
);

const numbers = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, 2 ** 64, 2 ** 256, 1e308, -1e308, -1, -0, 0.5, Number.MIN_VALUE, 3_000_000_000),
);

const strings = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom('latest', 'LATEST', 'pending', 'earliest', 'safe', 'finalized', 'genesis', '', ' 0x1', '0x1 ', '１２３', '0x１', '\u0000', '💥', '\ud800'),
);

const plausible = fc.constantFrom<unknown>(
  FIRST_ACCOUNT,
  SECOND_ACCOUNT,
  FIRST_ACCOUNT.toLowerCase(),
  `0x${'00'.repeat(20)}`,
  ZERO_HASH,
  'latest',
  '0x0',
  '0x1',
  '0x',
  { blockHash: ZERO_HASH },
  { blockNumber: '0x0' },
  { blockHash: ZERO_HASH, requireCanonical: true },
  { from: FIRST_ACCOUNT, to: SECOND_ACCOUNT },
  { from: FIRST_ACCOUNT, data: '0x6000' },
  { address: FIRST_ACCOUNT, topics: [null, [ZERO_HASH]] },
  [],
  {},
);

const leaf = fc.oneof(
  { weight: 4, arbitrary: plausible },
  { weight: 3, arbitrary: hexStrings },
  { weight: 2, arbitrary: numbers },
  { weight: 2, arbitrary: strings },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false) },
);

const FIELD_NAMES = [
  'from',
  'to',
  'data',
  'input',
  'value',
  'gas',
  'gasPrice',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'nonce',
  'type',
  'accessList',
  'authorizationList',
  'blobVersionedHashes',
  'blockHash',
  'blockNumber',
  'requireCanonical',
  'fromBlock',
  'toBlock',
  'address',
  'topics',
  'chainId',
  'alloc',
  'timestamp',
  'blocks',
  'types',
  'primaryType',
  'domain',
  'message',
  'forking',
  'constructor',
  'toString',
];

const objects = fc.dictionary(fc.constantFrom(...FIELD_NAMES), fc.oneof(leaf, fc.array(leaf, { maxLength: 3 })), { maxKeys: 5 });

/** Arrays nested up to a few thousand levels deep. */
const deepArrays = fc.integer({ min: 1, max: 3000 }).map((depth) => {
  let value: unknown = '0x1';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
});

/** One JSON parameter value. */
export const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 10, arbitrary: leaf },
  { weight: 3, arbitrary: objects },
  { weight: 2, arbitrary: fc.array(fc.oneof(leaf, fc.array(leaf, { maxLength: 3 })), { maxLength: 4 }) },
  { weight: 1, arbitrary: deepArrays },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** What only an in-process caller can pass: values JSON cannot carry. */
export const jsValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: jsonValue },
  { weight: 1, arbitrary: fc.bigInt() },
  { weight: 1, arbitrary: fc.constantFrom(undefined, Number.NaN, Number.POSITIVE_INFINITY, new Uint8Array(4), new Date(0)) },
);

/** A method name: mostly real ones, sometimes names that must stay unknown. */
export function methodName(table: MethodTable): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 30, arbitrary: fc.constantFrom(...table.keys()) },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'eth_', '', 'ETH_CHAINID', 'eth_chainId ') },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  );
}

/**
 * Params for `method`: random arrays of any length (wrong arities), a non-array, nothing, the
 * method's well-formed params, or those with one position (or one field of an object
 * parameter) replaced and the list cut or stretched.
 */
export function paramsFor(method: RpcMethod | undefined, value: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const good = (method?.params ?? []).map((p) => GOOD_VALUES[p.name] ?? null);
  const mutated = fc
    .record({ position: fc.nat({ max: Math.max(0, good.length - 1) }), bad: value, length: fc.nat({ max: good.length + 2 }) })
    .map(({ position, bad, length }) => {
      const params: unknown[] = [...good];
      params[position] = bad;
      params.length = Math.min(Math.max(length, position + 1), good.length + 2);
      return params.map((p) => (p === undefined ? null : p));
    });
  const fieldMutated = fc
    .record({ position: fc.nat({ max: Math.max(0, good.length - 1) }), field: fc.constantFrom(...FIELD_NAMES), bad: value })
    .map(({ position, field, bad }) => {
      const params: unknown[] = [...good];
      const target = params[position];
      if (typeof target === 'object' && target !== null && !Array.isArray(target)) params[position] = { ...target, [field]: bad };
      return params;
    });
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(good) },
    { weight: 5, arbitrary: mutated },
    { weight: 2, arbitrary: fieldMutated },
    { weight: 4, arbitrary: fc.array(value, { maxLength: 6 }) },
    { weight: 1, arbitrary: value },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** A call: a method name and params shaped for it. */
export function call(table: MethodTable, value: fc.Arbitrary<unknown>): fc.Arbitrary<{ method: string; params: unknown }> {
  return methodName(table).chain((method) => paramsFor(table.get(method), value).map((params) => ({ method, params })));
}

const ids = fc.oneof(fc.integer(), fc.string({ maxLength: 12 }), fc.constant(null), fc.double(), fc.constantFrom(true, {}, [], 1e300));

/** A JSON-RPC request object, sometimes malformed (bad jsonrpc, missing method, odd ids, notifications). */
export function envelope(table: MethodTable): fc.Arbitrary<unknown> {
  return fc
    .record({
      call: call(table, jsonValue),
      id: ids,
      hasId: fc.boolean(),
      jsonrpc: fc.oneof({ weight: 9, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: fc.constantFrom('1.0', 2, null, undefined) }),
      withParams: fc.boolean(),
      methodOk: fc.oneof({ weight: 19, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    })
    .map(({ call: { method, params }, id, hasId, jsonrpc, withParams, methodOk }) => {
      const request: Record<string, unknown> = {};
      if (jsonrpc !== undefined) request.jsonrpc = jsonrpc;
      request.method = methodOk ? method : 42;
      if (withParams || params !== undefined) request.params = params;
      if (hasId) request.id = id;
      return request;
    });
}

/** A whole body: one request, a batch, or a JSON value that is no request at all. */
export function body(table: MethodTable): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 8, arbitrary: envelope(table) },
    {
      weight: 2,
      arbitrary: fc.array(fc.oneof({ weight: 5, arbitrary: envelope(table) }, { weight: 1, arbitrary: jsonValue }), { minLength: 0, maxLength: 5 }),
    },
    { weight: 1, arbitrary: jsonValue },
  );
}
