/**
 * The log filter object of newFilter and getLogs (SPEC 2.6), decoded strictly:
 * fromBlock/toBlock (number or tag, default latest) or blockHash, address (one
 * or a list), topics (up to 4 positions; each null, a topic, or a list of
 * alternatives). Limits and wording follow go-ethereum; errors name the field.
 */
import type { Address } from '@ethereumjs/util';
import { type LogQuery, type RangeBound, clip } from '../engine/index.js';
import { type Decoder, address, blockNumberOrTag, fixedData, hash } from './codec.js';
import { invalidParams } from './errors.js';

/** go-ethereum: LOG0..LOG4 give at most 4 topics. */
export const MAX_TOPICS = 4;
/** go-ethereum's limit on addresses and on alternatives per topic position. */
export const MAX_ALTERNATIVES = 1000;

const FIELDS = new Set(['fromBlock', 'toBlock', 'blockHash', 'address', 'topics']);
const LATEST: RangeBound = { tag: 'latest' };

function fail(path: string, rule: string): never {
  throw invalidParams(`invalid argument ${path}: ${rule}`);
}

const absent = (value: unknown) => value === undefined || value === null;

const rangeBound: Decoder<RangeBound> = (value, path) => {
  const ref = blockNumberOrTag(value, path);
  if ('hash' in ref) fail(path, 'expected a block number or tag');
  return ref;
};

const addresses: Decoder<Address[]> = (value, path) => {
  if (!Array.isArray(value)) return [address(value, path)];
  if (value.length > MAX_ALTERNATIVES) fail(path, `exceed max addresses (${value.length}, at most ${MAX_ALTERNATIVES})`);
  return value.map((item, i) => address(item, `${path}[${i}]`));
};

const topic = fixedData(32);

/** One topic position: null or [] matches anything, a list any of its entries (a null entry makes it match anything, as in go-ethereum). */
const topicPosition: Decoder<Uint8Array[]> = (value, path) => {
  if (absent(value)) return [];
  if (!Array.isArray(value)) return [topic(value, path)];
  if (value.length > MAX_ALTERNATIVES) fail(path, `exceed max topics (${value.length} alternatives, at most ${MAX_ALTERNATIVES})`);
  const options = value.map((item, i) => (absent(item) ? undefined : topic(item, `${path}[${i}]`)));
  return options.includes(undefined) ? [] : (options as Uint8Array[]);
};

const topics: Decoder<Uint8Array[][]> = (value, path) => {
  if (!Array.isArray(value)) fail(path, 'expected an array of topics');
  if (value.length > MAX_TOPICS) fail(path, `exceed max topics (${value.length} positions, at most ${MAX_TOPICS})`);
  return value.map((item, i) => topicPosition(item, `${path}[${i}]`));
};

export const logFilter: Decoder<LogQuery> = (value, path) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'expected a filter object');
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!FIELDS.has(key)) fail(path, `unknown field "${clip(key)}" in filter object`);
  }
  const at = (key: string) => `${path}.${key}`;
  const criteria = {
    addresses: absent(fields.address) ? [] : addresses(fields.address, at('address')),
    topics: absent(fields.topics) ? [] : topics(fields.topics, at('topics')),
  };
  if (!absent(fields.blockHash)) {
    if (!absent(fields.fromBlock) || !absent(fields.toBlock)) {
      fail(path, 'cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other');
    }
    return { criteria, scope: { blockHash: hash(fields.blockHash, at('blockHash')) } };
  }
  const from = absent(fields.fromBlock) ? LATEST : rangeBound(fields.fromBlock, at('fromBlock'));
  const to = absent(fields.toBlock) ? LATEST : rangeBound(fields.toBlock, at('toBlock'));
  return { criteria, scope: { from, to } };
};
