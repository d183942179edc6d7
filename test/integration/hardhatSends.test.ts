import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { ADDRESSES, expectRpcError, newNode, signed } from '../helpers/chain.js';
import { requestError, revertingInitCode } from '../helpers/rpc.js';

interface RecordedCase {
  readonly name: string;
  readonly payload?: string;
  readonly initCode?: string;
  readonly data?: string;
  readonly code: number;
  readonly message: string;
}

/** Recorded from `hardhat node`: what a send of a failing transaction answers there. */
const RECORDED = JSON.parse(readFileSync(new URL('../../../test/fixtures/hardhat-node-errors.json', import.meta.url), 'utf8')) as { cases: RecordedCase[] };

describe("Failed sends under automine, as Hardhat's node answers them (hardhatNode: true)", () => {
  for (const recorded of RECORDED.cases) {
    it(`${recorded.name}: Hardhat's code, message and data; the transaction is mined`, async () => {
      const { provider, rpc } = newNode({ hardhatNode: true });
      const data = recorded.initCode ?? revertingInitCode(recorded.payload!);
      const before = await rpc<string>('eth_blockNumber');
      const error = await requestError(provider, 'eth_sendTransaction', [{ from: ADDRESSES[0], data, gas: '0x100000' }]);
      const txHash = (error.data as { txHash?: string } | undefined)?.txHash;
      expect(txHash).to.match(/^0x[0-9a-f]{64}$/);
      expect({ code: error.code, message: error.message, data: error.data }).to.deep.equal({
        code: recorded.code,
        message: recorded.message,
        data: { message: recorded.message, txHash, data: recorded.data ?? recorded.payload },
      });
      const receipt = await rpc<{ status: string; blockNumber: string }>('eth_getTransactionReceipt', [txHash]);
      expect(receipt.status).to.equal('0x0');
      expect(BigInt(receipt.blockNumber)).to.equal(BigInt(before) + 1n);
    });
  }

  it('eth_sendRawTransaction answers the same; a successful send still answers its hash', async () => {
    const { provider, rpc } = newNode({ hardhatNode: true });
    const error = await requestError(provider, 'eth_sendRawTransaction', [await signed(1, { data: revertingInitCode('0x'), gasLimit: 100_000, nonce: 0 })]);
    expect(error.message).to.equal('Error: Transaction reverted without a reason string');
    const txHash = (error.data as { txHash: string }).txHash;
    expect((await rpc<{ status: string }>('eth_getTransactionReceipt', [txHash])).status).to.equal('0x0');
    const ok = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], to: ADDRESSES[1], value: '0x1' }]);
    expect(ok).to.match(/^0x[0-9a-f]{64}$/);
  });

  it('with automine off the send answers the hash, and the block mines it as failed', async () => {
    const { rpc } = newNode({ hardhatNode: true });
    await rpc('evm_setAutomine', [false]);
    const hash = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], data: revertingInitCode('0x'), gas: '0x100000' }]);
    await rpc('evm_mine');
    expect((await rpc<{ status: string }>('eth_getTransactionReceipt', [hash])).status).to.equal('0x0');
  });

  it("names itself Hardhat's node, in web3_clientVersion and hardhat_metadata", async () => {
    const { rpc } = newNode({ hardhatNode: true });
    const version = await rpc<string>('web3_clientVersion');
    expect(version).to.match(/^HardhatNetwork\/chain-sim\/v\d+\.\d+\.\d+\//);
    expect((await rpc<{ clientVersion: string }>('hardhat_metadata')).clientVersion).to.equal(version);
  });

  it("the chain_ names still answer the hash: the seed's contract, whatever the option", async () => {
    const { rpc } = newNode({ hardhatNode: true });
    const raw = await rpc<string>('chain_sendRawTransaction', [await signed(1, { data: revertingInitCode('0x'), gasLimit: 100_000, nonce: 0 })]);
    const sent = await rpc<string>('chain_sendTransaction', [{ from: ADDRESSES[0], data: revertingInitCode('0x'), gas: '0x100000' }]);
    for (const hash of [raw, sent]) {
      expect(hash).to.match(/^0x[0-9a-f]{64}$/);
      expect((await rpc<{ status: string }>('eth_getTransactionReceipt', [hash])).status).to.equal('0x0');
    }
  });

  it("eth_sendTransactionSync answers the failed transaction's receipt", async () => {
    const { rpc } = newNode({ hardhatNode: true });
    const receipt = await rpc<{ status: string }>('eth_sendTransactionSync', [{ from: ADDRESSES[0], data: revertingInitCode('0x'), gas: '0x100000' }]);
    expect(receipt.status).to.equal('0x0');
  });

  it("vmErrorsOnRPCResponse, asked for, answers Ganache's error instead; the chain_ names still answer the hash", async () => {
    const { rpc } = newNode({ hardhatNode: true, vmErrorsOnRPCResponse: true });
    const failing = { from: ADDRESSES[0], data: revertingInitCode('0x'), gas: '0x100000' };
    await expectRpcError(rpc('eth_sendTransaction', [failing]), -32000, /^VM Exception while processing transaction: revert$/);
    const hash = await rpc<string>('chain_sendTransaction', [failing]);
    expect((await rpc<{ status: string }>('eth_getTransactionReceipt', [hash])).status).to.equal('0x0');
  });
});

describe('Failed sends without a Hardhat client: the hash, as go-ethereum and Anvil', () => {
  for (const [label, options] of [
    ['by default (createProvider, the Mocha plugin: no Hardhat runtime)', {}],
    ['hardhatNode: false', { hardhatNode: false }],
  ] as const) {
    it(`${label}: eth_sendTransaction and eth_sendRawTransaction answer the hash, and the node names itself chain-sim`, async () => {
      const { rpc } = newNode(options);
      const before = BigInt(await rpc<string>('eth_blockNumber'));
      const sent = await rpc<string>('eth_sendTransaction', [{ from: ADDRESSES[0], data: revertingInitCode('0x'), gas: '0x100000' }]);
      const raw = await rpc<string>('eth_sendRawTransaction', [await signed(1, { data: revertingInitCode('0x'), gasLimit: 100_000, nonce: 0 })]);
      for (const [i, hash] of [sent, raw].entries()) {
        expect(hash).to.match(/^0x[0-9a-f]{64}$/);
        const receipt = await rpc<{ status: string; blockNumber: string }>('eth_getTransactionReceipt', [hash]);
        expect(receipt.status).to.equal('0x0');
        expect(BigInt(receipt.blockNumber)).to.equal(before + 1n + BigInt(i));
      }
      const version = await rpc<string>('web3_clientVersion');
      expect(version).to.match(/^chain-sim\/v\d+\.\d+\.\d+\//);
      expect((await rpc<{ clientVersion: string }>('hardhat_metadata')).clientVersion).to.equal(version);
    });
  }
});
