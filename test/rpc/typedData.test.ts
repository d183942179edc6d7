/**
 * EIP-712 hashing (src/rpc/typedData.ts) against two independent implementations: viem's
 * hashTypedData and ethers' TypedDataEncoder, on fixed cases and on random struct types with
 * nested structs, arrays of every depth and every atomic type. Then the refusals, each naming
 * the field, and the signature over the node as a wallet checks it.
 */
import { expect } from 'chai';
import { TypedDataEncoder, Wallet, verifyTypedData } from 'ethers';
import { hashTypedData } from 'viem';
import { createProvider } from '../../src/index.js';
import { parseTypedData, typedDataDigest } from '../../src/rpc/typedData.js';
import { randomSource } from '../helpers/random.js';

type Types = Record<string, { name: string; type: string }[]>;

interface Random {
  int(below: number): number;
  bytes(length: number): Uint8Array;
}

function seededRandom(seed: number): Random {
  const below = randomSource(seed);
  return { int: (n) => below(n), bytes: (length) => Uint8Array.from({ length }, () => below(256)) };
}

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
const ours = (typed: unknown) => hex(typedDataDigest(parseTypedData(typed)));

const MAIL_TYPES: Types = {
  Person: [
    { name: 'name', type: 'string' },
    { name: 'wallets', type: 'address[]' },
  ],
  Mail: [
    { name: 'from', type: 'Person' },
    { name: 'to', type: 'Person[]' },
    { name: 'contents', type: 'string' },
    { name: 'attachment', type: 'bytes' },
  ],
};

