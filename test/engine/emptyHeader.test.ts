/**
 * EmptyHeaderWriter (src/engine/blocks/emptyHeader.ts) writes a header's RLP in place:
 * byte for byte what @ethereumjs/rlp encodes for the same fields, at every size boundary of
 * the numbers it writes (numbers and timestamps take a number path, larger values bigint's).
 */
import { createBlock } from '@ethereumjs/block';
import { Common, Mainnet } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { expect } from 'chai';
import { EmptyHeaderWriter } from '../../src/engine/blocks/emptyHeader.js';

describe('engine/emptyHeader', () => {
  it('encodes as RLP.encode does, for numbers at every byte-length boundary', () => {
    const common = new Common({ chain: Mainnet, hardfork: 'prague' });
    const template = createBlock({ header: { number: 1n, timestamp: 1n, baseFeePerGas: 7n, gasLimit: 30_000_000n } }, { common }).header.raw();
    const writer = new EmptyHeaderWriter(template);
    const parents = new Uint8Array(64).map((_, i) => i);
    const mixes = new Uint8Array(64).map((_, i) => 255 - i);
    const values = [0n, 1n, 0x7fn, 0x80n, 0xffn, 0x100n, 0xffffn, 0x10000n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 56n, 2n ** 64n - 1n];
    for (const number of values) {
      for (const baseFee of [0n, 7n, 2n ** 53n + 1n, 2n ** 255n]) {
        const timestamp = values[(values.indexOf(number) + 3) % values.length]!;
        const length = writer.encode(parents, 32, number, timestamp, mixes, 32, baseFee);
        const expected = RLP.encode(writer.raw({ parentHash: parents.subarray(32), number, timestamp, mixHash: mixes.subarray(32), baseFee }));
        expect(Buffer.from(writer.bytes.subarray(0, length)).toString('hex'), `${number} ${timestamp} ${baseFee}`).to.equal(
          Buffer.from(expected).toString('hex'),
        );
      }
    }
  });
});
