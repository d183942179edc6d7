/**
 * Decoders for go-ethereum's StateOverride (eth_call's third parameter, eth_simulateV1's
 * stateOverrides) and BlockOverrides (eth_call's fourth, eth_simulateV1's blockOverrides),
 * into the engine's types (src/engine/state/overrides.ts). Values are read as go-ethereum's JSON
 * decoder reads them; unknown fields are refused rather than silently ignored.
 */
import type { Address } from '@ethereumjs/util';
import type { AccountOverride, BlockOverrides, CallOverrides, StateOverride } from '../engine/index.js';
import { type Decoder, address, arrayOf, data, fail, fixedData, optional, record, uint256, uint64 } from './codec.js';

const ACCOUNT_FIELDS = new Set(['balance', 'nonce', 'code', 'state', 'stateDiff', 'movePrecompileToAddress']);

/** A map of 32-byte slot to 32-byte value (go-ethereum's map[common.Hash]common.Hash). */
const storageMap: Decoder<ReadonlyArray<readonly [Uint8Array, Uint8Array]>> = (value, path) => {
  const fields = record(value, path);
  return Object.entries(fields).map(
    ([slot, word]) => [fixedData(32)(slot, `${path} key ${JSON.stringify(slot.slice(0, 70))}`), fixedData(32)(word, `${path}.${slot}`)] as const,
  );
};

const accountOverride: Decoder<AccountOverride> = (value, path) => {
  const fields = record(value, path);
  for (const key of Object.keys(fields)) {
    if (!ACCOUNT_FIELDS.has(key)) fail(path, `unknown field "${key}" in account override (want ${[...ACCOUNT_FIELDS].join(', ')})`);
  }
  const at = (key: string) => `${path}.${key}`;
  return {
    balance: optional(uint256)(fields.balance, at('balance')),
    nonce: optional(uint64)(fields.nonce, at('nonce')),
    code: optional(data)(fields.code, at('code')),
    state: optional(storageMap)(fields.state, at('state')),
    stateDiff: optional(storageMap)(fields.stateDiff, at('stateDiff')),
    movePrecompileTo: optional(address)(fields.movePrecompileToAddress, at('movePrecompileToAddress')),
  };
};

/** { address: { balance?, nonce?, code?, state?, stateDiff?, movePrecompileToAddress? }, ... } */
export const stateOverrides: Decoder<StateOverride[]> = (value, path) => {
  const fields = record(value, path);
  const seen = new Set<string>();
  return Object.entries(fields).map(([key, account]) => {
    const target: Address = address(key, `${path} key ${JSON.stringify(key.slice(0, 50))}`);
    const id = target.toString();
    // Two spellings of one address (case) would be one map key in go-ethereum: the last wins there; refuse instead.
    if (seen.has(id)) fail(path, `address ${id} is overridden twice`);
    seen.add(id);
    return { address: target, account: accountOverride(account ?? {}, `${path}.${key}`) };
  });
};

const BLOCK_FIELDS = new Set([
  'number',
  'difficulty',
  'time',
  'gasLimit',
  'feeRecipient',
  'prevRandao',
  'baseFeePerGas',
  'blobBaseFee',
  'beaconRoot',
  'withdrawals',
]);

export const withdrawal: Decoder<{ index: bigint; validatorIndex: bigint; address: Address; amount: bigint }> = (value, path) => {
  const fields = record(value, path);
  for (const key of Object.keys(fields)) {
    if (!['index', 'validatorIndex', 'address', 'amount'].includes(key)) fail(path, `unknown field "${key}" in withdrawal`);
  }
  const need = <T>(key: string, decode: Decoder<T>): T => {
    if (fields[key] === undefined || fields[key] === null) fail(path, `missing required field '${key}' for Withdrawal`);
    return decode(fields[key], `${path}.${key}`);
  };
  return { index: need('index', uint64), validatorIndex: need('validatorIndex', uint64), address: need('address', address), amount: need('amount', uint64) };
};

/** { number?, difficulty?, time?, gasLimit?, feeRecipient?, prevRandao?, baseFeePerGas?, blobBaseFee?, beaconRoot?, withdrawals? } */
export const blockOverrides: Decoder<BlockOverrides> = (value, path) => {
  const fields = record(value, path);
  for (const key of Object.keys(fields)) {
    if (!BLOCK_FIELDS.has(key)) fail(path, `unknown field "${key}" in block overrides (want ${[...BLOCK_FIELDS].join(', ')})`);
  }
  const at = (key: string) => `${path}.${key}`;
  return {
    number: optional(uint256)(fields.number, at('number')),
    difficulty: optional(uint256)(fields.difficulty, at('difficulty')),
    time: optional(uint64)(fields.time, at('time')),
    gasLimit: optional(uint64)(fields.gasLimit, at('gasLimit')),
    feeRecipient: optional(address)(fields.feeRecipient, at('feeRecipient')),
    prevRandao: optional(fixedData(32))(fields.prevRandao, at('prevRandao')),
    baseFeePerGas: optional(uint256)(fields.baseFeePerGas, at('baseFeePerGas')),
    blobBaseFee: optional(uint256)(fields.blobBaseFee, at('blobBaseFee')),
    beaconRoot: optional(fixedData(32))(fields.beaconRoot, at('beaconRoot')),
    withdrawals: optional(arrayOf(withdrawal))(fields.withdrawals, at('withdrawals')),
  };
};

/** go-ethereum's state and block overrides (eth_call's third and fourth parameters), as one engine value. */
export function callOverrides(state: StateOverride[] | undefined, block?: BlockOverrides): CallOverrides | undefined {
  return state === undefined && block === undefined ? undefined : { state, block };
}
