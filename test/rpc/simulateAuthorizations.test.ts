/**
 * eth_simulateV1 calls with an authorizationList (EIP-7702), as go-ethereum's simulate applies
 * them: the call becomes a set-code (type 4) transaction, valid authorizations delegate the
 * authority's code before the call runs (and stay for later calls of the simulation), invalid
 * ones are skipped, and a call without "to" or with an empty list fails as go-ethereum's pre-check does.
 */
import { expect } from 'chai';
import { bigIntToHex, bigIntToUnpaddedBytes, bytesToHex, eoaCode7702SignAuthorization, hexToBytes } from '@ethereumjs/util';
import { ADDRESSES, CHAIN_ID, KEYS, type Rpc, newNode } from '../helpers/chain.js';
import { postJson, rpcError, httpServerPerSuite } from '../helpers/rpc.js';

/** Runtime code that returns ADDRESS as a word: run as the authority, it answers the authority's address. */
const DELEGATE = '0x00000000000000000000000000000000000d1e9a';
const DELEGATE_CODE = '0x3060005260206000f3';
const AUTHORITY = ADDRESSES[2]!;
const word = (address: string) => `0x${address.slice(2).padStart(64, '0')}`;

type Block = Record<string, unknown> & { calls: Array<Record<string, unknown>>; transactions: Array<Record<string, unknown>> };

/** A signed authorization from key 2 in the request's JSON form. */
function signedAuthorization(nonce: bigint, chainId = BigInt(CHAIN_ID)) {
  const [, , , yParity, r, s] = eoaCode7702SignAuthorization(
    [bigIntToUnpaddedBytes(chainId), hexToBytes(DELEGATE), bigIntToUnpaddedBytes(nonce)],
    hexToBytes(KEYS[2]),
  );
  const hex = (bytes: Uint8Array) => (bytes.length === 0 ? '0x0' : `0x${BigInt(bytesToHex(bytes)).toString(16)}`);
  return { chainId: bigIntToHex(chainId), address: DELEGATE, nonce: bigIntToHex(nonce), yParity: hex(yParity), r: hex(r), s: hex(s) };
}

