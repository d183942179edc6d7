import { expect } from 'chai';
import { type TypedTransaction, createTx } from '@ethereumjs/tx';
import { Account, Address, bytesToHex, createZeroAddress, createAddressFromPrivateKey, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { MinedBlock } from '../../src/engine/blocks/blocks.js';
import { PLAIN_TRANSFERS, type BlockTemplate, mineBlock } from '../../src/engine/execution/blockBuilder.js';
import type { PooledTransaction } from '../../src/engine/transactions/txpool.js';
import { bareChain } from '../helpers/bareChain.js';
import { randomSource } from '../helpers/random.js';

const GWEI = 1_000_000_000n;
const ETH = 10n ** 18n;
const keys = Array.from({ length: 4 }, (_, i) => keccak_256(Uint8Array.of(7, i)));
const senders = keys.map((key) => createAddressFromPrivateKey(key));
const address = (hex: string): Address => new Address(setLengthLeft(hexToBytes(hex as `0x${string}`), 20));
const CONTRACT = address('0xc0de');
const DELEGATED = address('0xde1e9a7ed0000000000000000000000000000001');
const EMPTY = address('0xe0e0e0e0e0000000000000000000000000000001');
const FRESH = address('0xf7e50000000000000000000000000000000000aa');
/** Every kind of recipient whose outcome differs: EOAs, the sender, precompiles, code, a delegation (EIP-7702), an empty account, a new one. */
const RECIPIENTS = [...senders, CONTRACT, DELEGATED, EMPTY, FRESH, address('0x01'), address('0x04'), address('0x0a'), address('0x100'), address('0xfffe')];
/** Coinbases: a missing account, an existing empty one, a sender, a fresh EOA. */
const COINBASES = [createZeroAddress(), EMPTY, senders[1]!, FRESH];

async function chainAt(hardfork: string): Promise<{ vm: VM; genesis: MinedBlock }> {
  const { vm, genesis } = await bareChain(
    hardfork,
    senders.map((sender, i) => ({ address: sender, balance: i === 3 ? 30_000n * 50n * GWEI : 1_000n * ETH })),
  );
  const stateManager = vm.stateManager;
  await stateManager.putAccount(CONTRACT, new Account(1n, 5n));
  await stateManager.putCode(CONTRACT, Uint8Array.of(0x60, 0x01, 0x60, 0x00, 0x55, 0x00)); // SSTORE(0, 1)
  await stateManager.putAccount(DELEGATED, new Account(0n, 7n));
  await stateManager.putCode(DELEGATED, new Uint8Array([0xef, 0x01, 0x00, ...CONTRACT.bytes]));
  await stateManager.putAccount(EMPTY, new Account());
  await stateManager.getStateRoot();
  return { vm, genesis };
}

interface Draft {
  readonly from: number;
  readonly build: (nonce: bigint) => TypedTransaction;
}

function randomDraft(random: (below: number) => number, vm: VM): Draft {
  const from = random(senders.length);
  // Now and then an address nothing has touched (a transfer of 0 to it must leave no account).
  const to = random(6) === 0 ? new Address(keccak_256(Uint8Array.of(9, random(256), random(256))).subarray(12)) : RECIPIENTS[random(RECIPIENTS.length)]!;
  const value = [0n, 1n, 12_345n, ETH, 2_000n * ETH][random(5)]!;
  const type = random(3);
  const gasLimit = [21_000n, 21_000n, 30_000n, 100_000n, 20_999n][random(5)]!;
  const data = random(8) === 0 ? Uint8Array.of(1, 2) : new Uint8Array();
  const accessList = type > 0 && random(6) === 0 ? [{ address: bytesToHex(CONTRACT.bytes), storageKeys: [] }] : [];
  const fees =
    type === 2
      ? { maxFeePerGas: [GWEI / 2n, 2n * GWEI, 50n * GWEI][random(3)]!, maxPriorityFeePerGas: [0n, 1n, GWEI / 4n][random(3)]! }
      : { gasPrice: [GWEI / 2n, GWEI, 3n * GWEI][random(3)]! };
  const nonceShift = random(10) === 0 ? BigInt(random(3)) - 1n : 0n; // now and then a wrong nonce
  return {
    from,
    build: (nonce) =>
      createTx(
        { type, nonce: nonce + nonceShift, to, value, gasLimit, data, accessList: type > 0 ? accessList : undefined, chainId: 1337n, ...fees } as never,
        {
          common: vm.common,
        },
      ).sign(keys[from]!),
  };
}

/** Mines `drafts` on `vm` as automine does (mineBlock), with the plain-transfer path on or off. */
async function mine(vm: VM, parent: MinedBlock, drafts: readonly Draft[], template: BlockTemplate, plain: boolean) {
  const nonces = new Map<number, bigint>();
  const candidates: PooledTransaction[] = [];
  for (const [arrival, draft] of drafts.entries()) {
    const nonce = nonces.get(draft.from) ?? (await vm.stateManager.getAccount(senders[draft.from]!))?.nonce ?? 0n;
    nonces.set(draft.from, nonce + 1n);
    const tx = draft.build(nonce);
    candidates.push({ tx, sender: senders[draft.from]!, hashHex: bytesToHex(tx.hash()), arrival });
  }
  PLAIN_TRANSFERS.enabled = plain;
  try {
    return await mineBlock(vm, parent, candidates, template);
  } finally {
    PLAIN_TRANSFERS.enabled = true;
  }
}

describe('plain transfers without the EVM (plainTransfer.ts)', () => {
  for (const hardfork of ['london', 'cancun', 'prague', 'osaka']) {
    it(`mines the same blocks, receipts and states as runTx on ${hardfork}, over random transfers and edge cases`, async () => {
      const random = randomSource(hardfork.length * 31);
      const fast = await chainAt(hardfork);
      const slow = await chainAt(hardfork);
      let [fastParent, slowParent] = [fast.genesis, slow.genesis];
      const applied = PLAIN_TRANSFERS.applied;
      let dropped = 0;
      for (let block = 1; block <= 60; block++) {
        const drafts = Array.from({ length: 1 + random(3) }, () => randomDraft(random, fast.vm));
        const template: BlockTemplate = {
          timestamp: 1_700_000_000n + BigInt(block * 12),
          coinbase: COINBASES[random(COINBASES.length)]!,
          gasLimit: 30_000_000n,
          // Now and then a set base fee (chain_setNextBlockBaseFeePerGas), else the EIP-1559 formula's.
          baseFeePerGas: random(5) === 0 ? [0n, 7n, 2n * GWEI][random(3)] : undefined,
        };
        const ours = await mine(fast.vm, fastParent, drafts, template, true);
        const theirs = await mine(slow.vm, slowParent, drafts, template, false);
        const label = `${hardfork} block ${block}`;
        for (const account of [...RECIPIENTS, ...COINBASES, ...ours.mined.block.transactions.map((tx) => tx.to!), template.coinbase]) {
          const [a, b] = [await fast.vm.stateManager.getAccount(account), await slow.vm.stateManager.getAccount(account)];
          expect(a?.serialize(), `${label} ${account} (coinbase ${template.coinbase})`).to.deep.equal(b?.serialize());
        }
        const txs = ours.mined.block.transactions.map((tx) => `${tx.type} to ${tx.to} value ${tx.value} data ${tx.data.length}`).join('; ');
        expect(ours.mined.receipts, `${label}: ${txs}`).to.deep.equal(theirs.mined.receipts);
        expect(ours.mined.block.header.toJSON(), `${label}: ${txs}`).to.deep.equal(theirs.mined.block.header.toJSON());
        expect(bytesToHex(ours.mined.hash), label).to.equal(bytesToHex(theirs.mined.hash));
        expect(
          ours.dropped.map((d) => d.entry.hashHex),
          label,
        ).to.deep.equal(theirs.dropped.map((d) => d.entry.hashHex));
        expect([...ours.failures.keys()], label).to.deep.equal([...theirs.failures.keys()]);
        dropped += ours.dropped.length;
        for (const account of [...RECIPIENTS, ...COINBASES]) {
          const [a, b] = [await fast.vm.stateManager.getAccount(account), await slow.vm.stateManager.getAccount(account)];
          expect(a?.serialize(), `${label} ${account}`).to.deep.equal(b?.serialize());
        }
        [fastParent, slowParent] = [ours.mined, theirs.mined];
      }
      // The property is only worth something if both paths ran: many transfers took the new one, some failed.
      expect(PLAIN_TRANSFERS.applied - applied, 'transfers applied without the EVM').to.be.greaterThan(15);
      expect(dropped, 'transactions refused').to.be.greaterThan(0);
    });
  }
});
