import { expect } from 'chai';
import { RLP } from '@ethereumjs/rlp';
import { boundaryOf, cacheSize, datasetSize, epochOf, mineSeal, sealHashOf, seedHash, verifySeal } from '../../../src/engine/pow/ethash.js';
import { buildCache } from '../../../src/engine/pow/cache.js';
import { epoch0Cache, fromHex, hex } from './helpers.js';
import { mainnetBlock1, mainnetLondonBlock } from './vectors.js';

describe('pow/seal', () => {
  it('computes the boundary 2^256 / difficulty as 32 big-endian bytes', () => {
    expect(hex(boundaryOf(1n))).to.equal('ff'.repeat(32));
    expect(hex(boundaryOf(2n))).to.equal('80' + '00'.repeat(31));
    expect(hex(boundaryOf(3n))).to.equal('55'.repeat(32));
    expect(hex(boundaryOf(1n << 256n))).to.equal('00'.repeat(31) + '01');
    expect(hex(boundaryOf((1n << 256n) + 1n))).to.equal('00'.repeat(32));
    expect(() => boundaryOf(0n)).to.throw(RangeError);
    expect(() => boundaryOf(-5n)).to.throw(RangeError);
  });

  describe('with the epoch-0 cache', () => {
    let cache: Uint32Array;
    before(async function () {
      this.timeout(20_000);
      cache = (await epoch0Cache()).cache;
    });

    it('verifies mainnet block 1 (nonce and mixHash as mined in 2015)', () => {
      const raw = RLP.decode(fromHex(mainnetBlock1.header)) as Uint8Array[];
      const epoch = epochOf(1n);
      const nonce = fromHex(mainnetBlock1.nonce);
      const mixHash = fromHex(mainnetBlock1.mixHash);
      expect(verifySeal(cache, epoch, sealHashOf(raw), nonce, mixHash, mainnetBlock1.difficulty)).to.equal(true);
      // The same seal falls short of a difficulty ~1000x higher.
      expect(verifySeal(cache, epoch, sealHashOf(raw), nonce, mixHash, mainnetBlock1.difficulty * 1000n)).to.equal(false);
    });

    it('mines a seal for a London-format header that verifies, and rejects tampered ones', () => {
      const london = RLP.decode(fromHex(mainnetLondonBlock.header)) as Uint8Array[];
      const sealHash = sealHashOf(london);
      const difficulty = 20n;
      const seal = mineSeal(cache, 0, sealHash, difficulty, { startNonce: 1000n, maxAttempts: 2000 });
      if (seal === undefined) return expect.fail('no seal found in 2000 attempts at difficulty 20');
      expect(verifySeal(cache, 0, sealHash, seal.nonce, seal.mixDigest, difficulty)).to.equal(true);

      const flippedMix = seal.mixDigest.slice();
      flippedMix[5]! ^= 0x01;
      expect(verifySeal(cache, 0, sealHash, seal.nonce, flippedMix, difficulty)).to.equal(false);
      const otherNonce = seal.nonce.slice();
      otherNonce[7]! ^= 0x01;
      expect(verifySeal(cache, 0, sealHash, otherNonce, seal.mixDigest, difficulty)).to.equal(false);
      const otherHeader = sealHashOf([...london.slice(0, 15), Uint8Array.of(1)]);
      expect(verifySeal(cache, 0, otherHeader, seal.nonce, seal.mixDigest, difficulty)).to.equal(false);
    });

    it('finds nothing when the attempts run out, and starts at the requested nonce', () => {
      const sealHash = new Uint8Array(32).fill(9);
      expect(mineSeal(cache, 0, sealHash, 1n << 200n, { maxAttempts: 3 })).to.equal(undefined);
      const seal = mineSeal(cache, 0, sealHash, 1n, { startNonce: (1n << 64n) + 42n });
      expect(hex(seal?.nonce ?? new Uint8Array())).to.equal('000000000000002a');
    });

    it('treats malformed seals as invalid and a foreign cache as a bug', () => {
      const hash = new Uint8Array(32);
      expect(verifySeal(cache, 0, hash, new Uint8Array(7), new Uint8Array(32), 1n)).to.equal(false);
      expect(verifySeal(cache, 0, hash, new Uint8Array(8), new Uint8Array(31), 1n)).to.equal(false);
      expect(verifySeal(cache, 0, hash, new Uint8Array(8), new Uint8Array(32), 0n)).to.equal(false);
      expect(() => verifySeal(cache, 1, hash, new Uint8Array(8), new Uint8Array(32), 1n)).to.throw(RangeError);
      expect(() => mineSeal(cache, 1, hash, 1n)).to.throw(RangeError);
    });
  });

  // Verifying a real London block needs the epoch-432 cache (73 MB, ~5 s to build here).
  const slow = process.env.CHAIN_SIM_SLOW_TESTS === '1' ? it : it.skip;
  slow('verifies the mainnet London fork block (set CHAIN_SIM_SLOW_TESTS=1)', function () {
    this.timeout(60_000);
    const raw = RLP.decode(fromHex(mainnetLondonBlock.header)) as Uint8Array[];
    const epoch = epochOf(12965000n);
    const cache = buildCache(cacheSize(epoch), seedHash(epoch));
    const nonce = fromHex(mainnetLondonBlock.nonce);
    const mixHash = fromHex(mainnetLondonBlock.mixHash);
    expect(verifySeal(cache, epoch, sealHashOf(raw), nonce, mixHash, mainnetLondonBlock.difficulty)).to.equal(true);
    expect(datasetSize(epoch)).to.be.above(2 ** 32); // exercises page indices beyond 32-bit byte offsets
  });
});
