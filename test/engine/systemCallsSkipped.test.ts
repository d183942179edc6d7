/**
 * Blocks made without the system contracts' calls when none of those contracts exists
 * (blockBuilder.ts, ABSENT_SYSTEM_CONTRACTS): the same headers (state root, requests hash;
 * before the merge the miner's reward, which the seal pays),
 * hashes, receipts and refusals as the library's start and seal, on chains without the
 * contracts and on chains with them (hoodi's code: the library's calls run and queue a
 * withdrawal request), with transactions that create an account at a system contract's
 * address or log from the deposit contract's.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { createTx } from '@ethereumjs/tx';
import { Account, Address, bytesToHex, createAddressFromPrivateKey, createZeroAddress, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { MinedBlock } from '../../src/engine/blocks/blocks.js';
import { ABSENT_SYSTEM_CONTRACTS, type BlockTemplate, mineBlock } from '../../src/engine/execution/blockBuilder.js';
import { SYSTEM_CONTRACTS } from '../../src/engine/rules/systemContracts.js';
import type { PooledTransaction } from '../../src/engine/transactions/txpool.js';
import { bareChain } from '../helpers/bareChain.js';
import { randomSource } from '../helpers/random.js';

const GWEI = 1_000_000_000n;
const ETH = 10n ** 18n;
const keys = Array.from({ length: 3 }, (_, i) => keccak_256(Uint8Array.of(11, i)));
const senders = keys.map((key) => createAddressFromPrivateKey(key));
const address = (hex: string): Address => new Address(setLengthLeft(hexToBytes(hex as `0x${string}`), 20));
/** Logs a word with one topic, as a token's Transfer does. */
const LOGGER = address('0x10c0');
/** Mainnet's deposit contract address, which the library reads EIP-6110 deposits from; here code that logs a DepositEvent. */
const DEPOSIT = address('0x00000000219ab540356cbb839cbe05303d7705fa');
const DEPOSIT_TOPIC = hexToBytes('0x649bbc62d0e31342afea4e5cd82d4049e7e1ee912fc0889aa790803be39038c5');

/** A DepositEvent's data as the deposit contract ABI-encodes it: five offsets, then pubkey (48), credentials (32), amount (8), signature (96), index (8). */
function depositEventData(): Uint8Array {
  const data = new Uint8Array(576);
  const word = (at: number, value: number) => data.set(setLengthLeft(Uint8Array.of(value >> 8, value & 0xff), 32), at);
  [160, 256, 320, 384, 512].forEach((offset, i) => word(i * 32, offset));
  for (const [offset, size] of [
    [160, 48],
    [256, 32],
    [320, 8],
    [384, 96],
    [512, 8],
  ] as const) {
    word(offset, size);
    for (let i = 0; i < size; i++) data[offset + 32 + i] = (offset + i) & 0xff;
  }
  return data;
}

/** CODECOPY the event's data after this code into memory, then LOG1 it with the DepositEvent topic. */
function depositLoggerCode(): Uint8Array {
  const codeLength = 48;
  const code = [0x61, 0x02, 0x40, 0x60, codeLength, 0x60, 0x00, 0x39, 0x7f, ...DEPOSIT_TOPIC, 0x61, 0x02, 0x40, 0x60, 0x00, 0xa1, 0x00];
  expect(code.length).to.equal(codeLength);
  return Uint8Array.from([...code, ...depositEventData()]);
}
const WITHDRAWALS = address('0x00000961ef480eb55e80d19ad83579a64c007002');
const GENESIS_ALLOC = (
  JSON.parse(readFileSync(fileURLToPath(new URL('../../../test/fixtures/genesis/hoodi.json', import.meta.url)), 'utf8')) as {
    alloc: Record<string, { code?: string; storage?: Record<string, string> }>;
  }
).alloc;

