/**
 * eth_signTypedData_v4 with a message that lacks a field its type declares: the error names
 * the field, its path and its type in MetaMask's words (viem's message had been `Cannot
 * convert undefined to a BigInt`, which says neither), and a long field name is clipped.
 */
import { expect } from 'chai';
import { createProvider } from '../../src/provider.js';
import { FIRST_ACCOUNT } from '../helpers/rpc.js';

const TYPES = {
  EIP712Domain: [{ name: 'name', type: 'string' }],
  Person: [
    { name: 'name', type: 'string' },
    { name: 'wallet', type: 'address' },
  ],
  Mail: [
    { name: 'from', type: 'Person' },
    { name: 'to', type: 'Person[]' },
    { name: 'amount', type: 'uint256' },
  ],
};
const PERSON = { name: 'Bob', wallet: '0x00000000000000000000000000000000000b0b00' };
const MAIL = { from: PERSON, to: [PERSON, PERSON], amount: '1' };

describe('rpc: eth_signTypedData_v4 names a missing field', () => {
  const provider = createProvider({ quiet: true });
  after(() => provider.disconnect());

  async function errorOf(typedData: unknown): Promise<{ code: number; message: string }> {
    return provider.request({ method: 'eth_signTypedData_v4', params: [FIRST_ACCOUNT, typedData] }).then(
      (result) => {
        throw new Error(`signed: ${String(result)}`);
      },
      (error: { code: number; message: string }) => error,
    );
  }

  it('signs the complete message (the control case)', async () => {
    const signature = await provider.request({
      method: 'eth_signTypedData_v4',
      params: [FIRST_ACCOUNT, { types: TYPES, primaryType: 'Mail', domain: { name: 'x' }, message: MAIL }],
    });
    expect(signature).to.match(/^0x[0-9a-f]{130}$/);
  });

  const cases: Array<[label: string, types: object, message: object, expected: string]> = [
    ['a top-level field', TYPES, { from: PERSON, to: [] }, 'missing value for field message.amount of type uint256'],
    ['a field of a nested struct', TYPES, { ...MAIL, from: { name: 'Bob' } }, 'missing value for field message.from.wallet of type address'],
    ['a field of an array element', TYPES, { ...MAIL, to: [PERSON, { wallet: PERSON.wallet }] }, 'missing value for field message.to[1].name of type string'],
    [
      'a 40 KB field name',
      { ...TYPES, Mail: [{ name: 'A'.repeat(40_000), type: 'uint256' }] },
      { x: '1' },
      `missing value for field message.${'A'.repeat(64)}… (40000 bytes) of type uint256`,
    ],
  ];
  for (const [label, types, message, expected] of cases) {
    it(`${label}: -32602 naming the field, its path and its type`, async () => {
      const error = await errorOf({ types, primaryType: 'Mail', domain: { name: 'x' }, message });
      expect(error.code).to.equal(-32602);
      expect(error.message).to.equal(`invalid argument 1 (typedData): ${expected}`);
    });
  }
});
