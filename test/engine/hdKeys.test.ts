import { expect } from 'chai';
import fc from 'fast-check';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { deriveAccounts } from '../../src/engine/accounts/accounts.js';
import { derivePath, mnemonicToSeed, parsePath } from '../../src/engine/accounts/hdKeys.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('HD keys (BIP-39 seed, BIP-32 derivation)', () => {
  it('derives the accounts every dev node derives from the test mnemonic', () => {
    const accounts = deriveAccounts('test test test test test test test test test test test junk', 3);
    expect(accounts.map((a) => a.address.toString())).to.deep.equal([
      '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
    ]);
    expect(hex(accounts[0]!.privateKey)).to.equal('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
  });

  it('computes the same seed as @scure/bip39', () => {
    for (const mnemonic of [
      'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
      'test test test test test test test test test test test junk',
    ]) {
      expect(hex(mnemonicToSeed(mnemonic))).to.equal(hex(mnemonicToSeedSync(mnemonic)));
      expect(hex(mnemonicToSeed(mnemonic, 'TREZOR'))).to.equal(hex(mnemonicToSeedSync(mnemonic, 'TREZOR')));
    }
  });

  it('derives the same keys and chain codes as @scure/bip32 for any seed and path', () => {
    const index = fc.tuple(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.boolean()).map(([i, hardened]) => `${i}${hardened ? "'" : ''}`);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 64 }), fc.array(index, { maxLength: 6 }), (seed, indexes) => {
        const path = ['m', ...indexes].join('/');
        const ours = derivePath(seed, path);
        const theirs = HDKey.fromMasterSeed(seed).derive(path);
        expect(hex(ours.privateKey)).to.equal(hex(theirs.privateKey!));
        expect(hex(ours.chainCode)).to.equal(hex(theirs.chainCode!));
      }),
      { numRuns: 200 },
    );
  });

  it('refuses malformed paths with the offending part named', () => {
    expect(() => parsePath("44'/60'")).to.throw(/must start with m/);
    expect(() => parsePath("m/44'/x")).to.throw(/"x" is not an index/);
    expect(() => parsePath('m/2147483648')).to.throw(/not an index below 2\^31/);
    expect(parsePath("m/44'/60h/0")).to.deep.equal([44 + 2 ** 31, 60 + 2 ** 31, 0]);
  });
});