/** The hoodi genesis's code and storage of a system contract. */
function hoodiContract(at: Address): { code: Uint8Array; storage: Array<[Uint8Array, Uint8Array]> } {
  const entry = Object.entries(GENESIS_ALLOC).find(([key]) => key.toLowerCase() === at.toString())![1];
  return {
    code: hexToBytes(entry.code as `0x${string}`),
    storage: Object.entries(entry.storage ?? {}).map(([slot, value]) => [hexToBytes(slot as `0x${string}`), hexToBytes(value as `0x${string}`)]),
  };
}

async function chainAt(hardfork: string, withContracts: boolean): Promise<{ vm: VM; genesis: MinedBlock }> {
  const { vm, genesis } = await bareChain(
    hardfork,
    senders.map((sender) => ({ address: sender, balance: 1_000n * ETH })),
  );
  const stateManager = vm.stateManager;
  // LOG1(0, 32, topic 7) of an empty word; the deposit address: a deposit (EIP-6110 makes it a request).
  await stateManager.putAccount(LOGGER, new Account(1n));
  await stateManager.putCode(LOGGER, Uint8Array.of(0x60, 0x07, 0x60, 0x20, 0x60, 0x00, 0xa1, 0x00));
  await stateManager.putAccount(DEPOSIT, new Account(1n));
  await stateManager.putCode(DEPOSIT, depositLoggerCode());
  if (withContracts) {
    for (const [, at] of SYSTEM_CONTRACTS) {
      const { code, storage } = hoodiContract(at);
      await stateManager.putAccount(at, new Account(1n));
      await stateManager.putCode(at, code);
      for (const [slot, value] of storage) await stateManager.putStorage(at, slot, value);
    }
  }
  await stateManager.getStateRoot();
  return { vm, genesis };
}

type Kind = 'transfer' | 'log' | 'deposit' | 'withdrawalRequest' | 'toSystemContract';

function transaction(vm: VM, kind: Kind, from: number, nonce: bigint, random: (below: number) => number) {
  const target: Record<Kind, Address> = {
    transfer: senders[(from + 1) % senders.length]!,
    log: LOGGER,
    deposit: DEPOSIT,
    // EIP-7002's request: a 48-byte public key and an 8-byte amount, with at least the fee (1 wei while the queue is short).
    withdrawalRequest: WITHDRAWALS,
    // A value transfer that makes an account at a system contract's address, where none was.
    toSystemContract: SYSTEM_CONTRACTS[random(SYSTEM_CONTRACTS.length)]![1],
  };
  const data = kind === 'withdrawalRequest' ? Uint8Array.from({ length: 56 }, (_, i) => (i * 7 + random(256)) & 0xff) : new Uint8Array();
  return createTx(
    {
      type: 2,
      nonce,
      to: target[kind],
      value: kind === 'log' || kind === 'deposit' ? 0n : 1_000n,
      gasLimit: kind === 'transfer' ? 21_000n : 300_000n,
      data,
      chainId: 1337n,
      maxFeePerGas: 50n * GWEI,
      maxPriorityFeePerGas: 1n,
    },
    { common: vm.common },
  ).sign(keys[from]!);
}

async function mine(vm: VM, parent: MinedBlock, kinds: readonly Kind[], template: BlockTemplate, skipping: boolean, random: (below: number) => number) {
  const candidates: PooledTransaction[] = [];
  for (const [arrival, kind] of kinds.entries()) {
    const from = arrival % senders.length;
    const pending = candidates.filter((entry) => entry.sender.equals(senders[from]!)).length;
    const nonce = ((await vm.stateManager.getAccount(senders[from]!))?.nonce ?? 0n) + BigInt(pending);
    const tx = transaction(vm, kind, from, nonce, random);
    candidates.push({ tx, sender: senders[from]!, hashHex: bytesToHex(tx.hash()), arrival });
  }
  ABSENT_SYSTEM_CONTRACTS.enabled = skipping;
  try {
    return await mineBlock(vm, parent, candidates, template);
  } finally {
    ABSENT_SYSTEM_CONTRACTS.enabled = true;
  }
}

