import { createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { Bloom } from '@ethereumjs/vm';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { expect } from 'chai';
import type { LogRecord, MinedBlock, ReceiptRecord } from '../../src/engine/blocks/blocks.js';
import { BLOOM_BYTES, bloomAdd, bloomMayContain, bloomProbe } from '../../src/engine/blocks/bloom.js';
import { type LogCriteria, LogMatcher } from '../../src/engine/logs/logQuery.js';

const topic = (label: string) => keccak_256(new TextEncoder().encode(label));
const A = topic('A');
const B = topic('B');
const C = topic('C');
const X = createAddressFromString('0x00000000000000000000000000000000000000aa');
const Y = createAddressFromString('0x00000000000000000000000000000000000000bb');
const Z = createAddressFromString('0x00000000000000000000000000000000000000cc');

const log = (address = X, topics: Uint8Array[] = [A, B], logIndex = 0): LogRecord => ({ address, topics, data: new Uint8Array(), logIndex });
const matches = (criteria: Partial<LogCriteria>, record: LogRecord = log()) => new LogMatcher({ addresses: [], topics: [], ...criteria }).matches(record);

/** A block with just what log matching reads: the header bloom and the receipts. */
const TX_HASH = new Uint8Array(32).fill(0x77);

function fakeBlock(logs: LogRecord[], bloom = bloomOf(logs)): MinedBlock {
  const receipt = { logs } as Partial<ReceiptRecord> as ReceiptRecord;
  return {
    number: 7n,
    hashHex: `0x${'ab'.repeat(32)}`,
    block: { header: { logsBloom: bloom, timestamp: 9n }, transactions: [{ hash: () => TX_HASH }] },
    senders: [X],
    receipts: [receipt],
  } as unknown as MinedBlock;
}

function bloomOf(logs: LogRecord[]): Uint8Array {
  const bloom = new Uint8Array(BLOOM_BYTES);
  for (const l of logs) {
    bloomAdd(bloom, l.address.bytes);
    for (const t of l.topics) bloomAdd(bloom, t);
  }
  return bloom;
}

describe('log topic matching (SPEC 2.6, log with topics [A, B])', () => {
  it('[] matches anything', () => {
    expect(matches({ topics: [] })).to.equal(true);
    expect(matches({ topics: [] }, log(X, []))).to.equal(true);
  });

  it('[A] matches A in first position, anything after', () => {
    expect(matches({ topics: [[A]] })).to.equal(true);
    expect(matches({ topics: [[A]] }, log(X, [A]))).to.equal(true);
    expect(matches({ topics: [[B]] })).to.equal(false);
  });

  it('[null, B] matches anything first and B second, anything after', () => {
    expect(matches({ topics: [[], [B]] })).to.equal(true);
    expect(matches({ topics: [[], [B]] }, log(X, [C, B, A]))).to.equal(true);
    expect(matches({ topics: [[], [A]] })).to.equal(false);
  });

  it('[A, B] matches A first and B second, anything after', () => {
    expect(matches({ topics: [[A], [B]] })).to.equal(true);
    expect(matches({ topics: [[A], [B]] }, log(X, [A, B, C]))).to.equal(true);
    expect(matches({ topics: [[B], [A]] })).to.equal(false);
    expect(matches({ topics: [[A], [C]] })).to.equal(false);
  });

  it('[[A, B], [A, B]] matches (A or B) first and (A or B) second', () => {
    const either = [A, B];
    expect(matches({ topics: [either, either] })).to.equal(true);
    expect(matches({ topics: [either, either] }, log(X, [B, A]))).to.equal(true);
    expect(matches({ topics: [either, either] }, log(X, [B, B]))).to.equal(true);
    expect(matches({ topics: [either, either] }, log(X, [A, C]))).to.equal(false);
    expect(matches({ topics: [either, either] }, log(X, [C, A]))).to.equal(false);
  });

  it('a filter with more positions than the log has topics does not match, even with wildcards (go-ethereum)', () => {
    expect(matches({ topics: [[A], [B], []] })).to.equal(false);
    expect(matches({ topics: [[], [], []] })).to.equal(false);
    expect(matches({ topics: [[A]] }, log(X, []))).to.equal(false);
  });

  it('an empty OR list is a wildcard at its position', () => {
    expect(matches({ topics: [[], []] })).to.equal(true);
    expect(matches({ topics: [[A], []] })).to.equal(true);
  });

  it('addresses: any of a list; an empty list means any address', () => {
    expect(matches({ addresses: [] }, log(Y))).to.equal(true);
    expect(matches({ addresses: [X, Y] }, log(Y))).to.equal(true);
    expect(matches({ addresses: [X] }, log(Y))).to.equal(false);
    expect(matches({ addresses: [Z, X], topics: [[A]] }, log(X))).to.equal(true);
    expect(matches({ addresses: [Z, X], topics: [[C]] }, log(X))).to.equal(false);
  });
});

describe('logs bloom', () => {
  it('sets the same bits as @ethereumjs/vm for addresses and topics', () => {
    for (const item of [X.bytes, Y.bytes, A, B, C, new Uint8Array(32)]) {
      const theirs = new Bloom();
      theirs.add(item);
      const ours = new Uint8Array(BLOOM_BYTES);
      bloomAdd(ours, item);
      expect(ours).to.deep.equal(theirs.bitvector);
      expect(bloomMayContain(theirs.bitvector, bloomProbe(item))).to.equal(true);
    }
  });

  it('has no false negatives and rejects absent items (these ones)', () => {
    const bloom = bloomOf([log(X, [A, B])]);
    for (const item of [X.bytes, A, B]) expect(bloomMayContain(bloom, bloomProbe(item))).to.equal(true);
    for (const item of [Y.bytes, C]) expect(bloomMayContain(bloom, bloomProbe(item))).to.equal(false);
    expect(bloomMayContain(new Uint8Array(BLOOM_BYTES), bloomProbe(A))).to.equal(false);
  });

  it('pre-check: a criteria passes only blooms that may hold every position and one of the addresses', () => {
    const bloom = bloomOf([log(X, [A, B])]);
    const may = (criteria: Partial<LogCriteria>) => new LogMatcher({ addresses: [], topics: [], ...criteria }).mayMatch(bloom);
    expect(may({})).to.equal(true);
    expect(may({ addresses: [Z, X] })).to.equal(true);
    expect(may({ addresses: [Z] })).to.equal(false);
    expect(may({ topics: [[], [B]] })).to.equal(true);
    expect(may({ topics: [[C, A]] })).to.equal(true);
    expect(may({ topics: [[A], [C]] })).to.equal(false);
  });

  it('a block whose bloom rules the criteria out is skipped without reading its receipts', () => {
    const block = fakeBlock([log(X, [A, B])], new Uint8Array(BLOOM_BYTES));
    Object.defineProperty(block, 'receipts', { get: () => expect.fail('receipts read despite the bloom') });
    expect(new LogMatcher({ addresses: [X], topics: [] }).blockLogs(block)).to.deep.equal([]);
  });

  it('a block that may match is scanned, logs in block order with their positions', () => {
    const logs = [log(X, [A, B], 0), log(Y, [A], 1), log(X, [C], 2)];
    const block = fakeBlock(logs);
    const found = new LogMatcher({ addresses: [X], topics: [] }).blockLogs(block, true);
    expect(found.map((f) => f.log.logIndex)).to.deep.equal([0, 2]);
    expect(found.every((f) => f.removed && f.position === found[0]!.position)).to.equal(true);
    expect(found[0]!.position).to.deep.equal({
      blockNumber: 7n,
      blockHashHex: `0x${'ab'.repeat(32)}`,
      blockTimestamp: 9n,
      transactionHash: TX_HASH,
      transactionIndex: 0,
    });
  });

  it('matches mixed-case input: criteria bytes are compared, not their spelling', () => {
    const upper = createAddressFromString('0x00000000000000000000000000000000000000AA');
    const topicUpper = hexToBytes(`0x${Buffer.from(A).toString('hex').toUpperCase()}`);
    expect(matches({ addresses: [upper], topics: [[topicUpper]] })).to.equal(true);
  });
});
