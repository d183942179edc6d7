import { expect } from 'chai';
import { type BlockHeader, createBlockHeader } from '@ethereumjs/block';
import { bytesToHex } from '@ethereumjs/util';
import { createChainCommon } from '../../../src/engine/rules/hardforks.js';
import { type CanonicalView, UncleCandidates, uncleRewards } from '../../../src/engine/pow/uncles.js';

const common = createChainCommon(1337n, 'grayGlacier');
const opts = { common, skipConsensusFormatValidation: true };

/** A canonical chain of `length` headers (0..length-1) and a way to fork off it. */
function chainOf(length: number): { headers: BlockHeader[]; view: CanonicalView; included: Map<bigint, string[]> } {
  const headers: BlockHeader[] = [createBlockHeader({ number: 0n }, opts)];
  for (let n = 1; n < length; n++)
    headers.push(createBlockHeader({ number: BigInt(n), parentHash: headers[n - 1]!.hash(), extraData: new Uint8Array([0]) }, opts));
  const included = new Map<bigint, string[]>();
  const view: CanonicalView = {
    hashAt: (n) => (n >= 0n && n < BigInt(headers.length) ? bytesToHex(headers[Number(n)]!.hash()) : undefined),
    unclesAt: (n) => included.get(n) ?? [],
  };
  return { headers, view, included };
}

/** A sibling of canonical block `number` (same parent, different contents). */
function sibling(headers: BlockHeader[], number: number, tag = 1): BlockHeader {
  return createBlockHeader({ number: BigInt(number), parentHash: headers[number - 1]!.hash(), extraData: new Uint8Array([tag]) }, opts);
}

describe('pow/uncles', () => {
  it('selects siblings of canonical blocks within six generations, closest first, at most two', () => {
    const { headers, view } = chainOf(10);
    const candidates = new UncleCandidates();
    const far = sibling(headers, 3);
    const near = sibling(headers, 8);
    const mid = sibling(headers, 6);
    for (const h of [far, near, mid]) candidates.add(h);
    // Block 10 may include uncles 4..9: `far` (3) is seven generations back.
    expect(candidates.select(10n, view).map((h) => h.number)).to.deep.equal([8n, 6n]);
    // Block 9 may include 3..8.
    expect(candidates.select(9n, view).map((h) => h.number)).to.deep.equal([8n, 6n]);
    expect(candidates.select(7n, view).map((h) => h.number)).to.deep.equal([6n, 3n]);
  });

  it('skips canonical blocks, orphans of non-canonical parents and uncles already included', () => {
    const { headers, view, included } = chainOf(8);
    const candidates = new UncleCandidates();
    const orphan = createBlockHeader({ number: 5n, parentHash: sibling(headers, 4).hash() }, opts);
    candidates.add(headers[6]!);
    candidates.add(orphan);
    const uncle = sibling(headers, 6);
    candidates.add(uncle);
    expect(candidates.select(8n, view)).to.deep.equal([uncle]);
    included.set(7n, [bytesToHex(uncle.hash())]);
    expect(candidates.select(8n, view)).to.deep.equal([]);
  });

  it('prunes candidates too old for the next block and counts versions', () => {
    const { headers } = chainOf(10);
    const candidates = new UncleCandidates();
    candidates.add(sibling(headers, 2));
    candidates.add(sibling(headers, 2)); // the same header twice is one candidate
    candidates.add(sibling(headers, 5));
    expect(candidates.size).to.equal(2);
    const version = candidates.version;
    candidates.prune(8n);
    expect(candidates.size).to.equal(2);
    expect(candidates.version).to.equal(version);
    candidates.prune(9n);
    expect(candidates.size).to.equal(1);
    expect(candidates.version).to.equal(version + 1);
  });

  it('pays (8 + uncle − block) / 8 of the reward to uncles and 1/32 per uncle to the includer', () => {
    const reward = 2n * 10n ** 18n;
    expect(uncleRewards(reward, 10n, [9n, 4n])).to.deep.equal({
      includer: reward / 16n,
      uncles: [(7n * reward) / 8n, (2n * reward) / 8n],
    });
    expect(uncleRewards(reward, 10n, [])).to.deep.equal({ includer: 0n, uncles: [] });
  });
});
