import { expect } from 'chai';
import { createBlockHeaderFromRLP } from '@ethereumjs/block';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { sealHashOf } from '../../../src/engine/pow/ethash.js';
import { fromHex, hex } from './helpers.js';
import { mainnetBlock1, mainnetLondonBlock, powTests } from './vectors.js';

const decodeHeader = (headerHex: string): Uint8Array[] => RLP.decode(fromHex(headerHex)) as Uint8Array[];

describe('pow/sealHash', () => {
  it('matches the ethereum/tests header_hash of pre-London headers', () => {
    for (const v of powTests) {
      expect(hex(sealHashOf(decodeHeader(v.header))), v.name).to.equal(v.headerHash);
    }
  });

  it('covers every London header field except mixHash and nonce, including baseFee', () => {
    const raw = decodeHeader(mainnetLondonBlock.header);
    expect(hex(keccak_256(RLP.encode(raw)))).to.equal(mainnetLondonBlock.hash);
    expect(raw).to.have.length(16);
    expect(hex(raw[13]!)).to.equal(mainnetLondonBlock.mixHash);
    expect(hex(raw[14]!)).to.equal(mainnetLondonBlock.nonce);

    const expected = keccak_256(RLP.encode([...raw.slice(0, 13), raw[15]]));
    expect(hex(sealHashOf(raw))).to.equal(hex(expected));
    // The @ethereumjs/ethash 10 shortcut (drop the last two fields) hashes nonce and drops baseFee instead.
    expect(hex(sealHashOf(raw))).to.not.equal(hex(keccak_256(RLP.encode(raw.slice(0, -2)))));

    const withOtherSeal = raw.map((f, i) => (i === 13 || i === 14 ? new Uint8Array(f.length).fill(0xaa) : f));
    expect(hex(sealHashOf(withOtherSeal))).to.equal(hex(expected));
    const withOtherBaseFee = [...raw.slice(0, 15), Uint8Array.of(7)];
    expect(hex(sealHashOf(withOtherBaseFee))).to.not.equal(hex(expected));
  });

  it('keeps every field after the seal in later forks (e.g. withdrawalsRoot)', () => {
    const raw = decodeHeader(mainnetLondonBlock.header);
    const withdrawalsRoot = new Uint8Array(32).fill(0x56);
    const shanghaiLike = [...raw, withdrawalsRoot];
    expect(hex(sealHashOf(shanghaiLike))).to.equal(hex(keccak_256(RLP.encode([...raw.slice(0, 13), raw[15], withdrawalsRoot]))));
  });

  it("accepts @ethereumjs/block's header.raw()", () => {
    const common = new Common({ chain: Mainnet, hardfork: Hardfork.London });
    const header = createBlockHeaderFromRLP(fromHex(mainnetLondonBlock.header), { common });
    expect(hex(header.hash())).to.equal(mainnetLondonBlock.hash);
    expect(hex(sealHashOf(header.raw()))).to.equal(hex(sealHashOf(decodeHeader(mainnetLondonBlock.header))));
  });

  it('checks the mainnet block-1 vector against its block hash', () => {
    expect(hex(keccak_256(fromHex(mainnetBlock1.header)))).to.equal(mainnetBlock1.hash);
  });

  it('rejects lists too short to be a header', () => {
    expect(() => sealHashOf(new Array<Uint8Array>(14).fill(new Uint8Array()))).to.throw(RangeError);
  });
});
