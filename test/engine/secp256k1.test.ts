import { expect } from 'chai';
import fc from 'fast-check';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { type Curve, nativeCurve, secp256k1Ecsign, wasmCurve } from '../../src/engine/accounts/secp256k1.js';

const hex = (bytes: Uint8Array | null): string | null => (bytes === null ? null : Buffer.from(bytes).toString('hex'));
const N = secp256k1.Point.CURVE().n;
const be32 = (n: bigint): Uint8Array => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));

describe('secp256k1 signing and public-key recovery (native addon and WebAssembly)', () => {
  it('loads the native addon where the secp256k1 package ships a binary (here: Linux x64)', function () {
    if (process.platform !== 'linux' || process.arch !== 'x64') this.skip();
    expect(nativeCurve()).to.be.an('object');
  });

  const backends: [string, Curve | undefined][] = [
    ['native', nativeCurve()],
    ['wasm', wasmCurve()],
  ];
  for (const [name, backend] of backends) {
    it(`${name}: recovers the signer of any message, with high-s signatures too`, function () {
      if (!backend) this.skip();
      const recover = backend.recover;
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), (key, msgHash) => {
          fc.pre(secp256k1.utils.isValidSecretKey(key));
          const signed = secp256k1.sign(msgHash, key, { prehash: false, format: 'recovered' });
          const [recovery, r, s] = [signed[0]! as 0 | 1, signed.subarray(1, 33), signed.subarray(33)];
          const publicKey = hex(secp256k1.getPublicKey(key, false));
          expect(hex(recover!(msgHash, signed.subarray(1), recovery))).to.equal(publicKey);
          // (r, n - s) with the other recovery id is the same signature, malleated
          const highS = new Uint8Array([...r, ...be32(N - BigInt(`0x${hex(s)}`))]);
          expect(hex(recover!(msgHash, highS, (recovery ^ 1) as 0 | 1))).to.equal(publicKey);
        }),
        { numRuns: 100 },
      );
    });
  }

  it('both answer the same for any 64 bytes, including zero and out-of-range r and s', function () {
    const native = nativeCurve()?.recover;
    if (!native) this.skip();
    const edge = fc.constantFrom(0n, 1n, N - 1n, N, N + 1n, 2n ** 256n - 1n).map(be32);
    const half = fc.oneof(fc.uint8Array({ minLength: 32, maxLength: 32 }), edge);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), half, half, fc.constantFrom<0 | 1>(0, 1), (msgHash, r, s, recovery) => {
        const signature = new Uint8Array([...r, ...s]);
        expect(hex(native!(msgHash, signature, recovery))).to.equal(hex(wasmCurve().recover(msgHash, signature, recovery)));
      }),
      { numRuns: 500 },
    );
  });

  for (const [name, backend] of backends) {
    it(`${name}: signs exactly as noble does without extra entropy (RFC 6979, low s, same recovery id)`, function () {
      if (!backend) this.skip();
      const sign = backend.sign;
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), (key, msgHash) => {
          fc.pre(secp256k1.utils.isValidSecretKey(key));
          expect(hex(sign!(msgHash, key))).to.equal(hex(secp256k1.sign(msgHash, key, { prehash: false, format: 'recovered' })));
        }),
        { numRuns: 200 },
      );
    });
  }

  it('customCrypto.ecsign leaves requests with extra entropy to noble (randomised: two signatures differ)', () => {
    const key = secp256k1.utils.randomSecretKey();
    const msgHash = new Uint8Array(32).fill(7);
    const sign = () => hex(secp256k1Ecsign(msgHash, key, { prehash: false, format: 'recovered', extraEntropy: true }));
    expect(sign()).to.not.equal(sign());
    const verified = secp256k1.verify(secp256k1Ecsign(msgHash, key, { prehash: false }), msgHash, secp256k1.getPublicKey(key), { prehash: false });
    expect(verified).to.equal(true);
  });

  for (const [name, backend] of backends) {
    it(`${name}: public keys, key checks and key addition (BIP-32) as noble and arithmetic mod n give them`, function () {
      if (!backend) this.skip();
      const toBig = (bytes: Uint8Array): bigint => BigInt(`0x${hex(bytes) || '0'}`);
      const edge = fc.constantFrom(0n, 1n, N - 1n, N, N + 1n, 2n ** 256n - 1n).map(be32);
      const scalar = fc.oneof(fc.uint8Array({ minLength: 32, maxLength: 32 }), edge);
      fc.assert(
        fc.property(scalar, scalar, (key, tweak) => {
          const valid = secp256k1.utils.isValidSecretKey(key);
          expect(backend.isPrivateKey(key)).to.equal(valid);
          if (!valid) return;
          for (const compressed of [true, false]) expect(hex(backend.publicKey(key, compressed))).to.equal(hex(secp256k1.getPublicKey(key, compressed)));
          const sum = (toBig(key) + toBig(tweak)) % N;
          const expected = toBig(tweak) >= N || sum === 0n ? null : hex(be32(sum));
          const before = hex(key);
          const added = backend.addPrivateKeys(key, tweak);
          expect(added === null ? null : hex(added)).to.equal(expected);
          expect(hex(key)).to.equal(before); // the key is not changed in place
        }),
        { numRuns: 300 },
      );
    });
  }
});