const MAIL = {
  types: MAIL_TYPES,
  primaryType: 'Mail',
  domain: { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
  message: {
    from: { name: 'Cow', wallets: ['0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826', '0xDeaDbeefdEAdbeefdEadbEEFdeadbeEFdEaDbeeF'] },
    to: [{ name: 'Bob', wallets: ['0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB', '0xB0BdaBea57B0BDABeA57b0bdABEA57b0BDabEa57'] }],
    contents: 'Hello, Bob! ünïcödé',
    attachment: '0xababababababababababab',
  },
};

describe('rpc: EIP-712 typed data hashing', () => {
  it('hashes the EIP-712 example as viem and ethers do, with the domain type given or implied', () => {
    const implied = ours(MAIL);
    expect(implied).to.equal(hashTypedData(MAIL as never));
    expect(implied).to.equal(TypedDataEncoder.hash(MAIL.domain, MAIL.types, MAIL.message));
    const EIP712Domain = [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ];
    expect(ours({ ...MAIL, types: { ...MAIL.types, EIP712Domain } })).to.equal(implied);
    // JSON text, as MetaMask sends it.
    expect(ours(JSON.stringify(MAIL))).to.equal(implied);
    // A domain type that differs from the domain's fields is the request's to choose.
    const nameOnly = { ...MAIL, types: { ...MAIL.types, EIP712Domain: [{ name: 'name', type: 'string' }] } };
    expect(ours(nameOnly)).to.equal(hashTypedData(nameOnly as never));
    expect(ours(nameOnly)).to.not.equal(implied);
  });

  it('signs the domain alone when the primary type is EIP712Domain', () => {
    const typed = { types: { EIP712Domain: [{ name: 'name', type: 'string' }] }, primaryType: 'EIP712Domain', domain: { name: 'x' }, message: {} };
    expect(ours(typed)).to.equal(hashTypedData(typed as never));
  });

  it('matches viem and ethers on 300 random struct types and values', () => {
    const random = seededRandom(712);
    for (let round = 0; round < 300; round++) {
      const { types, message } = randomTyped(random);
      const domain = { name: `app ${round}`, chainId: round + 1 };
      const typed = { types, primaryType: 'T0', domain, message };
      const expected = hashTypedData(typed as never);
      expect(ours(typed), JSON.stringify(typed)).to.equal(expected);
      expect(TypedDataEncoder.hash(domain, types, message), JSON.stringify(typed)).to.equal(expected);
    }
  });

  it('refuses what it cannot hash, naming the field and the rule', () => {
    const refusal = (change: (typed: Record<string, unknown>) => void) => {
      const typed = structuredClone(MAIL) as unknown as Record<string, unknown>;
      change(typed);
      try {
        ours(typed);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    const message = (typed: Record<string, unknown>) => typed.message as Record<string, Record<string, unknown>>;
    expect(refusal((t) => delete message(t).from!.name)).to.equal('missing value for field message.from.name of type string');
    expect(refusal((t) => (message(t).from!.wallets = ['0x12']))).to.equal('message.from.wallets[0]: expected a 20-byte address, got "0x12"');
    expect(refusal((t) => (message(t).from!.wallets = ['0xcD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826']))).to.match(
      /^message\.from\.wallets\[0\]: address 0x.* has a wrong checksum$/,
    );
    expect(refusal((t) => (message(t).from = 'Cow' as never))).to.equal('message.from: expected an object (struct Person)');
    expect(refusal((t) => (message(t).attachment = 'abc' as never))).to.equal('message.attachment: expected 0x-prefixed hex bytes, got "abc"');
    expect(refusal((t) => (t.primaryType = 'Letter'))).to.equal('primaryType: no type named "Letter" in types');
    expect(refusal((t) => ((t.domain as Record<string, unknown>).chain = 1))).to.match(/^domain\.chain: not an EIP-712 domain field/);
    expect(refusal((t) => delete t.message)).to.equal('typed data: "message" is missing');
    expect(refusal((t) => ((t.types as Types).Mail![2]!.type = 'strin'))).to.equal('message.contents: unknown type "strin"');

    const single = (type: string, value: unknown) => {
      try {
        ours({ types: { S: [{ name: 'v', type }] }, primaryType: 'S', domain: {}, message: { v: value } });
        return 'accepted';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(single('uint8', 256)).to.equal('message.v: 256 is out of range for uint8');
    expect(single('int8', '-129')).to.equal('message.v: -129 is out of range for int8');
    expect(single('int8', -128)).to.equal('accepted');
    expect(single('uint256', 1.5)).to.match(/^message\.v: expected an integer/);
    expect(single('uint256', 2 ** 60)).to.match(/^message\.v: expected an integer/);
    expect(single('uint7', 1)).to.equal('message.v: unknown type "uint7"');
    expect(single('bytes4', '0x010203')).to.equal('message.v: expected 4 bytes (bytes4), got 3');
    expect(single('bytes33', `0x${'00'.repeat(33)}`)).to.equal('message.v: unknown type "bytes33"');
    expect(single('bool', 'true')).to.equal('message.v: expected true or false, got "true"');
    expect(single('uint8[2]', [1])).to.equal('message.v: expected 2 items, got 1');
    expect(single('uint8[]', 1)).to.equal('message.v: expected an array (uint8[])');
  });

  it('hashes a recursive type, and refuses a message nested past the stack as -32602', async () => {
    const types = { Node: [{ name: 'children', type: 'Node[]' }] };
    const shallow = { children: [{ children: [] }, { children: [{ children: [] }] }] };
    expect(ours({ types, primaryType: 'Node', domain: {}, message: shallow })).to.equal(
      hashTypedData({ types, primaryType: 'Node', domain: {}, message: shallow } as never),
    );

    let deep: { children: unknown[] } = { children: [] };
    for (let i = 0; i < 200_000; i++) deep = { children: [deep] };
    const provider = await createProvider({ quiet: true });
    try {
      const [account] = (await provider.request({ method: 'eth_accounts' })) as string[];
      const error = await provider
        .request({ method: 'eth_signTypedData_v4', params: [account, { types, primaryType: 'Node', domain: {}, message: deep }] })
        .then(
          () => null,
          (e: { code: number; message: string }) => e,
        );
      expect(error?.code).to.equal(-32602);
      expect(error?.message).to.equal('invalid argument 1 (typedData): typed data nested too deeply');
    } finally {
      await provider.disconnect();
    }
  });

  it('signs as the account, checked by ethers, and deterministically', async () => {
    const provider = await createProvider({ quiet: true });
    try {
      const [account] = (await provider.request({ method: 'eth_accounts' })) as string[];
      const signature = (await provider.request({ method: 'eth_signTypedData_v4', params: [account, MAIL] })) as string;
      expect(verifyTypedData(MAIL.domain, MAIL.types, MAIL.message, signature).toLowerCase()).to.equal(account);
      // The well-known first key of the default mnemonic signs the same bytes in ethers.
      const wallet = new Wallet('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
      expect(wallet.address.toLowerCase()).to.equal(account);
      expect(signature).to.equal(await wallet.signTypedData(MAIL.domain, MAIL.types, MAIL.message));
    } finally {
      await provider.disconnect();
    }
  });
});

const ATOMIC = ['address', 'bool', 'string', 'bytes', 'uint8', 'uint64', 'uint256', 'int16', 'int256', 'bytes1', 'bytes20', 'bytes32'];

/** Struct types T0..Tn reachable from T0 (no cycles, so that ethers can find the primary type), and a message for T0. */
function randomTyped(random: Random): { types: Types; message: Record<string, unknown> } {
  const count = 1 + random.int(3);
  const types: Types = {};
  for (let t = count - 1; t >= 0; t--) {
    const fields = Array.from({ length: 1 + random.int(4) }, (_, f) => {
      let type = t + 1 < count && random.int(3) === 0 ? `T${t + 1 + random.int(count - t - 1)}` : ATOMIC[random.int(ATOMIC.length)]!;
      for (let dims = random.int(4) === 0 ? 1 + random.int(2) : 0; dims > 0; dims--) type += random.int(2) === 0 ? '[]' : `[${1 + random.int(3)}]`;
      return { name: `f${f}`, type };
    });
    types[`T${t}`] = fields;
  }
  // Every struct type must be reachable from T0 for ethers: T0 refers to each of the others.
  for (let t = 1; t < count; t++) types.T0!.push({ name: `r${t}`, type: `T${t}` });
  return { types, message: randomValue(random, types, 'T0') as Record<string, unknown> };
}

function randomValue(random: Random, types: Types, type: string): unknown {
  const array = /\[(\d*)\]$/.exec(type);
  if (array) {
    const length = array[1] === '' ? random.int(3) : Number(array[1]);
    return Array.from({ length }, () => randomValue(random, types, type.slice(0, array.index)));
  }
  const fields = types[type];
  if (fields) return Object.fromEntries(fields.map((field) => [field.name, randomValue(random, types, field.type)]));
  const bytes = (n: number) => hex(random.bytes(n));
  if (type === 'address') return bytes(20);
  if (type === 'bool') return random.int(2) === 0;
  if (type === 'string') return ['', 'a', 'héllo', 'x'.repeat(100)][random.int(4)];
  if (type === 'bytes') return bytes(random.int(70));
  const fixed = /^bytes(\d+)$/.exec(type);
  if (fixed) return bytes(Number(fixed[1]));
  const bits = Number(/\d+$/.exec(type)![0]);
  const magnitude = BigInt(hex(random.bytes(bits / 8))) >> (type.startsWith('int') ? 1n : 0n);
  const value = type.startsWith('int') && random.int(2) === 0 ? -magnitude : magnitude;
  // Small values as JSON numbers, large ones as decimal strings: both are accepted.
  return value < 2n ** 53n && value > -(2n ** 53n) ? Number(value) : value.toString();
}