describe('blocks without the system contracts’ calls when none exists (blockBuilder.ts)', () => {
  for (const hardfork of ['london', 'shanghai', 'cancun', 'prague', 'osaka']) {
    for (const withContracts of [false, true]) {
      it(`mines the same blocks as the library's start and seal on ${hardfork}, ${withContracts ? 'with' : 'without'} the system contracts`, async () => {
        const seed = hardfork.length * 17 + (withContracts ? 1 : 0);
        const [ourRandom, theirRandom, kindRandom] = [randomSource(seed), randomSource(seed), randomSource(seed + 1000)];
        const fast = await chainAt(hardfork, withContracts);
        const slow = await chainAt(hardfork, withContracts);
        let [fastParent, slowParent] = [fast.genesis, slow.genesis];
        const before = { ...ABSENT_SYSTEM_CONTRACTS };
        const requestsHashes = new Set<string>();
        const kinds: Kind[] = ['transfer', 'transfer', 'transfer', 'log', 'log', 'deposit'];
        if (withContracts) kinds.push('withdrawalRequest', 'withdrawalRequest');
        for (let block = 1; block <= 30; block++) {
          // Empty blocks now and then; from block 25 a transfer may create an account at a system contract's address.
          const count = kindRandom(4);
          const drafts = Array.from({ length: count }, () => kinds[kindRandom(kinds.length)]!);
          if (block >= 25 && kindRandom(2) === 0) drafts.push('toSystemContract');
          const template: BlockTemplate = { timestamp: 1_700_000_000n + BigInt(block * 12), coinbase: createZeroAddress(), gasLimit: 30_000_000n };
          const ours = await mine(fast.vm, fastParent, drafts, template, true, ourRandom);
          const theirs = await mine(slow.vm, slowParent, drafts, template, false, theirRandom);
          const label = `${hardfork} block ${block}: ${drafts.join(', ')}`;
          expect(ours.mined.block.header.toJSON(), label).to.deep.equal(theirs.mined.block.header.toJSON());
          expect(bytesToHex(ours.mined.hash), label).to.equal(bytesToHex(theirs.mined.hash));
          expect(ours.mined.receipts, label).to.deep.equal(theirs.mined.receipts);
          expect(
            ours.dropped.map((d) => d.entry.hashHex),
            label,
          ).to.deep.equal(theirs.dropped.map((d) => d.entry.hashHex));
          expect([...ours.failures.keys()], label).to.deep.equal([...theirs.failures.keys()]);
          const requestsHash = ours.mined.block.header.requestsHash;
          if (requestsHash) requestsHashes.add(bytesToHex(requestsHash));
          [fastParent, slowParent] = [ours.mined, theirs.mined];
        }
        const [starts, seals] = [ABSENT_SYSTEM_CONTRACTS.starts - before.starts, ABSENT_SYSTEM_CONTRACTS.seals - before.seals];
        const requests = hardfork === 'prague' || hardfork === 'osaka';
        if (withContracts) {
          // Every call ran: no block was started or sealed without them.
          if (!['london', 'shanghai'].includes(hardfork)) expect(starts, 'blocks started without the 4788/2935 writes').to.equal(0);
          if (requests) {
            expect(seals, 'blocks sealed without the request calls').to.equal(0);
            // The queued withdrawal requests came out of the system call into some blocks' requests.
            expect(requestsHashes.size, 'distinct requests hashes').to.be.greaterThan(1);
          }
        } else {
          // Where the rules call system contracts, the blocks before one got an account took the new path.
          expect(seals, 'blocks sealed without the request calls').to.be.greaterThan(requests ? 10 : 20);
          if (!['london', 'shanghai'].includes(hardfork)) expect(starts, 'blocks started without the 4788/2935 writes').to.be.greaterThan(10);
        }
      });
    }
  }
});
