import { bytesToHex } from '@ethereumjs/util';
import { expect } from 'chai';
import { RpcError } from '../../src/rpc/errors.js';
import { logFilter } from '../../src/rpc/logFilter.js';

const PATH = '0 (filter)';
const T1 = `0x${'ab'.repeat(32)}`;
const T2 = `0x${'cd'.repeat(32)}`;
const ADDR = '0x5fbdb2315678afecb367f032d93f642f64180aa3';

const decode = (value: unknown) => logFilter(value, PATH);
const hexTopics = (value: unknown) => decode(value).criteria.topics.map((p) => p.map((t) => bytesToHex(t)));

function invalid(value: unknown): string {
  try {
    decode(value);
  } catch (error) {
    expect(error).to.be.instanceOf(RpcError);
    expect((error as RpcError).code).to.equal(-32602);
    return (error as RpcError).message;
  }
  return expect.fail('decoded, expected -32602');
}

describe('log filter options (SPEC 2.6)', () => {
  it('defaults: latest to latest, any address, any topics; null fields count as absent', () => {
    const expected = { criteria: { addresses: [], topics: [] }, scope: { from: { tag: 'latest' }, to: { tag: 'latest' } } };
    expect(decode({})).to.deep.equal(expected);
    expect(decode({ address: null, topics: null, fromBlock: null, toBlock: null, blockHash: null })).to.deep.equal(expected);
  });

  it('block bounds: QUANTITY (any hex case) or tag', () => {
    expect(decode({ fromBlock: '0xA', toBlock: 'earliest' }).scope).to.deep.equal({ from: { number: 10n }, to: { tag: 'earliest' } });
    expect(decode({ fromBlock: 'pending', toBlock: '0x0' }).scope).to.deep.equal({ from: { tag: 'pending' }, to: { number: 0n } });
    expect(invalid({ fromBlock: '0x01' }))
      .to.contain(`${PATH}.fromBlock`)
      .and.contain('leading zero');
    expect(invalid({ toBlock: 'newest' })).to.contain(`${PATH}.toBlock`);
    // JSON numbers are block numbers, as Hardhat and Anvil read them (issue 27); negative ones are not.
    expect(decode({ fromBlock: 0, toBlock: 5 }).scope).to.deep.equal({ from: { number: 0n }, to: { number: 5n } });
    expect(invalid({ toBlock: -5 })).to.contain(`${PATH}.toBlock`);
    expect(invalid({ toBlock: true })).to.contain(`${PATH}.toBlock`);
  });

  it('address: one or a list, case-insensitive', () => {
    const one = decode({ address: ADDR.toUpperCase().replace('0X', '0x') }).criteria.addresses;
    expect(one.map(String)).to.deep.equal([ADDR]);
    const many = decode({ address: [ADDR, `0x${'11'.repeat(20)}`] }).criteria.addresses;
    expect(many.map(String)).to.deep.equal([ADDR, `0x${'11'.repeat(20)}`]);
    expect(decode({ address: [] }).criteria.addresses).to.deep.equal([]);
    expect(invalid({ address: [ADDR, '0x1234'] })).to.contain(`${PATH}.address[1]`);
    expect(invalid({ address: 7 })).to.contain(`${PATH}.address`);
  });

  it('topics: a topic, null, or a list of alternatives per position (any hex case)', () => {
    expect(hexTopics({ topics: [T1.toUpperCase().replace('0X', '0x'), null, [T1, T2], []] })).to.deep.equal([[T1], [], [T1, T2], []]);
    // A null among alternatives makes the position a wildcard, as in go-ethereum.
    expect(hexTopics({ topics: [[T1, null]] })).to.deep.equal([[]]);
    expect(hexTopics({ topics: [] })).to.deep.equal([]);
  });

  it('more than 4 topic positions is an invalid-params error naming the field', () => {
    expect(decode({ topics: [null, null, null, T1] }).criteria.topics).to.have.length(4);
    const message = invalid({ topics: [null, null, null, null, T1] });
    expect(message).to.contain(`${PATH}.topics`).and.contain('exceed max topics');
  });

  it('topics must be 32 bytes each; errors name the position', () => {
    expect(invalid({ topics: [T1, '0x1234'] }))
      .to.contain(`${PATH}.topics[1]`)
      .and.contain('want 64');
    expect(invalid({ topics: [[T1, `0x${'ab'.repeat(33)}`]] })).to.contain(`${PATH}.topics[0][1]`);
    expect(invalid({ topics: T1 })).to.contain(`${PATH}.topics`);
    expect(invalid({ topics: [5] })).to.contain(`${PATH}.topics[0]`);
  });

  it('blockHash is exclusive with fromBlock/toBlock', () => {
    expect(decode({ blockHash: T1.toUpperCase().replace('0X', '0x') }).scope).to.deep.equal({ blockHash: T1 });
    expect(invalid({ blockHash: T1, fromBlock: '0x1' })).to.contain('cannot specify both BlockHash and FromBlock/ToBlock');
    expect(invalid({ blockHash: T1, toBlock: 'latest' })).to.contain('cannot specify both');
    expect(invalid({ blockHash: '0x12' })).to.contain(`${PATH}.blockHash`);
  });

  it('rejects what is not a filter object, and unknown fields by name', () => {
    expect(invalid('latest')).to.contain('expected a filter object');
    expect(invalid([{}])).to.contain('expected a filter object');
    expect(invalid({ fromblock: '0x1' })).to.contain('unknown field "fromblock"');
  });
});
