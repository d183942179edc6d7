import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { EPOCH_LENGTH, cacheSize, datasetSize, epochOf, seedHash } from '../../../src/engine/pow/ethash.js';
import { hex } from './helpers.js';
import { gethSizeTables } from './vectors.js';

describe('pow/params', () => {
  it('maps block numbers to 30000-block epochs', () => {
    expect(EPOCH_LENGTH).to.equal(30000n);
    expect(epochOf(0n)).to.equal(0);
    expect(epochOf(29999n)).to.equal(0);
    expect(epochOf(30000n)).to.equal(1);
    expect(epochOf(12965000n)).to.equal(432);
    expect(() => epochOf(-1n)).to.throw(RangeError);
  });

  it('derives seed hashes by iterated keccak256 of zeros', () => {
    expect(hex(seedHash(0))).to.equal('00'.repeat(32));
    expect(hex(seedHash(1))).to.equal('290decd9548b62a8d60345a988386fc84ba6bc95484008f6362f93160ef3e563');
    expect(hex(seedHash(2))).to.equal('510e4e770828ddbf7f7b00ab00a9f6adaf81c0dc9cc85f1f8249c256942d61d9');
    expect(() => seedHash(-1)).to.throw(RangeError);
    expect(() => seedHash(1.5)).to.throw(RangeError);
  });

  it("reproduces go-ethereum's cache and dataset size tables", () => {
    for (const s of gethSizeTables.samples) {
      expect(cacheSize(s.epoch), `cache ${s.epoch}`).to.equal(s.cacheSize);
      expect(datasetSize(s.epoch), `dataset ${s.epoch}`).to.equal(s.datasetSize);
    }
    const epochs = Array.from({ length: gethSizeTables.epochs }, (_, e) => e);
    const digest = (values: number[]) => createHash('sha256').update(values.join(',')).digest('hex');
    expect(digest(epochs.map(cacheSize))).to.equal(gethSizeTables.cacheSizesSha256);
    expect(digest(epochs.map(datasetSize))).to.equal(gethSizeTables.datasetSizesSha256);
  });
});