describe('eth_simulateV1 with authorizationList (EIP-7702)', function () {
  this.timeout(30_000);
  let rpc: Rpc;
  beforeEach(() => {
    ({ rpc } = newNode());
  });
  const simulate = (calls: unknown[], extra: Record<string, unknown> = {}) =>
    rpc<Block[]>('eth_simulateV1', [{ blockStateCalls: [{ stateOverrides: { [DELEGATE]: { code: DELEGATE_CODE } }, calls }], ...extra }, 'latest']);

  it('a signed authorization delegates the authority before the call, and for the calls after it', async () => {
    const [block] = await simulate(
      [
        { from: ADDRESSES[0], to: AUTHORITY, authorizationList: [signedAuthorization(0n)] },
        { from: ADDRESSES[0], to: AUTHORITY },
      ],
      { returnFullTransactions: true },
    );
    expect(block!.calls.map((c) => c.status)).to.deep.equal(['0x1', '0x1']);
    expect(block!.calls[0]!.returnData).to.equal(word(AUTHORITY));
    expect(block!.calls[1]!.returnData).to.equal(word(AUTHORITY));
    expect(block!.transactions[0]!.type).to.equal('0x4');
    expect((block!.transactions[0]!.authorizationList as unknown[]).length).to.equal(1);
    // The chain itself is untouched.
    expect(await rpc('eth_getCode', [AUTHORITY, 'latest'])).to.equal('0x');
  });

  it('without the authorization the authority has no code: the call returns nothing', async () => {
    const [block] = await simulate([{ from: ADDRESSES[0], to: AUTHORITY }]);
    expect(block!.calls[0]!.returnData).to.equal('0x');
  });

  it('an authorization for another chain or a stale nonce is skipped, as EIP-7702 says', async () => {
    const [block] = await simulate([
      { from: ADDRESSES[0], to: AUTHORITY, authorizationList: [signedAuthorization(0n, 999n)] },
      { from: ADDRESSES[0], to: AUTHORITY, authorizationList: [signedAuthorization(5n)] },
    ]);
    expect(block!.calls.map((c) => [c.status, c.returnData])).to.deep.equal([
      ['0x1', '0x'],
      ['0x1', '0x'],
    ]);
  });

  it('the authority sending its own authorization uses nonce + 1 (its nonce rises first)', async () => {
    const [block] = await simulate([{ from: AUTHORITY, to: AUTHORITY, authorizationList: [signedAuthorization(1n)] }]);
    expect(block!.calls[0]!.returnData).to.equal(word(AUTHORITY));
  });

  it('an unsigned authorization is signed by the node for one of its own accounts', async () => {
    const [block] = await simulate([
      {
        from: ADDRESSES[0],
        to: AUTHORITY,
        authorizationList: [{ chainId: bigIntToHex(BigInt(CHAIN_ID)), address: DELEGATE, nonce: '0x0', authority: AUTHORITY }],
      },
    ]);
    expect(block!.calls[0]!.returnData).to.equal(word(AUTHORITY));
  });

  it('authorizations cost gas: 25,000 per tuple, less the refund for an existing authority', async () => {
    const [plain] = await simulate([{ from: ADDRESSES[0], to: ADDRESSES[1] }]);
    const [withAuth] = await simulate([{ from: ADDRESSES[0], to: ADDRESSES[1], authorizationList: [signedAuthorization(0n)] }]);
    // The authority is a funded account: 25,000 charged, 12,500 refunded (capped at a fifth of the gas used).
    const used = BigInt(withAuth!.calls[0]!.gasUsed as string);
    expect(BigInt(plain!.calls[0]!.gasUsed as string)).to.equal(21_000n);
    expect(used).to.equal(46_000n - 46_000n / 5n);
  });

  it("refuses what go-ethereum refuses: no 'to', an empty list, gasPrice with authorizations", async () => {
    const create = await rpcError(() => simulate([{ from: ADDRESSES[0], authorizationList: [signedAuthorization(0n)] }]));
    expect(create.code).to.equal(-32603);
    expect(create.message).to.match(/^err: EIP-7702 transaction cannot be used to create contract \(sender 0x[0-9a-fA-F]{40}\) \(supplied gas \d+\)$/);
    const empty = await rpcError(() => simulate([{ from: ADDRESSES[0], to: AUTHORITY, authorizationList: [] }]));
    expect(empty.message).to.match(/^err: EIP-7702 transaction with empty auth list/);
    const legacy = await rpcError(() => simulate([{ from: ADDRESSES[0], to: AUTHORITY, gasPrice: '0x1', authorizationList: [signedAuthorization(0n)] }]));
    expect(legacy.message).to.equal('both gasPrice and authorizationList specified');
  });

  it('before Prague an authorization list is refused by name', async () => {
    const cancun = newNode({ hardfork: 'cancun' }).rpc;
    const error = await rpcError(() =>
      cancun('eth_simulateV1', [
        { blockStateCalls: [{ calls: [{ from: ADDRESSES[0], to: AUTHORITY, authorizationList: [signedAuthorization(0n)] }] }] },
        'latest',
      ]),
    );
    expect(error.message).to.match(/authorizationList \(EIP-7702\) needs the prague hardfork/);
  });

  describe('over HTTP', () => {
    const url = httpServerPerSuite({ hardfork: 'prague' });

    it('applies the authorization', async () => {
      const params = [
        {
          blockStateCalls: [
            {
              stateOverrides: { [DELEGATE]: { code: DELEGATE_CODE } },
              calls: [{ from: ADDRESSES[0], to: AUTHORITY, authorizationList: [signedAuthorization(0n)] }],
            },
          ],
        },
        'latest',
      ];
      const answer = JSON.parse((await postJson(url(), { jsonrpc: '2.0', id: 1, method: 'eth_simulateV1', params })).body) as { result: Block[] };
      expect(answer.result[0]!.calls[0]!.returnData).to.equal(word(AUTHORITY));
    });
  });
});
