// The reference examples, compiled and run in the real EVM.

import { expect } from 'chai';
import { createAddressFromBigInt } from '@ethereumjs/util';
import { compileSerpent } from '../../src/serpent/index.js';
import { addressBig, ALICE, BOB, CAROL, Chain, Contract, word } from './evm-harness.js';
import { SigningKey } from 'ethers';
import { keccak } from '../../src/serpent/abi.js';
import {
  COLLATZ,
  COLLATZ_LOOP,
  CROWDFUND,
  DATAFEED,
  ECC_ECRECOVER,
  ECC_FILES,
  FIXEDPOINT,
  MERGESORT,
  MUL2,
  NAMECOIN,
  QUICKSORT,
  SHORT_NAMECOIN,
  SUBCURRENCY,
} from './examples.js';

const signedSort = (xs: bigint[]): bigint[] => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe('serpent examples in the EVM', function () {
  this.timeout(20_000);
  let chain: Chain;
  before(async () => {
    chain = await Chain.create();
  });

  it('mul2.se doubles its argument (signed 256-bit)', async () => {
    const c = await Contract.deploy(chain, MUL2);
    expect(await c.int('double', [21n])).to.equal(42n);
    expect(await c.int('double', [-7n])).to.equal(-14n);
    expect(await c.int('double', [2n ** 254n])).to.equal(-(2n ** 255n));
  });

  it('namecoin.se registers a key once: 1, then 0', async () => {
    const c = await Contract.deploy(chain, NAMECOIN);
    const george = BigInt('0x' + Buffer.from('george').toString('hex').padEnd(64, '0'));
    expect(await c.int('register', [george, 45n])).to.equal(1n);
    expect(await c.int('register', [george, 20n])).to.equal(0n);
    expect(await c.int('register', [7n, 60n])).to.equal(1n);
    expect(await chain.storage(c.address, george)).to.equal(45n);
    expect(await chain.storage(c.address, 7n)).to.equal(60n);
  });

  it('short_namecoin.se and datafeed.se store through self.storage', async () => {
    const s = await Contract.deploy(chain, SHORT_NAMECOIN);
    await s.send('register', [5n, 6n]);
    await s.send('register', [5n, 7n]);
    expect(await chain.storage(s.address, 5n)).to.equal(6n);
    const d = await Contract.deploy(chain, DATAFEED, { caller: ALICE });
    await d.send('update', [500n, 19n], { caller: ALICE });
    await d.send('update', [500n, 726n], { caller: BOB });
    expect(await d.int('query', [500n])).to.equal(19n);
    expect(await chain.storage(d.address, 0n)).to.equal(addressBig(ALICE)); // data creator is slot 0
  });

  it('cyberdyne/subcurrency.se issues and moves balances', async () => {
    const c = await Contract.deploy(chain, SUBCURRENCY, { caller: ALICE });
    const [alice, bob, carol] = [ALICE, BOB, CAROL].map(addressBig) as [bigint, bigint, bigint];
    await c.send('issue', [alice, 1000n], { caller: ALICE });
    await c.send('issue', [bob, 1000n], { caller: BOB }); // not the owner: ignored
    expect(await c.int('balance', [alice])).to.equal(1000n);
    expect(await c.int('balance', [bob])).to.equal(0n);
    expect(await c.int('send', [bob, 300n], { caller: ALICE })).to.equal(1n);
    expect(await c.int('send', [carol, 301n], { caller: BOB })).to.equal(0n);
    expect(await c.int('send', [carol, 0n], { caller: BOB })).to.equal(0n);
    expect(await c.int('send', [carol, 100n], { caller: BOB })).to.equal(1n);
    expect(await c.int('balance', [alice])).to.equal(700n);
    expect(await c.int('balance', [bob])).to.equal(200n);
    expect(await c.int('balance', [carol])).to.equal(100n);
    expect(await c.ints('last_tx')).to.deep.equal([bob, carol, 100n, 2n]);
    await c.send('change_ownership', [bob], { caller: ALICE });
    await c.send('issue', [carol, 5n], { caller: BOB });
    expect(await c.int('balance', [carol])).to.equal(105n);
  });

  it('fixedpoint.se (macros over a fixed-point type) returns 5', async () => {
    const c = await Contract.deploy(chain, FIXEDPOINT);
    const r = await chain.call(c.address, new Uint8Array());
    expect(r.ok).to.equal(true);
    expect(word(r.returnValue)).to.equal(5n);
  });

  it('mathfuncs/collatz.se counts Collatz steps', async () => {
    const c = await Contract.deploy(chain, COLLATZ);
    expect(await c.int('collatz', [1n])).to.equal(0n);
    expect(await c.int('collatz', [6n])).to.equal(8n);
    expect(await c.int('collatz', [27n])).to.equal(111n);
  });

  it('a collatz loop program scans a range and keeps the longest chain in storage', async () => {
    const c = await Contract.deploy(chain, COLLATZ_LOOP);
    expect(await c.int('steps', [97n])).to.equal(118n);
    expect(await c.ints('scan', [1n, 30n])).to.deep.equal([27n, 111n]);
    expect(await chain.storage(c.address, 0n)).to.equal(1n); // runs
    expect(await chain.storage(c.address, 1n)).to.equal(27n); // longest.start
    expect(await chain.storage(c.address, 2n)).to.equal(111n); // longest.steps
  });

  it('mergesort.se sorts through recursive calls to itself', async () => {
    const c = await Contract.deploy(chain, MERGESORT);
    for (const xs of [[], [9n], [9n, 5n], [80n, 234n, 112n, 112n, 29n], [5n, -3n, 9n, 0n, -100n, 7n, 7n, 1n, 2n ** 200n, -(2n ** 200n)]]) {
      expect(await c.ints('sort', [xs])).to.deep.equal(signedSort(xs));
    }
  });

  it('the quicksort from the reference test-suite sorts too', async () => {
    const c = await Contract.deploy(chain, QUICKSORT);
    expect(await c.ints('sort', [[80n, 234n, 112n, 112n, 29n]])).to.deep.equal([29n, 80n, 112n, 112n, 234n]);
    expect(await c.ints('sort', [[3n, -1n, 2n]])).to.deep.equal([-1n, 2n, 3n]);
  });

  describe('crowdfund.se', () => {
    const recipient100 = 45n;
    const recipient200 = 48n;
    let c: Contract;
    before(async () => {
      c = await Contract.deploy(chain, CROWDFUND);
      await c.send('create_campaign', [100n, recipient100, 100000n, 2n], { timestamp: 1000n });
      await c.send('create_campaign', [200n, recipient200, 100000n, 2n], { timestamp: 1000n });
    });

    it('refuses to recreate an existing campaign', async () => {
      expect(await c.int('create_campaign', [100n, 99n, 1n, 1n])).to.equal(0n);
    });

    it('tracks contributions and reports progress', async () => {
      await c.send('contribute', [100n], { caller: BOB, value: 1n, timestamp: 1000n });
      expect(await c.int('progress_report', [100n])).to.equal(1n);
      await c.send('contribute', [200n], { caller: CAROL, value: 30000n, timestamp: 1000n });
      await c.send('contribute', [100n], { caller: CAROL, value: 59049n, timestamp: 1000n });
      expect(await c.int('progress_report', [100n])).to.equal(59050n);
      expect(await chain.balance(c.address)).to.equal(89050n);
    });

    it('pays the recipient once the goal is reached and clears the campaign', async () => {
      const r = await c.send('contribute', [200n], { caller: BOB, value: 70001n, timestamp: 1000n });
      expect(word(r.returnValue)).to.equal(1n);
      expect(await chain.balance(createAddressFromBigInt(recipient200))).to.equal(100001n);
      expect(await c.int('progress_report', [200n])).to.equal(0n);
    });

    it('ignores clear() from outside the contract', async () => {
      await c.send('clear', [100n], { caller: ALICE, timestamp: 1000n });
      expect(await c.int('progress_report', [100n])).to.equal(59050n);
    });

    it('refunds every contributor after the deadline', async () => {
      const bob = await chain.balance(BOB);
      const carol = await chain.balance(CAROL);
      const r = await c.send('contribute', [100n], { caller: ALICE, value: 1n, timestamp: 1003n });
      expect(word(r.returnValue)).to.equal(2n);
      expect((await chain.balance(BOB)) - bob).to.equal(1n);
      expect((await chain.balance(CAROL)) - carol).to.equal(59049n);
      expect(await c.int('progress_report', [100n])).to.equal(0n);
      expect(await chain.balance(c.address)).to.equal(0n);
    });

    it('stores campaign fields at the reference slots', async () => {
      const d = await Contract.deploy(chain, CROWDFUND);
      await d.send('create_campaign', [3n, 77n, 500n, 10n], { timestamp: 2000n });
      await d.send('contribute', [3n], { caller: BOB, value: 5n, timestamp: 2000n });
      const size = 5n + 2n ** 51n; // recipient..contrib_count + contribs[2^50](sender, value)
      const base = 3n * size;
      expect(await chain.storage(d.address, base)).to.equal(77n);
      expect(await chain.storage(d.address, base + 1n)).to.equal(500n);
      expect(await chain.storage(d.address, base + 2n)).to.equal(2010n);
      expect(await chain.storage(d.address, base + 3n)).to.equal(5n);
      expect(await chain.storage(d.address, base + 4n)).to.equal(1n);
      expect(await chain.storage(d.address, base + 5n)).to.equal(addressBig(BOB));
      expect(await chain.storage(d.address, base + 6n)).to.equal(5n);
    });
  });

  it('ecc/ecrecover.se (secp256k1 in Serpent over typed macros) recovers the signing key', async () => {
    const c = await Contract.deploy(chain, ECC_ECRECOVER, { options: { files: ECC_FILES }, gasLimit: 30_000_000n });
    const key = new SigningKey('0x' + '42'.repeat(32));
    const digest = '0x' + Buffer.from(keccak('hello serpent')).toString('hex');
    const sig = key.sign(digest);
    const xy = await c.get('ecrecover', [BigInt(digest), BigInt(sig.v), BigInt(sig.r), BigInt(sig.s)], 'uint256[]', { gasLimit: 30_000_000n });
    const pub = key.publicKey; // 0x04 || x || y
    expect(xy).to.deep.equal([BigInt('0x' + pub.slice(4, 68)), BigInt('0x' + pub.slice(68))]);
  });

  it('every example compiles without errors', () => {
    for (const src of [MUL2, NAMECOIN, CROWDFUND, SUBCURRENCY, FIXEDPOINT, COLLATZ, COLLATZ_LOOP, MERGESORT, QUICKSORT, DATAFEED, SHORT_NAMECOIN]) {
      expect(compileSerpent(src).bytecode.length).to.be.greaterThan(0);
    }
  });
});
