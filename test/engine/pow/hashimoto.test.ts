import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { buildCache } from '../../../src/engine/pow/cache.js';
import { calcDatasetItem } from '../../../src/engine/pow/dataset.js';
import { datasetSize, hashimotoLight, seedHash } from '../../../src/engine/pow/ethash.js';
import { cacheBytes, epoch0Cache, fromHex, hex, sha256Hex } from './helpers.js';
import { refCalcDatasetItem, refHashimotoLight, refItemBytes, refMkcache } from './reference.js';
import { gethSmall, powTests } from './vectors.js';

describe('pow/hashimoto', () => {
  const smallCache = buildCache(gethSmall.cacheBytes, seedHash(0));

  it("derives go-ethereum's 32 KiB dataset from the 1 KiB cache", () => {
    const items = gethSmall.datasetBytes / 64;
    const dataset = new Uint32Array(items * 16);
    for (let i = 0; i < items; i++) calcDatasetItem(smallCache, i, dataset, i * 16);
    const bytes = cacheBytes(dataset);
    for (const [index, item] of gethSmall.dataset.items) {
      expect(hex(bytes.subarray(index * 64, index * 64 + 64)), `item ${index}`).to.equal(item);
    }
    expect(sha256Hex(bytes)).to.equal(gethSmall.dataset.sha256);
  });

  it("matches go-ethereum's light hashimoto vector", () => {
    const v = gethSmall.hashimoto;
    const out = hashimotoLight(smallCache, gethSmall.datasetBytes, fromHex(v.sealHash), fromHex(v.nonce));
    expect(hex(out.mixDigest)).to.equal(v.mixDigest);
    expect(hex(out.result)).to.equal(v.result);
  });

  it('matches the spec reference implementation on random inputs', () => {
    const seed = new Uint8Array(randomBytes(32));
    const refCache = refMkcache(64 * 97, seed);
    const cache = buildCache(64 * 97, seed);
    for (const index of [0, 1, 96, 97, 12345, 2 ** 31 - 1]) {
      const item = new Uint32Array(16);
      calcDatasetItem(cache, index, item, 0);
      expect(hex(cacheBytes(item)), `item ${index}`).to.equal(hex(refItemBytes(refCalcDatasetItem(refCache, index))));
    }
    for (const fullSize of [128 * 11, 128 * 4099]) {
      const sealHash = new Uint8Array(randomBytes(32));
      const nonce = new Uint8Array(randomBytes(8));
      const ours = hashimotoLight(cache, fullSize, sealHash, nonce);
      const ref = refHashimotoLight(fullSize, refCache, sealHash, nonce);
      expect(hex(ours.mixDigest)).to.equal(hex(ref.mixDigest));
      expect(hex(ours.result)).to.equal(hex(ref.result));
    }
  });

  it('rejects malformed arguments', () => {
    const ok = { hash: new Uint8Array(32), nonce: new Uint8Array(8) };
    expect(() => hashimotoLight(smallCache, 1000, ok.hash, ok.nonce)).to.throw(RangeError);
    expect(() => hashimotoLight(smallCache, 1024, new Uint8Array(31), ok.nonce)).to.throw(RangeError);
    expect(() => hashimotoLight(smallCache, 1024, ok.hash, new Uint8Array(7))).to.throw(RangeError);
    expect(() => hashimotoLight(new Uint32Array(0), 1024, ok.hash, ok.nonce)).to.throw(RangeError);
  });

  describe('with the epoch-0 cache', () => {
    let cache: Uint32Array;
    before(async function () {
      this.timeout(20_000);
      cache = (await epoch0Cache()).cache;
    });

    for (const v of powTests) {
      it(`matches ethereum/tests ethash vector "${v.name}"`, () => {
        const out = hashimotoLight(cache, datasetSize(0), fromHex(v.headerHash), fromHex(v.nonce));
        expect(datasetSize(0)).to.equal(v.fullSize);
        expect(hex(out.mixDigest)).to.equal(v.mixHash);
        expect(hex(out.result)).to.equal(v.result);
      });
    }
  });
});
