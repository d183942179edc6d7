/**
 * No account value outside its type, whatever path writes it. ethereumjs checks a call's value
 * transfer but credits the coinbase's fees and a SELFDESTRUCT's payout unchecked, so an account
 * holding 2^256-1 could be pushed past 2^256: BALANCE then failed in calls, and the state dump
 * and --state file written from it could not be loaded back. The rule is go-ethereum's: balances
 * are uint256 and arithmetic on them wraps modulo 2^256.
 */
import { expect } from 'chai';
import { createProvider } from '../../src/index.js';
import type { ChainSimProvider } from '../../src/provider.js';
import { FIRST_ACCOUNT, requestError } from '../helpers/rpc.js';
import { StateFileError, decodeStateFile, encodeAlloc } from '../../src/persistence/stateFile.js';

const MAX = 2n ** 256n - 1n;
const hex = (n: bigint) => `0x${n.toString(16)}`;
const FULL = '0x00000000000000000000000000000000000000f1';

/** Init code that deploys a contract whose runtime SELFDESTRUCTs to `beneficiary` (PUSH20 b, SELFDESTRUCT). */
function selfDestructingTo(beneficiary: string): string {
  const runtime = `73${beneficiary.slice(2)}ff`;
  const length = runtime.length / 2;
  // PUSH1 len, DUP1, PUSH1 offset, PUSH1 0, CODECOPY, PUSH1 0, RETURN
  const init = `60${length.toString(16).padStart(2, '0')}80600b6000396000f3`;
  return `0x${init}${runtime}`;
}

/** Runtime code that returns BALANCE of `who` (PUSH20 who, BALANCE, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN). */
const balanceReader = (who: string) => `0x73${who.slice(2)}3160005260206000f3`;

describe('account values stay inside their types (go-ethereum: uint256 balances wrap)', () => {
  let provider: ChainSimProvider;
  const send = (tx: object) => provider.request({ method: 'eth_sendTransaction', params: [{ from: FIRST_ACCOUNT, ...tx }] }) as Promise<string>;
  const balanceOf = async (address: string) => BigInt((await provider.request({ method: 'eth_getBalance', params: [address, 'latest'] })) as string);

  beforeEach(() => {
    provider = createProvider({ quiet: true });
  });
  afterEach(() => provider.disconnect());

  it("wraps the coinbase's fee credit past 2^256-1, and the chain's state stays readable, dumpable and loadable", async () => {
    await provider.request({ method: 'hardhat_setBalance', params: [FULL, hex(MAX)] });
    await provider.request({ method: 'hardhat_setCoinbase', params: [FULL] });
    const hash = await send({ to: '0x0000000000000000000000000000000000000abc', value: '0x1', maxPriorityFeePerGas: '0x3b9aca00' });
    const receipt = (await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as {
      status: string;
      gasUsed: string;
      effectiveGasPrice: string;
    };
    expect(receipt.status).to.equal('0x1');
    const block = (await provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { baseFeePerGas: string };
    const tip = (BigInt(receipt.effectiveGasPrice) - BigInt(block.baseFeePerGas)) * BigInt(receipt.gasUsed);
    expect(tip > 0n).to.equal(true);
    expect(await balanceOf(FULL)).to.equal((MAX + tip) % 2n ** 256n);
    await expectReadableEverywhere(FULL);
  });

  it("wraps a SELFDESTRUCT's payout to an account holding 2^256-1", async () => {
    await provider.request({ method: 'hardhat_setBalance', params: [FULL, hex(MAX)] });
    const created = await send({ data: selfDestructingTo(FULL), value: hex(5n) });
    const { contractAddress } = (await provider.request({ method: 'eth_getTransactionReceipt', params: [created] })) as { contractAddress: string };
    expect(await balanceOf(contractAddress)).to.equal(5n);
    await send({ to: contractAddress, gas: '0x30000' });
    expect(await balanceOf(FULL)).to.equal(4n);
    await expectReadableEverywhere(FULL);
  });

  it('refuses a balance past 2^256-1 from hardhat_setBalance, naming the parameter', async () => {
    const error = await requestError(provider, 'hardhat_setBalance', [FULL, hex(MAX + 1n)]);
    expect(error.code).to.equal(-32602);
    expect(error.message).to.match(/balance/);
  });

  it('eth_simulateV1 refuses a block after one at timestamp 2^64-1, as mining does, and builds the one at 2^64-1', async () => {
    const last = hex(2n ** 64n - 1n);
    const error = await requestError(provider, 'eth_simulateV1', [{ blockStateCalls: [{ blockOverrides: { time: last } }, {}] }, 'latest']);
    expect(error.code).to.equal(-38021);
    expect(error.message).to.equal(`block timestamp ${2n ** 64n - 1n + 12n} would exceed 2^64-1`); // go-ethereum steps 12 s
    const gap = await requestError(provider, 'eth_simulateV1', [
      { blockStateCalls: [{ blockOverrides: { time: hex(2n ** 64n - 12n) } }, { blockOverrides: { number: '0x5' } }] },
      'latest',
    ]);
    expect(gap.code).to.equal(-38021);
    const [block] = (await provider.request({ method: 'eth_simulateV1', params: [{ blockStateCalls: [{ blockOverrides: { time: last } }] }, 'latest'] })) as {
      timestamp: string;
    }[];
    expect(block!.timestamp).to.equal(last);
  });

  it('the state file writer refuses what its reader would refuse, naming the field', () => {
    const alloc = new Map([[FULL, { balance: MAX + 1n, nonce: 0n, code: new Uint8Array(), storage: new Map() }]]);
    expect(() => encodeAlloc(alloc)).to.throw(StateFileError, `alloc.${FULL}.balance: ${MAX + 1n} cannot be written: out of range (0 to 2^256-1)`);
    const nonce = new Map([[FULL, { balance: 0n, nonce: 2n ** 64n, code: new Uint8Array(), storage: new Map() }]]);
    expect(() => encodeAlloc(nonce)).to.throw(StateFileError, /nonce: .* out of range \(0 to 2\^64-1\)/);
    const fine = new Map([[FULL, { balance: MAX, nonce: 2n ** 64n - 1n, code: new Uint8Array(), storage: new Map() }]]);
    expect(decodeStateFile({ alloc: encodeAlloc(fine) }).alloc.get(FULL)).to.deep.include({ balance: MAX, nonce: 2n ** 64n - 1n });
  });

  /** BALANCE in a call, eth_getBalance, and the dump loaded back into a new node. */
  async function expectReadableEverywhere(address: string) {
    const expected = await balanceOf(address);
    const reader = '0x00000000000000000000000000000000000000b1';
    await provider.request({ method: 'hardhat_setCode', params: [reader, balanceReader(address)] });
    const fromCall = (await provider.request({ method: 'eth_call', params: [{ to: reader }, 'latest'] })) as string;
    expect(BigInt(fromCall)).to.equal(expected);
    const dump = await provider.request({ method: 'chain_dumpState', params: [] });
    const other = createProvider({ quiet: true });
    try {
      await other.request({ method: 'chain_loadState', params: [dump] });
      expect(BigInt((await other.request({ method: 'eth_getBalance', params: [address, 'latest'] })) as string)).to.equal(expected);
    } finally {
      await other.disconnect();
    }
  }
});
